import type { TriageMigration } from './types.ts';
import { initial } from './20261122T0400-initial.ts';
import { historySearch } from './20261122T0900-history-search.ts';
import { liveCount } from './20261122T1000-live-count.ts';
import { historyColumns } from './20261122T1100-history-columns.ts';
import { postgresTrigram } from './20261122T1200-postgres-trigram.ts';
import { loginThrottle } from './20261124T2330-login-throttle.ts';
import { auditNoRewrite } from './20261124T2345-audit-no-rewrite.ts';
import { patientRecords } from './20261125T0100-patient-records.ts';
import { reviewJudgement } from './20261125T0200-review-judgement.ts';
import { worklists } from './20261125T0300-worklists.ts';
import { keptCounts } from './20261125T0400-kept-counts.ts';
import { keptCountTotals } from './20261125T0410-kept-count-totals.ts';
import { ruleSetActivations } from './20261125T0500-rule-set-activations.ts';
import { cdsClients } from './20261125T0600-cds-clients.ts';
import { apiTokens } from './20261125T0610-api-tokens.ts';
import { mfa } from './20261125T0620-mfa.ts';
import { mfaRequired } from './20261125T0700-mfa-required.ts';
import { followUpInPlace } from './20261126T0100-follow-up-in-place.ts';
import { liveCountAtCommit } from './20261126T1700-live-count-at-commit.ts';
import { followUpOnInsert } from './20261126T1800-follow-up-on-insert.ts';
import { cdsFhirServers } from './20261128T0100-cds-fhir-servers.ts';
import { keptCountDeltas } from './20261128T0600-kept-count-deltas.ts';
import { oidcSignIn } from './20261128T1200-oidc-sign-in.ts';
import { orgUnits } from './20261128T1300-org-units.ts';
import { managerRole } from './20261128T1310-manager-role.ts';
import { fhirVersions } from './20261128T1400-fhir-versions.ts';
import { fhirClients } from './20261128T1500-fhir-clients.ts';
import { unitKeptCounts } from './20261128T1600-unit-kept-counts.ts';
import { clientUnits } from './20261128T1610-client-units.ts';
import { bulkExports } from './20261128T1620-bulk-exports.ts';
import { unitPatientNumbers } from './20261128T1630-unit-patient-numbers.ts';
import { unitHistoryIndex } from './20261128T1640-unit-history-index.ts';
import { smartLaunches } from './20261129T0100-smart-launches.ts';

/** Every migration in the order it runs; a new one is appended with a later timestamp. */
export const migrations: readonly TriageMigration[] = [
  initial,
  historySearch,
  liveCount,
  historyColumns,
  postgresTrigram,
  loginThrottle,
  auditNoRewrite,
  patientRecords,
  reviewJudgement,
  worklists,
  keptCounts,
  keptCountTotals,
  ruleSetActivations,
  cdsClients,
  apiTokens,
  mfa,
  mfaRequired,
  followUpInPlace,
  liveCountAtCommit,
  followUpOnInsert,
  cdsFhirServers,
  keptCountDeltas,
  oidcSignIn,
  orgUnits,
  managerRole,
  fhirVersions,
  fhirClients,
  unitKeptCounts,
  clientUnits,
  bulkExports,
  unitPatientNumbers,
  unitHistoryIndex,
  smartLaunches,
];
