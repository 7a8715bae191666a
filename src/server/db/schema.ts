import type { ColumnType, Generated, SqlBool } from 'kysely';

/** SQLite answers 0 or 1 where PostgreSQL answers false or true; writes take a boolean. */
type Bool = ColumnType<SqlBool, boolean, boolean>;
/** ISO-8601 UTC text on both engines (timestamptz on PostgreSQL, read back as ISO text). */
type Timestamp = string;
/** A risk status a doctor may give: every status but UNKNOWN. */
type DoctorStatus = 'FALSE' | 'MAYBE' | 'TRUE' | 'DIAGNOSED';

/**
 * The unit a row belongs to (migration org-units). Every save names it (services/record-units.ts);
 * an insert may leave it out only for the migration tests' rows written on the schema before
 * the column existed. PostgreSQL refuses a row without one; SQLite gives it MAIN.
 */
type OrgUnitColumn = ColumnType<string, string | undefined, string>;

export interface UsersTable {
  id: string;
  username: string;
  display_name: string;
  role: 'nurse' | 'doctor' | 'admin' | 'manager';
  password_hash: string;
  disabled: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
  /**
   * When the grace for a required second factor began (MFA_REQUIRED_ROLES): the first sign-in at
   * which it applied; null until then, and after a factor is confirmed or the role changes.
   */
  second_factor_required_since: ColumnType<Timestamp | null, Timestamp | null | undefined>;
  /** The OpenID Connect provider's `sub` for this account, its only link there; unique. */
  oidc_subject: ColumnType<string | null, string | null | undefined>;
  /** Its password still signs in when LOCAL_SIGN_IN is false. */
  break_glass: ColumnType<SqlBool, boolean | undefined, boolean>;
}

export interface SessionsTable {
  /** SHA-256 of the session id; the id itself lives only in the user's cookie. */
  id_hash: string;
  user_id: string;
  created_at: Timestamp;
  last_seen_at: Timestamp;
  ended_at: Timestamp | null;
  /** The ID token a provider sign-in ended with, for the provider's sign-out; else null. */
  id_token: ColumnType<string | null, string | null | undefined>;
}

/** A sign-in sent to the OpenID Connect provider, awaiting the browser's return; used once. */
export interface OidcSignInsTable {
  /** SHA-256 of the random id in the browser's cookie, which binds the return to that browser. */
  binding_hash: string;
  state: string;
  nonce: string;
  code_verifier: string;
  created_at: Timestamp;
}

/** A launch from a record system as a SMART app (migration 20261129T0100-smart-launches). */
export interface SmartLaunchesTable {
  id: string;
  /** SHA-256 of the random id in the launching browser's cookie. */
  binding_hash: string;
  issuer: string;
  /** The `state` sent to the record's authorization server. */
  state_key: string;
  /** The SMART client's state as JSON: PKCE verifier, endpoints, then the token response. */
  client_state: string;
  patient_fhir_id: string | null;
  app_context: string | null;
  user_id: string | null;
  patient_record_id: string | null;
  /** What the record told (values and what could not be read), as JSON; null until read. */
  record: string | null;
  written_back_assessment_id: string | null;
  written_back_at: Timestamp | null;
  created_at: Timestamp;
}

/** One sign-in counter a key: attempts (or failures) within the window that began at window_start. */
export interface LoginThrottleTable {
  key: string;
  window_start: Timestamp;
  count: number;
}

export interface AuditEventsTable {
  id: Generated<number>;
  at: Timestamp;
  user_id: string | null;
  username: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  outcome: 'success' | 'failure';
  address: string | null;
  /** What the row cannot say in the others, never patient data (e.g. a refused token's claimed iss). */
  detail: string | null;
}

export interface PatientsTable {
  id: string;
  age: number | null;
  gender: 'Male' | 'Female' | null;
  height: number | null;
  weight: number | null;
  bmi: number;
  updated_at: Timestamp;
}

