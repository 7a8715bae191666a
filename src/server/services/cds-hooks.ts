import crypto from 'node:crypto';
import {
  score,
  type AssessmentResult,
  type PatientData,
  type RuleSet,
} from '../../engine/index.ts';
import {
  cdsRequestSchema,
  type CdsDiscovery,
  type CdsRequest,
  type CdsResponse,
} from '../../shared/api/cds-hooks.ts';
import { assessmentLinkFor, cardsFor, hasCards } from '../cds/cards.ts';
import { CdsRefusal, verifyCdsClient, type VerifiedClient } from '../cds/client-auth.ts';
import { FhirReadFailure, keysToRead, readMissingPrefetch } from '../cds/fhir-fetch.ts';
import { registeredServerOf } from '../cds/fhir-servers.ts';
import {
  prefetchedPatient,
  patientRecordCandidate,
  readRecord,
  type PatientRecordCandidate,
  type PrefetchData,
  type RecordDataUsed,
} from '../cds/prefetch-mapping.ts';
import { CDS_SERVICE, CDS_SERVICE_ID } from '../cds/service-definition.ts';
import { scopeOfUnits } from '../auth/scope.ts';
import type { AppContext } from '../context.ts';
import { cdsClientsRepository } from '../db/repositories/cds-clients.ts';
import type { Executor } from '../db/repositories/executor.ts';
import { orgUnitsRepository } from '../db/repositories/org-units.ts';
import { patientRecordsRepository } from '../db/repositories/patient-records.ts';
import { AppError, fieldPath } from '../errors.ts';
import { newPatientRecordRow } from './patients.ts';
import { localDate } from '../time.ts';
import { recordAudit } from './audit.ts';
import type { CdsFailureAudit } from './cds-failure-audit.ts';
import { activeRuleSet } from './rule-sets.ts';

/**
 * The CDS Hooks service (issue 20): discovery, and the call that scores a patient the record
 * system shows from its FHIR data and answers cards. The order of a call: the JWT, verified and
 * its `jti` spent before the body is even read (authenticateCdsCall); then the body, the FHIR
 * data (prefetched whole, else read whole from a registered fhirServer, else a 412), the score,
 * and one transaction that matches or creates the patient record and writes the audit row.
 * Every call is audited, a refused one as a failure (CdsFailureAudit caps those per address);
 * nothing here logs patient data.
 */

export function cdsDiscovery(): CdsDiscovery {
  return { services: [CDS_SERVICE] };
}

/** The service's URL, the JWT's expected `aud`: from PUBLIC_URL, else the request's own. */
export function cdsServiceUrl(base: string): string {
  return `${base}/cds-services/${CDS_SERVICE_ID}`;
}

export interface CdsCall {
  /** The product's base URL: PUBLIC_URL, else the request's protocol and host. */
  base: string;
  body: unknown;
  address: string;
}

function isUniqueViolation(error: unknown): boolean {
  return /UNIQUE constraint failed|duplicate key value/i.test(
    error instanceof Error ? error.message : '',
  );
}

/**
 * Verifies the call's JWT and spends its `jti`, before anything else of the call is read. A
 * refusal is audited with no user: what the token claimed is detail, never a user name.
 */
export async function authenticateCdsCall(
  context: AppContext,
  failures: CdsFailureAudit,
  call: { base: string; authorization: string | undefined; address: string },
): Promise<VerifiedClient> {
  try {
    return await verifyCdsClient(context, call.authorization, cdsServiceUrl(call.base));
  } catch (error) {
    if (error instanceof CdsRefusal) {
      const claimed =
        error.claimedIssuer === undefined ? 'no iss' : `claimed iss ${error.claimedIssuer}`;
      await failures.record({
        address: call.address,
        issuer: undefined,
        detail: `${claimed}: ${error.message}`,
      });
    }
    throw error;
  }
}

/** Audits a call refused after its JWT verified, before the service read it (a body not JSON). */
export async function auditUnreadCall(
  failures: CdsFailureAudit,
  address: string,
  verified: VerifiedClient | undefined,
  status: number,
): Promise<void> {
  await failures.record({
    address,
    issuer: verified?.issuer,
    detail: `the body could not be read (${status})`,
  });
}

/**
 * Finds the live patient record of the Patient's number within the client's scope (its unit and
 * those below), or creates it in the client's unit (audited as the record system's creation)
 * when `create`; undefined when there is none to link to. A number held by a record outside the
 * scope is not linked to, nor made again (a number is one patient's across the units); nor is a
 * record made in a closed unit.
 */
async function matchPatientRecord(
  context: AppContext,
  trx: Executor,
  verified: VerifiedClient,
  candidate: PatientRecordCandidate | undefined,
  create: boolean,
  address: string,
): Promise<string | undefined> {
  if (candidate === undefined) return undefined;
  const unitId = verified.client.org_unit_id;
  // Linked only within the client's scope, and only when one record there has the number:
  // numbers are unique within a unit, so two clinics of a district may both hold it.
  const scope = await scopeOfUnits(trx, [unitId]);
  const existing = await patientRecordsRepository.liveByNumberWithin(
    trx,
    scope,
    candidate.number,
    2,
  );
  if (existing.length > 0) return existing.length === 1 ? existing[0]?.id : undefined;
  if (!create) return undefined;
  const unit = await orgUnitsRepository.findById(trx, unitId);
  if (unit === undefined || unit.closed_at !== null) return undefined;
  const now = context.now();
  const row = newPatientRecordRow(candidate, { unitId: unit.id, createdBy: null, at: now });
  await patientRecordsRepository.insert(trx, row);
  await recordAudit(trx, {
    at: now,
    actor: { id: null, username: verified.issuer },
    action: 'patient_create',
    target: { type: 'patient', id: row.id },
    address,
  });
  return row.id;
}

