import { z } from 'zod';
import { calendarDateSchema } from './calendar-date.ts';

export const auditActions = [
  'login',
  'login_failed',
  'logout',
  'user_create',
  'user_update',
  'assessment_create',
  'assessment_update',
  'assessment_sign_off',
  'assessment_delete',
  'assessment_restore',
  'review_save',
  'review_lock',
  'export',
  'code_extraction',
  'patient_create',
  'patient_update',
  'patient_delete',
  'patient_restore',
  'patient_transfer',
  /** A patient page opened; the target is the patient record. */
  'patient_view',
  /** A patient search; the search text is never recorded. */
  'patient_search',
  /** The Follow-up Due list read (it names patients); one row per page read. */
  'follow_up_list_view',
  /** An impact analysis of a rule set version; the target is the version, never the dates. */
  'rule_set_impact',
  /** A rule set version made the one saves score with; the target is the version. */
  'rule_set_activate',
  /** An API token made (its name is the target; the token itself is never recorded). */
  'api_token_create',
  /** An API token revoked; the target is its name. */
  'api_token_revoke',
  /** A FHIR API read; the target is the resource read, the actor the user or `api-token:NAME`. */
  'fhir_read',
  /** A second factor's enrolment begun (a new secret); the target is the user. */
  'second_factor_enrol',
  /** A second factor confirmed with a code, and its recovery codes made; the target is the user. */
  'second_factor_confirm',
  /** A right password of a user with a second factor: the sign-in waits for the second step. */
  'second_factor_challenge',
  /**
   * The grace of a second factor required of the user's role began (MFA_REQUIRED_ROLES,
   * MFA_GRACE_DAYS): the first sign-in at which it applied; the target is the user.
   */
  'second_factor_grace_start',
  /**
   * A right password of a user whose role requires a second factor, past the grace: the sign-in
   * waits for the user to set one up.
   */
  'second_factor_enrolment_required',
  /** A second step that failed (a wrong, reused or expired code, or too many attempts). */
  'second_factor_failed',
  /** A recovery code used in place of a TOTP code at sign-in (each works once). */
  'second_factor_recovery_code_used',
  /** A user's second factor and recovery codes removed by an administrator (`triage user reset-mfa`). */
  'second_factor_reset',
  /** A record system registered to call the CDS Hooks service; the target is its issuer. */
  'cds_client_add',
  /** A CDS client removed; the target is its issuer. */
  'cds_client_remove',
  /** A system registered to read the FHIR API by SMART Backend Services; the target is its client id. */
  'fhir_client_add',
  /** A FHIR client removed; the target is its client id. */
  'fhir_client_remove',
  /** An access token asked of the token endpoint (failure when refused); the target is the client id claimed. */
  'fhir_token',
  /** A CDS Hooks service call (failure when refused); the target is the patient record when matched. */
  'cds_call',
  /** A change refused for want of permission (403); the target is the route refused. */
  'access_denied',
  /** An organisation unit made, changed (code, name or parent) or closed; the target is the unit. */
  'org_unit_create',
  'org_unit_update',
  'org_unit_close',
  /**
   * A launch from a record system as a SMART app: refused (an issuer not allowed, a refusal of
   * the record's authorization server), or taken up by a user; the detail names the issuer, the
   * target the patient record.
   */
  'smart_launch',
  /** The record read for a launch: which resources, how many, what could not be read; never values. */
  'smart_read',
  /** A saved assessment's RiskAssessments sent into the record (failure when they could not be). */
  'smart_write_back',
] as const;
export type AuditAction = (typeof auditActions)[number];

export const auditEventSchema = z.object({
  id: z.number(),
  at: z.string(),
  userId: z.string().nullable(),
  username: z.string().nullable(),
  /** The user's display name as it is now; null when the event names no user. */
  displayName: z.string().nullable(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  outcome: z.enum(['success', 'failure']),
  address: z.string().nullable(),
  /** What the other fields cannot say, never patient data (e.g. the issuer a refused token claimed). */
  detail: z.string().nullable(),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditQuerySchema = z.object({
  user: z.string().optional(),
  action: z.enum(auditActions).optional(),
  from: calendarDateSchema.optional(),
  to: calendarDateSchema.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
  /** The id of the last event of the previous page: pages go backwards in time. */
  before: z.coerce.number().int().positive().optional(),
});

export const auditListSchema = z.object({
  items: z.array(auditEventSchema),
  nextBefore: z.number().nullable(),
});
