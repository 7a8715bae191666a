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
  type CdsResponse,
} from '../../shared/api/cds-hooks.ts';
import { cardsFor, hasCards } from '../cds/cards.ts';
import { CdsRefusal, verifyCdsClient, type VerifiedClient } from '../cds/client-auth.ts';
import { fetchMissingPrefetch } from '../cds/fhir-fetch.ts';
import {
  mapPrefetch,
  prefetchedPatient,
  patientRecordCandidate,
  type PatientRecordCandidate,
  type PrefetchData,
} from '../cds/prefetch-mapping.ts';
import { CDS_SERVICE, CDS_SERVICE_ID, PREFETCH_KEYS } from '../cds/service-definition.ts';
import type { AppContext } from '../context.ts';
import { cdsClientsRepository } from '../db/repositories/cds-clients.ts';
import type { Executor } from '../db/repositories/executor.ts';
import { patientRecordsRepository } from '../db/repositories/patient-records.ts';
import { AppError, fieldPath } from '../errors.ts';
import { timeOrderedId } from '../ids.ts';
import { localDate } from '../time.ts';
import { recordAudit } from './audit.ts';
import { activeRuleSet } from './rule-sets.ts';

/**
 * The CDS Hooks service (issue 20): discovery, and the call that scores a patient the record
 * system shows from its FHIR data and answers cards. The order of a call: the JWT (nothing is
 * read before it verifies), the body, the FHIR data (prefetched, else fetched), the score, then
 * one transaction that spends the JWT's `jti`, matches or creates the patient record and writes
 * the audit row. Every call is audited, a refused one as a failure; nothing here logs patient data.
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
  authorization: string | undefined;
  body: unknown;
  address: string;
}

function isUniqueViolation(error: unknown): boolean {
  return /UNIQUE constraint failed|duplicate key value/i.test(
    error instanceof Error ? error.message : '',
  );
}

/** Audits a call refused before the service read it (its body could not be parsed). */
export async function auditUnreadCall(context: AppContext, address: string): Promise<void> {
  await recordAudit(context.database.db, {
    at: context.now(),
    actor: null,
    action: 'cds_call',
    target: { type: 'cds_service', id: CDS_SERVICE_ID },
    outcome: 'failure',
    address,
  });
}

async function auditRefusal(context: AppContext, call: CdsCall, issuer: string | undefined) {
  await recordAudit(context.database.db, {
    at: context.now(),
    actor: issuer === undefined ? null : { id: null, username: issuer },
    action: 'cds_call',
    target: { type: 'cds_service', id: CDS_SERVICE_ID },
    outcome: 'failure',
    address: call.address,
  });
}

/**
 * Finds the live patient record of the Patient's number, or creates it (audited as the record
 * system's creation) when `create`; undefined when there is none to link to.
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
  const existing = await patientRecordsRepository.findLiveByNumber(trx, candidate.number);
  if (existing !== undefined || !create) return existing?.id;
  const now = context.now();
  const id = timeOrderedId(now.getTime());
  await patientRecordsRepository.insert(trx, {
    id,
    number: candidate.number,
    number_key: candidate.number.toLowerCase(),
    name: candidate.name,
    birth_date: candidate.birthDate,
    gender: candidate.gender,
    version: 1,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    created_by: null,
    deleted_at: null,
    deleted_by: null,
  });
  await recordAudit(trx, {
    at: now,
    actor: { id: null, username: verified.issuer },
    action: 'patient_create',
    target: { type: 'patient', id },
    address,
  });
  return id;
}

/**
 * Spends the JWT's `jti` and writes the call's audit row in one transaction, with `work` (the
 * patient record's match or creation) in it; a `jti` another call spent first refuses this one.
 */