/** Writes the call's audit row in one transaction with `work` (the patient record's match or creation). */
async function recordCall(
  context: AppContext,
  call: CdsCall,
  verified: VerifiedClient,
  work: (trx: Executor) => Promise<string | undefined>,
): Promise<string | undefined> {
  const now = context.now();
  const attempt = () =>
    context.database.transaction(async (trx) => {
      const patientRecordId = await work(trx);
      await recordAudit(trx, {
        at: now,
        actor: { id: null, username: verified.issuer },
        action: 'cds_call',
        target:
          patientRecordId === undefined
            ? { type: 'cds_service', id: CDS_SERVICE_ID }
            : { type: 'patient', id: patientRecordId },
        outcome: 'success',
        address: call.address,
      });
      return patientRecordId;
    });
  try {
    return await attempt();
  } catch (error) {
    // Two calls creating the same patient at once: the second finds the first's record.
    if (!isUniqueViolation(error)) throw error;
    return attempt();
  }
}

/** Items as a sentence lists them: `a`, `a and b`, `a, b and c`. */
function listed(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** A call naming a fhirServer its client did not register: nothing is read from it. */
class FhirServerRefusal extends AppError {
  readonly origin: string;
  constructor(origin: string) {
    super(
      412,
      'fhir_data_unavailable',
      'The fhirServer is not under a FHIR server registered for this client.',
      'fhirServer',
    );
    this.origin = origin;
  }
}

/**
 * The call's FHIR data by prefetch key, each read whole: as prefetched, else read from the
 * call's fhirServer (which must be under one the client registered), else a 412 naming the keys.
 */
async function prefetchOf(
  context: AppContext,
  verified: VerifiedClient,
  request: CdsRequest,
): Promise<PrefetchData> {
  const given = request.prefetch ?? {};
  let registered: string[] = [];
  if (request.fhirServer !== undefined) {
    registered =
      (await cdsClientsRepository.fhirServersOf(context.database.db, [verified.client.id])).get(
        verified.client.id,
      ) ?? [];
    const server = new URL(request.fhirServer);
    if (registeredServerOf(server, registered) === undefined) {
      throw new FhirServerRefusal(server.origin);
    }
  }
  const toRead = keysToRead(given);
  if (toRead.length === 0) return given as PrefetchData;
  const token = request.fhirAuthorization?.access_token;
  if (request.fhirServer === undefined || token === undefined) {
    const unusable = toRead.map(
      ({ key, state }) => `${key} (${state.kind === 'unread' ? state.why : 'one page of more'})`,
    );
    throw new AppError(
      412,
      'fhir_data_unavailable',
      `The prefetch of ${listed(unusable)} cannot be used, and the call names no fhirServer ` +
        `with fhirAuthorization to read ${toRead.length === 1 ? 'it' : 'them'} from.`,
    );
  }
  const base = new URL(
    request.fhirServer.endsWith('/') ? request.fhirServer : `${request.fhirServer}/`,
  );
  const read = await readMissingPrefetch(
    { base, accessToken: token, registered },
    given,
    request.context.patientId,
  );
  return { ...given, ...read } as PrefetchData;
}

/** What the audit row of a failed call says: what went wrong, never the patient. */
function failureDetail(error: AppError): string {
  if (error instanceof FhirReadFailure) return `412 ${error.met}`;
  if (error instanceof FhirServerRefusal) return `412 fhirServer not registered (${error.origin})`;
  return `${error.status} ${error.code}${error.field === undefined ? '' : ` ${error.field}`}`;
}

export async function callCdsService(
  context: AppContext,
  failures: CdsFailureAudit,
  verified: VerifiedClient,
  call: CdsCall,
): Promise<CdsResponse> {
  let scored: {
    input: PatientData;
    used: RecordDataUsed;
    result: AssessmentResult;
    ruleSet: RuleSet;
  };
  let candidate: PatientRecordCandidate | undefined;
  try {
    const parsed = cdsRequestSchema.safeParse(call.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = fieldPath(issue?.path ?? []);
      throw new AppError(
        400,
        'validation_failed',
        `${field}: ${issue?.message ?? 'Invalid'}`,
        field,
      );
    }
    const request = parsed.data;
    const prefetch = await prefetchOf(context, verified, request);
    const today = localDate(context.now(), context.config.timeZone);
    const { input, used } = readRecord(prefetch, request.context.patientId, today);
    const ruleSet = await activeRuleSet(context.database.db);
    scored = { input, used, result: score(input, ruleSet), ruleSet };
    const patient = prefetchedPatient(prefetch, request.context.patientId);
    candidate =
      patient === undefined
        ? undefined
        : patientRecordCandidate(patient, context.config.patientIdSystem, today);
  } catch (error) {
    // The refusal of the call stands even if its audit row cannot be written.
    if (error instanceof AppError) {
      await failures
        .record({ address: call.address, issuer: verified.issuer, detail: failureDetail(error) })
        .catch(() => undefined);
    }
    throw error;
  }

  // A record is created only when a card links to it; otherwise one is only looked for.
  const patientRecordId = await recordCall(context, call, verified, (trx) =>
    matchPatientRecord(context, trx, verified, candidate, hasCards(scored.result), call.address),
  );
  return {
    cards: cardsFor({
      ...scored,
      assessmentLink:
        patientRecordId === undefined
          ? undefined
          : assessmentLinkFor(call.base, patientRecordId, context.config.smart?.launchUrl),
      guidelinesUrl: `${call.base}/guidelines`,
      uuid: () => crypto.randomUUID(),
    }),
  };
}