/**
 * A patient record: the person, known by a clinic patient number, whose assessments are kept over
 * time. Not the spec's `patients` table, which holds one assessment's measured demographics.
 */
export interface PatientRecordsTable {
  id: string;
  number: string;
  /** The number lower-cased: numbers are unique among live records without regard to case. */
  number_key: string;
  name: string | null;
  /** YYYY-MM-DD */
  birth_date: string | null;
  gender: 'Male' | 'Female' | null;
  version: number;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  deleted_at: Timestamp | null;
  deleted_by: string | null;
  /** The organisation unit the record is registered at (see OrgUnitColumn). */
  org_unit_id: OrgUnitColumn;
}

/** The lower-cased words of a patient record's name and number, which a search matches by start. */
export interface PatientRecordWordsTable {
  word: string;
  patient_record_id: string;
  /**
   * The record's number_key while the record is live, null while it is deleted: a search finds
   * and orders live records in the words' index without reading each record.
   */
  live_number_key: string | null;
  /**
   * All of the record's words, each after a space (' mrn 1234567 thandi dlamini'): a search
   * checks its other words here, in the index entry of its rarest one.
   */
  record_words: string;
}

export interface AssessmentsTable {
  id: string;
  patient_id: string;
  /** The patient record the assessment belongs to, if any. */
  patient_record_id: string | null;
  assessment_code: string | null;
  assessment_complete: Bool;
  total_score: number;
  notes: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  created_by: string | null;
  signed_off: Bool;
  signed_off_at: Timestamp | null;
  signed_off_by: string | null;
  signed_off_by_user_id: string | null;
  /** Optimistic concurrency: every update must name the version it was based on. */
  version: number;
  deleted_at: Timestamp | null;
  deleted_by: string | null;
  /** Lower-cased text the history search matches against: id, code, then `|` and the date. */
  search_text: string;
  /** Copies for the history's indexes: the patient's gender and age (kept by a trigger on
   * patients) and the creation date in the clinic's zone, as in search_text. */
  patient_gender: 'Male' | 'Female' | null;
  patient_age: number | null;
  created_local_date: string | null;
  /**
   * Kept by triggers from the results rows (migration worklists): 0 when a condition is at High
   * (TRUE), 1 when one is at Moderate (MAYBE) and none at High, else 2.
   */
  risk_rank: Generated<number>;
  /** Kept by triggers from the review rows: the doctor review is finalized. */
  review_locked: Generated<SqlBool>;
  /** The organisation unit where the assessment was done (see OrgUnitColumn). */
  org_unit_id: OrgUnitColumn;
  /**
   * How many times the doctor review was written, and when last (null before the first): a
   * review changes the assessment's FHIR RiskAssessments (their notes), not the assessment.
   */
  review_version: Generated<number>;
  reviewed_at: Timestamp | null;
}

export interface SymptomsTable {
  assessment_id: string;
  condition: string;
  symptom_key: string;
  present: Bool;
  severity: string | null;
}

export interface RiskFactorsTable {
  assessment_id: string;
  smoking: Bool | null;
  family_history_dm2: Bool | null;
  family_history_asthma: Bool | null;
  family_history_hypertension: Bool | null;
  family_history_hyperlipidaemia: Bool | null;
  household_tb_exposure: Bool | null;
}

export interface ManagementTable {
  assessment_id: string;
  condition: string;
  diagnosed: Bool;
  last_doctor_visit: string | null;
  prescription_duration: string | null;
}

export interface ResultsTable {
  assessment_id: string;
  condition: string;
  total_score: number;
  factor_count: number;
  risk_status: 'FALSE' | 'MAYBE' | 'TRUE' | 'DIAGNOSED' | 'UNKNOWN';
  symptom_score: number;
  risk_factor_score: number;
  management_score: number;
  comorbidity_score: number;
  threshold: number;
  rule_set_version: string;
}