async function recordCall(
  context: AppContext,
  call: CdsCall,
  verified: VerifiedClient,
  outcome: 'success' | 'failure',
  work: (trx: Executor) => Promise<string | undefined> = async () => undefined,
): Promise<string | undefined> {
  const now = context.now();
  const attempt = () =>
    context.database.transaction(async (trx) => {
      const fresh = await cdsClientsRepository.useJti(
        trx,
        verified.issuer,
        verified.jti,
        verified.expiresAt.toISOString(),
      );
      if (!fresh) return { replayed: true, patientRecordId: undefined };
      await cdsClientsRepository.pruneJtis(trx, now.toISOString());
      const patientRecordId = await work(trx);
      await recordAudit(trx, {
        at: now,
        actor: { id: null, username: verified.issuer },
        action: 'cds_call',
        target:
          patientRecordId === undefined
            ? { type: 'cds_service', id: CDS_SERVICE_ID }
            : { type: 'patient', id: patientRecordId },
        outcome,
        address: call.address,
      });
      return { replayed: false, patientRecordId };
    });
  let recorded;
  try {
    recorded = await attempt();
  } catch (error) {
    // Two calls creating the same patient at once: the second finds the first's record.
    if (!isUniqueViolation(error)) throw error;
    recorded = await attempt();
  }
  if (recorded.replayed) {
    await auditRefusal(context, call, verified.issuer);
    throw new CdsRefusal("The JWT's jti was already used.", verified.issuer);
  }
  return recorded.patientRecordId;
}

/** The call's FHIR data by prefetch key: as prefetched, the rest fetched, or a 412. */
async function prefetchOf(
  request: ReturnType<typeof cdsRequestSchema.parse>,
): Promise<PrefetchData> {
  const given = request.prefetch ?? {};
  const missing = PREFETCH_KEYS.filter((key) => !(key in given));
  if (missing.length === 0) return given as PrefetchData;
  const token = request.fhirAuthorization?.access_token;
  if (request.fhirServer === undefined || token === undefined) {
    throw new AppError(
      412,
      'fhir_data_unavailable',
      `The call did not prefetch ${missing.join(', ')} and names no fhirServer with fhirAuthorization to read them from.`,
    );
  }
  const fetched = await fetchMissingPrefetch({
    fhirServer: request.fhirServer,
    accessToken: token,
    patientId: request.context.patientId,
    keys: missing,
  });
  return { ...given, ...fetched } as PrefetchData;
}

export async function callCdsService(context: AppContext, call: CdsCall): Promise<CdsResponse> {
  let verified: VerifiedClient;
  try {
    verified = await verifyCdsClient(context, call.authorization, cdsServiceUrl(call.base));
  } catch (error) {
    if (error instanceof CdsRefusal) await auditRefusal(context, call, error.claimedIssuer);
    throw error;
  }

  let scored: { input: PatientData; result: AssessmentResult; ruleSet: RuleSet };
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
    const prefetch = await prefetchOf(request);
    const today = localDate(context.now(), context.config.timeZone);
    const input = mapPrefetch(prefetch, request.context.patientId, today);
    const ruleSet = await activeRuleSet(context.database.db);
    scored = { input, result: score(input, ruleSet), ruleSet };
    const patient = prefetchedPatient(prefetch, request.context.patientId);
    candidate =
      patient === undefined
        ? undefined
        : patientRecordCandidate(patient, context.config.patientIdSystem, today);
  } catch (error) {
    // The refusal of the call stands even if its audit row cannot be written.
    if (error instanceof AppError) {
      await recordCall(context, call, verified, 'failure').catch(() => undefined);
    }
    throw error;
  }

  // A record is created only when a card links to it; otherwise one is only looked for.
  const patientRecordId = await recordCall(context, call, verified, 'success', (trx) =>
    matchPatientRecord(context, trx, verified, candidate, hasCards(scored.result), call.address),
  );
  return {
    cards: cardsFor({
      ...scored,
      assessmentUrl:
        patientRecordId === undefined
          ? undefined
          : `${call.base}/assessments/new?patient=${encodeURIComponent(patientRecordId)}`,
      guidelinesUrl: `${call.base}/guidelines`,
      uuid: () => crypto.randomUUID(),
    }),
  };
}
