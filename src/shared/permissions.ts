/**
 * The roles, here rather than with the user schemas (api/users.ts re-exports them), so that what
 * needs only the roles, such as the session's schema, does not build those.
 */
export const roles = ['nurse', 'doctor', 'admin', 'manager'] as const;
export type Role = (typeof roles)[number];

/**
 * Every permission in one place: the role table of decisions.md section 1. A `manager` (a
 * district health manager) reads what a doctor reads, and the audit trail, and changes nothing. The server enforces
 * it (a route names the action it performs; a service checks resource-dependent actions such as a
 * signed-off delete); the browser reads it only to decide what to offer.
 */
export const permissions = {
  'assessment.create': ['nurse', 'doctor', 'admin'],
  'assessment.update': ['nurse', 'doctor', 'admin'],
  'assessment.view': ['nurse', 'doctor', 'admin', 'manager'],
  'assessment.list': ['nurse', 'doctor', 'admin', 'manager'],
  'assessment.report': ['nurse', 'doctor', 'admin', 'manager'],
  'assessment.signOff': ['nurse', 'doctor', 'admin'],
  'assessment.delete': ['nurse', 'doctor', 'admin'],
  'assessment.deleteSignedOff': ['admin'],
  'assessment.restore': ['admin'],
  /** Reading deleted assessments goes with restoring them. */
  'assessment.viewDeleted': ['admin'],
  'patient.view': ['nurse', 'doctor', 'admin', 'manager'],
  'patient.create': ['nurse', 'doctor', 'admin'],
  'patient.update': ['nurse', 'doctor', 'admin'],
  'patient.delete': ['admin'],
  'patient.restore': ['admin'],
  /** Reading a deleted patient record goes with restoring it. */
  'patient.viewDeleted': ['admin'],
  'review.view': ['doctor', 'admin', 'manager'],
  'review.save': ['doctor', 'admin'],
  'review.lock': ['doctor', 'admin'],
  /** Awaiting Review: signed-off assessments whose review is not finalized. */
  'worklist.review': ['doctor', 'admin', 'manager'],
  /** Follow-up Due: patients at High or Moderate risk, by due date. */
  'worklist.followUp': ['nurse', 'doctor', 'admin', 'manager'],
  'export.bulk': ['doctor', 'admin', 'manager'],
  'export.fhir': ['doctor', 'admin', 'manager'],
  'codes.extract': ['doctor', 'admin', 'manager'],
  /** Reading the rule set versions, which is active, and every weight of one. */
  'ruleSet.view': ['nurse', 'doctor', 'admin', 'manager'],
  /** Choosing the rule set new saves are scored with (issue 19). */
  'ruleSet.activate': ['admin'],
  /** Re-scoring the live assessments under a rule set version, saving nothing (issue 19). */
  'ruleSet.impact': ['doctor', 'admin', 'manager'],
  /**
   * The FHIR R4 read API (issue 20): a FHIR export, so a signed-in person follows that row
   * (decisions.md section 1: nurses no). An API token may also use it.
   */
  'fhir.read': ['doctor', 'admin', 'manager'],
  'users.manage': ['admin'],
  /** Reading the tree of organisation units (issue 36). */
  'orgUnit.view': ['nurse', 'doctor', 'admin', 'manager'],
  /**
   * A unit's roll-up: per unit below it the assessments, risks, worklists and agreement, over
   * the units within the caller's scope.
   */
  'orgUnit.summary': ['doctor', 'admin', 'manager'],
  /** Making, changing and closing organisation units. */
  'orgUnit.manage': ['admin'],
  'audit.read': ['admin', 'manager'],
  /** The server's metrics (GET /api/metrics), which the METRICS_TOKEN setting also reads. */
  'metrics.read': ['admin'],
  /** Any signed-in user may report a browser error to the server log. */
  'clientErrors.report': ['nurse', 'doctor', 'admin', 'manager'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof permissions;

export function can(role: Role, action: Action): boolean {
  return (permissions[action] as readonly Role[]).includes(role);
}