export interface DoctorReviewsTable {
  id: string;
  assessment_id: string;
  condition: string;
  agreed: Bool;
  comments: string;
  created_at: Timestamp;
  reviewed_by: string;
  reviewed_by_user_id: string | null;
  locked: Bool;
  /**
   * The doctor chose Agree or Disagree; false for a condition left untouched (stored as not
   * agreed, and not reviewed). Written as false when an insert leaves it out.
   */
  decided: ColumnType<SqlBool, boolean | undefined, boolean>;
  /** The status the doctor would give when disagreeing; null when none was given. */
  doctor_status: ColumnType<
    DoctorStatus | null,
    DoctorStatus | null | undefined,
    DoctorStatus | null
  >;
}

/** SQLite only: an FTS5 trigram index of assessments.search_text (migration history-search). */
export interface AssessmentSearchTable {
  search_text: string;
  assessment_id: string;
}

/** One row: the numbers of live assessments and of those signed off, kept by triggers
 * (migration live-count). */
export interface AssessmentTotalsTable {
  id: number;
  live: number;
  live_signed_off: number;
}

/** Every local date that has assessments, once (migration history-columns). */
export interface AssessmentDatesTable {
  local_date: string;
}

/** Live assessments per local creation date, condition and risk status (migration kept-counts). */
export interface PopulationCountsTable {
  local_date: string;
  /** The unit of the assessments counted (migration unit-kept-counts). */
  org_unit_id: string;
  condition: string;
  risk_status: string;
  n: number;
}

/**
 * The decided rows of finalized reviews of live assessments, per local creation date of the
 * assessment, condition, the rules' current status, the doctor's status ('' when none was given)
 * and agreement (1 agreed, 0 not) (migration kept-counts).
 */
export interface AgreementCountsTable {
  local_date: string;
  /** The unit of the assessments reviewed (migration unit-kept-counts). */
  org_unit_id: string;
  condition: string;
  rule_status: string;
  doctor_status: string;
  agreed: 0 | 1;
  n: number;
}

/**
 * Per live patient record whose latest live assessment has a condition at High or Moderate: that
 * assessment, its rank (0 High, 1 Moderate) and time. Kept by triggers (migration worklists).
 */
export interface PatientFollowUpsTable {
  patient_record_id: string;
  assessment_id: string;
  level: number;
  assessed_at: Timestamp;
}

/** The length of each worklist ('review', 'follow_up'), kept by triggers. */
export interface WorklistTotalsTable {
  list: string;
  total: number;
}

/**
 * Changes of the kept counts and totals not yet folded into their rows (migration
 * kept-count-deltas): a count is its row plus its deltas.
 */
export type PopulationCountDeltasTable = PopulationCountsTable;
export type AgreementCountDeltasTable = AgreementCountsTable;
export type AssessmentTotalDeltasTable = Omit<AssessmentTotalsTable, 'id'>;
export type WorklistTotalDeltasTable = WorklistTotalsTable;

/** A user's TOTP second factor (RFC 6238); it counts once confirmed. */
export interface UserSecondFactorsTable {
  user_id: string;
  /** The shared secret, base32, as the user's authenticator app holds it. */
  secret: string;
  created_at: Timestamp;
  confirmed_at: Timestamp | null;
  /** The time step of the last code accepted: a code of that step or before is refused. */
  last_time_step: number | null;
}

/** A single-use recovery code of a user's second factor; only its SHA-256 is kept. */
export interface SecondFactorRecoveryCodesTable {
  code_hash: string;
  user_id: string;
  used_at: Timestamp | null;
}

/** A sign-in whose password was right, awaiting its second step; it grants nothing. */
export interface SecondFactorChallengesTable {
  /** SHA-256 of the id in the challenge cookie. */
  id_hash: string;
  user_id: string;
  created_at: Timestamp;
  /** `code`: answered with a code; `enrolment`: a user who must set up a factor may only do so. */
  purpose: SecondFactorChallengePurpose;
  /** The ID token of a provider's sign-in awaiting this step; null after a password. */
  id_token: ColumnType<string | null, string | null | undefined>;
}

