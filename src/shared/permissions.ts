/**
 * The roles, here rather than with the user schemas (api/users.ts re-exports them), so that what
 * needs only the roles, such as the session's schema, does not build those.
 */
export const roles = ['nurse', 'doctor', 'admin'] as const;
export type Role = (typeof roles)[number];

/**
 * Every permission in one place: the role table of decisions.md section 1. The server enforces
 * it (a route names the action it performs; a service checks resource-dependent actions such as a
 * signed-off delete); the browser reads it only to decide what to offer.
 */
export const permissions = {
  'assessment.create': ['nurse', 'doctor', 'admin'],
  'assessment.update': ['nurse', 'doctor', 'admin'],
  'assessment.view': ['nurse', 'doctor', 'admin'],
  'assessment.list': ['nurse', 'doctor', 'admin'],
  'assessment.report': ['nurse', 'doctor', 'admin'],
  'assessment.signOff': ['nurse', 'doctor', 'admin'],
  'assessment.delete': ['nurse', 'doctor', 'admin'],
  'assessment.deleteSignedOff': ['admin'],
  'assessment.restore': ['admin'],
  /** Reading deleted assessments goes with restoring them. */
  'assessment.viewDeleted': ['admin'],
  'patient.view': ['nurse', 'doctor', 'admin'],
  'patient.create': ['nurse', 'doctor', 'admin'],
  'patient.update': ['nurse', 'doctor', 'admin'],
  'patient.delete': ['admin'],
  'patient.restore': ['admin'],
  /** Reading a deleted patient record goes with restoring it. */
  'patient.viewDeleted': ['admin'],
  'review.view': ['doctor', 'admin'],
  'review.save': ['doctor', 'admin'],
  'review.lock': ['doctor', 'admin'],
  /** Awaiting Review: signed-off assessments whose review is not finalized. */
  'worklist.review': ['doctor', 'admin'],
  /** Follow-up Due: patients at High or Moderate risk, by due date. */
  'worklist.followUp': ['nurse', 'doctor', 'admin'],
  'export.bulk': ['doctor', 'admin'],
  'export.fhir': ['doctor', 'admin'],
  'codes.extract': ['doctor', 'admin'],
  /** Reading the rule set versions, which is active, and every weight of one. */
  'ruleSet.view': ['nurse', 'doctor', 'admin'],
  /** Choosing the rule set new saves are scored with (issue 19). */
  'ruleSet.activate': ['admin'],
  /** Re-scoring the live assessments under a rule set version, saving nothing (issue 19). */
  'ruleSet.impact': ['doctor', 'admin'],
  /**
   * The FHIR R4 read API (issue 20): a FHIR export, so a signed-in person follows that row
   * (decisions.md section 1: nurses no). An API token may also use it.
   */
  'fhir.read': ['doctor', 'admin'],
  'users.manage': ['admin'],
  /** Reading the tree of organisation units (issue 36). */
  'orgUnit.view': ['nurse', 'doctor', 'admin'],
  /** Making, changing and closing organisation units. */
  'orgUnit.manage': ['admin'],
  'audit.read': ['admin'],
  /** The server's metrics (GET /api/metrics), which the METRICS_TOKEN setting also reads. */
  'metrics.read': ['admin'],
  /** Any signed-in user may report a browser error to the server log. */
  'clientErrors.report': ['nurse', 'doctor', 'admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof permissions;

export function can(role: Role, action: Action): boolean {
  return (permissions[action] as readonly Role[]).includes(role);
}