export type SecondFactorChallengePurpose = 'code' | 'enrolment';

/** One activation of a rule set version; the latest is the one saves score with. */
export interface RuleSetActivationsTable {
  id: string;
  version: string;
  activated_at: Timestamp;
  /** The administrator who activated it. */
  activated_by: string;
}

/** An API token for another system's FHIR reads; only its SHA-256 is kept. */
export interface ApiTokensTable {
  id: string;
  /** Unique among live (unrevoked) tokens. */
  name: string;
  /** Hex SHA-256 of the token. */
  token_hash: string;
  created_at: Timestamp;
  /** Who made it: the command line's operator when null. */
  created_by: string | null;
  revoked_at: Timestamp | null;
  last_used_at: Timestamp | null;
  /** The unit it is registered for: it reads that unit's records and those below (see OrgUnitColumn). */
  org_unit_id: OrgUnitColumn;
}

/** A record system allowed to call the CDS Hooks service; exactly one of jwks and jwks_url is set. */
export interface CdsClientsTable {
  id: string;
  /** The `iss` of its JWTs; unique among live clients. */
  issuer: string;
  /** Its JWK Set (public keys only), as JSON text. */
  jwks: string | null;
  /** Where its JWK Set is read from. */
  jwks_url: string | null;
  created_at: Timestamp;
  /** Who registered it: the command line's operator when null. */
  created_by: string | null;
  removed_at: Timestamp | null;
  removed_by: string | null;
  /** The unit it is registered for: it reaches that unit's records and those below (see OrgUnitColumn). */
  org_unit_id: OrgUnitColumn;
}

/** A CDS client's JWT id already used, kept until the token expires. */
/** A FHIR server a CDS client may name as `fhirServer`: the URL is a prefix a call's must begin with. */
export interface CdsClientFhirServersTable {
  client_id: string;
  url: string;
  created_at: Timestamp;
}

export interface CdsJtisTable {
  issuer: string;
  jti: string;
  expires_at: Timestamp;
}

/** A system allowed to read the FHIR API by SMART Backend Services; exactly one of jwks and jwks_url is set. */
export interface FhirClientsTable {
  id: string;
  /** The `iss` and `sub` of its assertions; unique among live clients. */
  client_id: string;
  /** Its JWK Set (public keys only), as JSON text. */
  jwks: string | null;
  /** Where its JWK Set is read from. */
  jwks_url: string | null;
  /** The scopes it may be granted, space-separated (`system/Patient.rs system/RiskAssessment.rs`). */
  scopes: string;
  created_at: Timestamp;
  /** Who registered it: the command line's operator when null. */
  created_by: string | null;
  removed_at: Timestamp | null;
  removed_by: string | null;
  /** The unit it is registered for: it reaches that unit's records and those below (see OrgUnitColumn). */
  org_unit_id: OrgUnitColumn;
}

/** A FHIR client's assertion id already used, kept until the assertion expires. */
export interface FhirClientJtisTable {
  client_id: string;
  jti: string;
  expires_at: Timestamp;
}

/** An access token issued to a FHIR client: only its SHA-256 is kept, until it expires. */
export interface FhirAccessTokensTable {
  token_hash: string;
  /** The fhir_clients row (not the client id, which a later client may take again). */
  client_row_id: string;
  /** The scope granted, space-separated, in v2 syntax. */
  scope: string;
  expires_at: Timestamp;
}

/** A unit of the organisation's tree: a country, region, district or facility (issue 36). */
export interface OrgUnitsTable {
  id: string;
  code: string;
  /** The code lower-cased: codes are unique without regard to case. */
  code_key: string;
  name: string;
  /** Null at the top of the tree. */
  parent_id: string | null;
  /** Optimistic concurrency: a change names the version it was based on (If-Match). */
  version: number;
  /** A closed unit takes no new patients or assessments; its records stay. */
  closed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The units a user works in (at least one). */
export interface UserUnitsTable {
  user_id: string;
  org_unit_id: string;
}

/** A FHIR Bulk Data export (migration bulk-exports). */
export interface BulkExportJobsTable {
  id: string;
  /** Who started it: `user:{id}`, `api-token:{id}` or `fhir-client:{client id}`. */
  owner: string;
  /** The kick-off's URL, as the manifest's `request` gives it. */
  request: string;
  /** The resource types exported, comma-separated, in the order of their files. */
  types: string;
  since: Timestamp | null;
  /** The units of the caller's scope, as a JSON array; null: every unit. */
  scope_unit_ids: string | null;
  status: 'queued' | 'running' | 'completed' | 'failed';
  transaction_time: Timestamp;
  /** The part of the run reached (organizations, patient records, assessments). */
  phase: number;
  /** Where the phase goes on: the last row written, as JSON; null at its start. */
  cursor: string | null;
  resources_done: number;
  /** How many times a runner took it up. */
  attempts: number;
  runner_id: string | null;
  heartbeat_at: Timestamp | null;
  /** Why it failed, the OperationOutcome's diagnostics. */
  error: string | null;
  completed_at: Timestamp | null;
  expires_at: Timestamp | null;
}

/** A part of a bulk export's file: the lines one page wrote of one resource type. */
export interface BulkExportChunksTable {
  job_id: string;
  resource_type: string;
  /** The file of the type it belongs to, from 1. */
  file_index: number;
  chunk_index: number;
  line_count: number;
  /** The lines, gzipped: NDJSON shrinks about twentyfold, and so do the writes and the file. */
  ndjson_gzip: Uint8Array;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  oidc_sign_ins: OidcSignInsTable;
  smart_launches: SmartLaunchesTable;
  login_throttle: LoginThrottleTable;
  audit_events: AuditEventsTable;
  patients: PatientsTable;
  patient_records: PatientRecordsTable;
  patient_record_words: PatientRecordWordsTable;
  assessments: AssessmentsTable;
  symptoms: SymptomsTable;
  risk_factors: RiskFactorsTable;
  management: ManagementTable;
  results: ResultsTable;
  doctor_reviews: DoctorReviewsTable;
  assessment_search: AssessmentSearchTable;
  assessment_totals: AssessmentTotalsTable;
  assessment_dates: AssessmentDatesTable;
  population_counts: PopulationCountsTable;
  agreement_counts: AgreementCountsTable;
  patient_follow_ups: PatientFollowUpsTable;
  worklist_totals: WorklistTotalsTable;
  population_count_deltas: PopulationCountDeltasTable;
  agreement_count_deltas: AgreementCountDeltasTable;
  assessment_total_deltas: AssessmentTotalDeltasTable;
  worklist_total_deltas: WorklistTotalDeltasTable;
  rule_set_activations: RuleSetActivationsTable;
  cds_clients: CdsClientsTable;
  cds_jtis: CdsJtisTable;
  cds_client_fhir_servers: CdsClientFhirServersTable;
  fhir_clients: FhirClientsTable;
  fhir_client_jtis: FhirClientJtisTable;
  fhir_access_tokens: FhirAccessTokensTable;
  user_second_factors: UserSecondFactorsTable;
  second_factor_recovery_codes: SecondFactorRecoveryCodesTable;
  second_factor_challenges: SecondFactorChallengesTable;
  api_tokens: ApiTokensTable;
  org_units: OrgUnitsTable;
  user_units: UserUnitsTable;
  bulk_export_jobs: BulkExportJobsTable;
  bulk_export_chunks: BulkExportChunksTable;
}
