import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import {
  RECORD_RESOURCES,
  type RecordResource,
  type RecordValue,
  type SmartLaunch,
  type SmartWriteBackResult,
} from '../../shared/api/smart-launch.ts';
import type { Requester } from '../auth/requester.ts';
import { hashSessionId, newSessionId } from '../auth/sessions.ts';
import { FhirReadFailure, readWhole, type FhirSource } from '../cds/fhir-fetch.ts';
import { namedAddresses } from '../cds/fhir-servers.ts';
import { OutboundFailure, outboundRequest } from '../cds/outbound-get.ts';
import { patientRecordCandidate, prefetchedPatient } from '../cds/prefetch-mapping.ts';
import type { PrefetchKey } from '../cds/service-definition.ts';
import type { SmartSettings } from '../config.ts';
import type { AppContext } from '../context.ts';
import { patientRecordsRepository } from '../db/repositories/patient-records.ts';
import { smartLaunchesRepository, type SmartLaunchRow } from '../db/repositories/smart-launches.ts';
import { AppError } from '../errors.ts';
import { timeOrderedId } from '../ids.ts';
import { recordValues } from '../smart/record-values.ts';
import { localDate } from '../time.ts';
import { recordAudit } from './audit.ts';
import { REMOTE_TIMEOUT_MS } from './cds-clients.ts';
import { loadAssessmentBundle } from './fhir.ts';
import { newPatientRecordRow } from './patients.ts';
import { unitForNewRecord } from './record-units.ts';

/**
 * The product as a SMART app a record system launches (issue 39). The server is the SMART
 * client: `fhirclient` (the SMART project's library) discovers the issuer, sends the browser to
 * its authorization server with PKCE and state, and exchanges the code; the token stays here, so
 * the browser never holds it and reads only this product's API. A launch is bound to the browser
 * that began it by a cookie of its own, and taken up by the user who signs in there.
 */

/** What this product uses of fhirclient's state (its own types would bring the DOM's in). */
interface ClientState {
  scope?: string;
  expiresAt?: number;
  tokenResponse?: Record<string, unknown>;
}

/** fhirclient's Node entry: the SMART API over one request and response, with a storage. */
type SmartClient = (
  request: IncomingMessage,
  response: ServerResponse,
  storage: ReturnType<typeof requestStorage>,
) => {
  authorize(options: Record<string, unknown>): Promise<string | undefined>;
  ready(): Promise<{ state: ClientState }>;
};
const smart = createRequire(import.meta.url)('fhirclient') as SmartClient;

/** Where a record system launches the app, and where its authorization server sends it back. */
export const smartLaunchPath = '/smart/launch';
export const smartCallbackPath = '/smart/callback';

/** The cookie that binds a launch to the browser that began it. */
export const smartLaunchCookieName = 'triage_smart_launch';
/** How long the record's authorization server may take to send the browser back. */
export const smartAuthorizationLifetimeMs = 10 * 60_000;
/** How long a launch is kept: a nurse's assessment of the patient, with time to send it back. */
export const smartLaunchLifetimeMs = 12 * 3600_000;

/** A launch refused before it reached the wizard, with the sentence the page shows. */
export class SmartLaunchRefused extends Error {
  readonly status: number;
  constructor(status: number, sentence: string) {
    super(sentence);
    this.status = status;
  }
}

/** fhirclient's storage, kept in memory for one request; the database keeps it between them. */
function requestStorage(initial: Record<string, unknown> = {}) {
  const values = new Map<string, unknown>(Object.entries(initial));
  return {
    values,
    get: (key: string) => Promise.resolve(values.get(key)),
    set: (key: string, value: unknown) => {
      values.set(key, value);
      return Promise.resolve(value);
    },
    unset: (key: string) => Promise.resolve(values.delete(key)),
  };
}

/** The issuer as SMART_ISSUERS lists it, or undefined when it is not allowed. */
export function allowedIssuer(settings: SmartSettings, iss: string): string | undefined {
  const wanted = iss.replace(/\/+$/, '');
  return settings.issuers.find((issuer) => issuer === wanted);
}

/** The origin of a live launch of this browser's cookie, which may frame the app's pages. */
export async function framingOrigin(
  context: AppContext,
  bindingId: string | undefined,
): Promise<string | undefined> {
  if (bindingId === undefined || bindingId === '' || context.config.smart === undefined) {
    return undefined;
  }
  const since = new Date(context.now().getTime() - smartLaunchLifetimeMs).toISOString();
  const issuer = await smartLaunchesRepository.issuerOfBinding(
    context.database.db,
    hashSessionId(bindingId),
    since,
  );
  return issuer === undefined ? undefined : new URL(issuer).origin;
}

async function auditRefusal(
  context: AppContext,
  address: string,
  detail: string,
  actor: { id: string | null; username: string } | null = null,
): Promise<void> {
  await recordAudit(context.database.db, {
    at: context.now(),
    actor,
    action: 'smart_launch',
    outcome: 'failure',
    address,
    detail,
  });
}

/**
 * `/smart/launch?iss=…&launch=…`: an allowed issuer's launch is kept and the browser sent to the
 * issuer's authorization server; any other is refused with a sentence.
 */
export async function startSmartLaunch(
  context: AppContext,
  settings: SmartSettings,
  raw: { request: IncomingMessage; response: ServerResponse },
  query: { iss: string | undefined; launch: string | undefined; address: string },
): Promise<{ bindingId: string; redirectTo: string }> {
  const iss = query.iss ?? '';
  const issuer = allowedIssuer(settings, iss);
  if (issuer === undefined) {
    await auditRefusal(context, query.address, `refused: issuer not allowed ${iss.slice(0, 200)}`);
    throw new SmartLaunchRefused(
      403,
      iss === ''
        ? 'This app opens from a record system, which names itself in the launch (iss); this launch names none.'
        : `The record system ${iss.slice(0, 200)} is not allowed to open this app. Ask your administrator to add it to the allowed record systems (SMART_ISSUERS).`,
    );
  }
  if (query.launch === undefined || query.launch === '') {
    await auditRefusal(context, query.address, `refused: no launch context issuer=${issuer}`);
    throw new SmartLaunchRefused(
      400,
      'The record system sent no launch context. Open the app again from the patient’s chart.',
    );
  }
  const storage = requestStorage();
  let redirectTo: string | undefined;
  try {
    redirectTo = await smart(raw.request, raw.response, storage).authorize({
      clientId: settings.clientId,
      scope: settings.scopes,
      redirectUri: settings.redirectUri,
      iss: issuer,
      launch: query.launch,
      pkceMode: 'required',
      noRedirect: true,
      completeInTarget: true,
    });
  } catch {
    await auditRefusal(context, query.address, `refused: discovery failed issuer=${issuer}`);
    throw new SmartLaunchRefused(
      502,
      `The record system ${issuer} could not be reached to authorize the app (its SMART configuration did not answer). Try again, or ask your administrator.`,
    );
  }
  const stateKey = await storage.get('SMART_KEY');
  const clientState = typeof stateKey === 'string' ? await storage.get(stateKey) : undefined;
  if (typeof redirectTo !== 'string' || typeof stateKey !== 'string' || !clientState) {
    throw new Error('The SMART client kept no state for the launch');
  }
  const bindingId = newSessionId();
  const now = context.now();
  await smartLaunchesRepository.insert(
    context.database.db,
    {
      id: timeOrderedId(now.getTime()),
      binding_hash: hashSessionId(bindingId),
      issuer,
      state_key: stateKey,
      client_state: JSON.stringify(clientState),
      created_at: now.toISOString(),
    },
    new Date(now.getTime() - smartLaunchLifetimeMs).toISOString(),
  );
  return { bindingId, redirectTo };
}

/**
 * `/smart/callback?code=…&state=…`: the launch this browser began is found by its state and
 * cookie, and the SMART client exchanges the code (PKCE) for the token and the patient in context.
 * Returns the launch's id, which the wizard opens with.
 */
export async function finishSmartLaunch(
  context: AppContext,
  raw: { request: IncomingMessage; response: ServerResponse },
  attempt: {
    bindingId: string | undefined;
    state: string | undefined;
    error: string | undefined;
    address: string;
  },
): Promise<string> {
  const db = context.database.db;
  const row =
    attempt.state === undefined
      ? undefined
      : await smartLaunchesRepository.findByStateKey(db, attempt.state);
  const expired =
    row === undefined ||
    attempt.bindingId === undefined ||
    row.binding_hash !== hashSessionId(attempt.bindingId) ||
    row.patient_fhir_id !== null ||
    context.now().getTime() - Date.parse(row.created_at) >= smartAuthorizationLifetimeMs;
  if (row === undefined || expired) {
    await auditRefusal(
      context,
      attempt.address,
      'refused: no launch of this browser awaits an answer',
    );
    throw new SmartLaunchRefused(
      400,
      'This launch has expired or began in another browser. Open the app again from the patient’s chart.',
    );
  }
  if (attempt.error !== undefined) {
    const error = attempt.error.slice(0, 100);
    await auditRefusal(
      context,
      attempt.address,
      `refused by the authorization server: ${error} issuer=${row.issuer}`,
    );
    throw new SmartLaunchRefused(
      403,
      `The record system did not authorize the app (${error}). Open it again from the patient’s chart, or ask your administrator.`,
    );
  }
  const storage = requestStorage({
    SMART_KEY: row.state_key,
    [row.state_key]: JSON.parse(row.client_state) as unknown,
  });
  let state: ClientState;
  try {
    state = (await smart(raw.request, raw.response, storage).ready()).state;
  } catch {
    await auditRefusal(
      context,
      attempt.address,
      `refused: the token exchange failed issuer=${row.issuer}`,
    );
    throw new SmartLaunchRefused(
      502,
      'The record system did not give the app access to the chart. Open it again from the patient’s chart.',
    );
  }
  const patient = state.tokenResponse?.patient;
  if (typeof patient !== 'string' || patient === '') {
    await auditRefusal(
      context,
      attempt.address,
      `refused: no patient in context issuer=${row.issuer}`,
    );
    throw new SmartLaunchRefused(
      400,
      'The record system sent no patient with the launch. Open the app from a patient’s chart.',
    );
  }
  const appContext = state.tokenResponse?.appContext;
  await smartLaunchesRepository.update(db, row.id, {
    client_state: JSON.stringify(state),
    patient_fhir_id: patient,
    app_context: appContext === undefined ? null : JSON.stringify(appContext).slice(0, 2000),
  });
  return row.id;
}

/**
 * Whether a scope text grants reading (or searching) or creating a type in the patient's
 * compartment: SMART v2 letters (`.rs`, `.c`), v1 `.read` / `.write`, or `*`.
 */
function grants(scopes: readonly string[], type: string, wanted: 'read' | 'create'): boolean {
  return scopes.some((scope) => {
    const match = /^(patient|user)\/(\*|[A-Za-z]+)\.(read|write|\*|[cruds]+)(\?.*)?$/.exec(scope);
    if (match === null || (match[2] !== '*' && match[2] !== type)) return false;
    const permissions = match[3] ?? '';
    if (permissions === '*') return true;
    if (wanted === 'read')
      return permissions === 'read' || (/^[cruds]+$/.test(permissions) && /[rs]/.test(permissions));
    return permissions === 'write' || (/^[cruds]+$/.test(permissions) && permissions.includes('c'));
  });
}

const resourceKeys: Record<RecordResource, PrefetchKey> = {
  Patient: 'patient',
  Observation: 'observations',
  Condition: 'conditions',
  FamilyMemberHistory: 'familyHistory',
};

interface TokenState {
  accessToken: string;
  scopes: string[];
  expiresAt: number | undefined;
}

function tokenOf(row: SmartLaunchRow): TokenState {
  const state = JSON.parse(row.client_state) as ClientState;
  const response = state.tokenResponse ?? {};
  return {
    accessToken: typeof response.access_token === 'string' ? response.access_token : '',
    // A token response without `scope` grants what was asked (RFC 6749 5.1).
    scopes: (typeof response.scope === 'string' ? response.scope : (state.scope ?? ''))
      .split(/\s+/)
      .filter((scope) => scope !== ''),
    expiresAt: typeof state.expiresAt === 'number' ? state.expiresAt * 1000 : undefined,
  };
}

/** Why a read failed, as the page says it (never the URL, which names the patient). */
function readFailureReason(error: FhirReadFailure): string {
  const status = /answered (\d{3})/.exec(error.met)?.[1];
  return status === undefined
    ? `The record system did not answer in full (${error.met.replace(/^[a-zA-Z]+: /, '')}).`
    : `The record system answered ${status}.`;
}

interface RecordRead {
  data: Record<PrefetchKey, unknown>;
  unread: SmartLaunch['unread'];
  counts: string[];
}

/**
 * Reads the launch's patient from the record, each resource on its own: one the token's scopes
 * do not grant is not asked for, and a failed read is said, never taken as "nothing there".
 */
async function readRecordOf(row: SmartLaunchRow, token: TokenState): Promise<RecordRead> {
  const source: FhirSource = {
    base: new URL(`${row.issuer}/`),
    accessToken: token.accessToken,
    registered: [row.issuer],
  };
  const patientId = row.patient_fhir_id ?? '';
  const data: Record<PrefetchKey, unknown> = {
    patient: null,
    observations: null,
    conditions: null,
    familyHistory: null,
  };
  const unread: SmartLaunch['unread'] = [];
  const counts: string[] = [];
  await Promise.all(
    RECORD_RESOURCES.map(async (resource) => {
      const key = resourceKeys[resource];
      if (!grants(token.scopes, resource, 'read')) {
        unread.push({ resource, reason: 'Not granted by the record system.' });
        return;
      }
      try {
        const value = await readWhole(source, key, patientId);
        data[key] = value;
        const entries = (value as { entry?: unknown[] }).entry;
        counts.push(`${resource} ${Array.isArray(entries) ? entries.length : 1}`);
      } catch (error) {
        if (!(error instanceof FhirReadFailure)) throw error;
        unread.push({ resource, reason: readFailureReason(error) });
      }
    }),
  );
  const order = (r: RecordResource) => RECORD_RESOURCES.indexOf(r);
  unread.sort((a, b) => order(a.resource) - order(b.resource));
  counts.sort();
  return { data, unread, counts };
}

interface KeptRecord {
  values: RecordValue[];
  unread: SmartLaunch['unread'];
}

function presentLaunch(context: AppContext, row: SmartLaunchRow, record: KeptRecord): SmartLaunch {
  return {
    id: row.id,
    issuer: row.issuer,
    patientRecordId: row.patient_record_id,
    values: record.values,
    unread: record.unread,
    writeBack: context.config.smart?.writeBack === true,
    writtenBack:
      row.written_back_assessment_id === null || row.written_back_at === null
        ? null
        : { assessmentId: row.written_back_assessment_id, at: row.written_back_at },
  };
}

/**
 * The launch of this browser taken up by the signed-in user: the first time, the record is read,
 * the patient record matched by the Patient's identifier (or made in the user's unit), and both
 * audited. A launch of another browser or user, unfinished or past its time, is not found.
 */
async function launchOf(
  context: AppContext,
  requester: Requester,
  id: string,
  bindingId: string | undefined,
): Promise<SmartLaunchRow> {
  const db = context.database.db;
  const row = await smartLaunchesRepository.findById(db, id);
  const usable =
    row !== undefined &&
    bindingId !== undefined &&
    row.binding_hash === hashSessionId(bindingId) &&
    row.patient_fhir_id !== null &&
    context.now().getTime() - Date.parse(row.created_at) < smartLaunchLifetimeMs &&
    (await smartLaunchesRepository.claim(db, row.id, requester.user.id));
  if (!usable) throw new AppError(404, 'not_found', 'No such launch.');
  return { ...row, user_id: requester.user.id };
}

export async function getSmartLaunch(
  context: AppContext,
  requester: Requester,
  id: string,
  bindingId: string | undefined,
): Promise<SmartLaunch> {
  const row = await launchOf(context, requester, id, bindingId);
  if (row.record !== null) return presentLaunch(context, row, JSON.parse(row.record) as KeptRecord);

  const settings = context.config.smart;
  if (settings === undefined) throw new AppError(404, 'not_found', 'No such launch.');
  const now = context.now();
  const today = localDate(now, context.config.timeZone);
  const read = await readRecordOf(row, tokenOf(row));
  const patientId = row.patient_fhir_id ?? '';
  const kept: KeptRecord = {
    values: recordValues(read.data, patientId, today, settings.maxAgeDays),
    unread: read.unread,
  };
  const patient = prefetchedPatient(read.data, patientId);
  const candidate =
    patient === undefined
      ? undefined
      : patientRecordCandidate(patient, context.config.patientIdSystem, today);

  // The launch as it stands once this read is recorded, or as another request recorded it first.
  const settled = await context.database.transaction(async (trx): Promise<SmartLaunchRow> => {
    const current = await smartLaunchesRepository.findById(trx, row.id);
    if (current === undefined) throw new AppError(404, 'not_found', 'No such launch.');
    if (current.record !== null) return current;
    let recordId: string | null = null;
    if (candidate !== undefined) {
      const existing = await patientRecordsRepository.liveByNumberWithin(
        trx,
        requester.scope,
        candidate.number,
        2,
      );
      if (existing.length === 1) recordId = existing[0]?.id ?? null;
      else if (existing.length === 0) {
        recordId = await newPatientRecord(context, trx, requester, candidate);
      }
    }
    await smartLaunchesRepository.update(trx, row.id, {
      record: JSON.stringify(kept),
      patient_record_id: recordId,
    });
    await recordAudit(trx, {
      at: now,
      actor: requester.user,
      action: 'smart_launch',
      ...(recordId === null ? {} : { target: { type: 'patient', id: recordId } }),
      address: requester.address,
      detail: `issuer=${row.issuer}`,
    });
    await recordAudit(trx, {
      at: now,
      actor: requester.user,
      action: 'smart_read',
      ...(recordId === null ? {} : { target: { type: 'patient', id: recordId } }),
      address: requester.address,
      detail: [
        `issuer=${row.issuer}`,
        `read ${read.counts.join(', ') || 'nothing'}`,
        ...read.unread.map((u) => `not read ${u.resource}`),
      ].join('; '),
    });
    return { ...current, record: JSON.stringify(kept), patient_record_id: recordId };
  });
  return presentLaunch(context, settled, JSON.parse(settled.record ?? 'null') as KeptRecord);
}

/** A patient record for the launch's Patient, in the user's unit; null when none can be chosen. */
async function newPatientRecord(
  context: AppContext,
  trx: Parameters<Parameters<AppContext['database']['transaction']>[0]>[0],
  requester: Requester,
  candidate: NonNullable<ReturnType<typeof patientRecordCandidate>>,
): Promise<string | null> {
  let unitId: string;
  try {
    unitId = await unitForNewRecord(trx, requester.scope, { userId: requester.user.id });
  } catch (error) {
    // A user of several units chooses the patient in step 1 by hand.
    if (error instanceof AppError) return null;
    throw error;
  }
  const now = context.now();
  const row = newPatientRecordRow(candidate, {
    unitId,
    createdBy: requester.user.id,
    at: now,
  });
  await patientRecordsRepository.insert(trx, row);
  await recordAudit(trx, {
    at: now,
    actor: requester.user,
    action: 'patient_create',
    target: { type: 'patient', id: row.id },
    address: requester.address,
  });
  return row.id;
}

/** The identifier system of RiskAssessments written back: FHIR's for an identifier that is a URI. */
const uriIdentifierSystem = 'urn:ietf:rfc:3986';

/**
 * Sends a saved assessment's RiskAssessments (one per condition, as the FHIR export makes them)
 * into the record for the launch's patient, each a conditional create on the product's own id,
 * so that a retry makes no second copy. The assessment here is only read.
 */
export async function writeBackAssessment(
  context: AppContext,
  requester: Requester,
  id: string,
  bindingId: string | undefined,
  assessmentId: string,
): Promise<SmartWriteBackResult> {
  const settings = context.config.smart;
  const row = await launchOf(context, requester, id, bindingId);
  if (settings?.writeBack !== true) {
    throw new AppError(409, 'conflict', 'Sending assessments back to the record is not set up.');
  }
  const publicUrl = context.config.publicUrl ?? '';
  const bundle = await loadAssessmentBundle(context, requester, assessmentId, `${publicUrl}/fhir`);
  const patientRecordId = bundle.entry
    ?.map((entry) => entry.resource)
    .find((resource) => resource?.resourceType === 'Patient')?.id;
  if (row.patient_record_id === null || patientRecordId !== row.patient_record_id) {
    throw new AppError(
      409,
      'conflict',
      'This assessment is not of the patient the record system opened the app for; it is not sent.',
      'assessmentId',
    );
  }
  const now = context.now();
  const fail = async (sentence: string, why: string): Promise<never> => {
    await recordAudit(context.database.db, {
      at: now,
      actor: requester.user,
      action: 'smart_write_back',
      outcome: 'failure',
      target: { type: 'assessment', id: assessmentId },
      address: requester.address,
      detail: `issuer=${row.issuer} ${why}`,
    });
    throw new AppError(502, 'record_write_failed', sentence);
  };
  const token = tokenOf(row);
  if (!grants(token.scopes, 'RiskAssessment', 'create')) {
    return fail(
      'The record system did not grant the app to write RiskAssessments; the assessment is saved here.',
      'not granted',
    );
  }
  if (token.expiresAt !== undefined && token.expiresAt <= now.getTime()) {
    return fail(
      'The access the record system gave has expired; open the app again from the patient’s chart to send it. The assessment is saved here.',
      'token expired',
    );
  }
  const riskAssessments = (bundle.entry ?? []).flatMap((entry) =>
    entry.resource?.resourceType === 'RiskAssessment' ? [entry.resource] : [],
  );
  let created = 0;
  let alreadyThere = 0;
  for (const resource of riskAssessments) {
    const identifier = `${publicUrl}/fhir/RiskAssessment/${resource.id ?? ''}`;
    // The record holds its own Patient; the export's other references (basis, condition) name
    // this product's resources, which the record does not hold.
    const body = {
      resourceType: 'RiskAssessment',
      identifier: [{ system: uriIdentifierSystem, value: identifier }],
      status: resource.status,
      subject: { reference: `Patient/${row.patient_fhir_id ?? ''}` },
      occurrenceDateTime: resource.occurrenceDateTime,
      method: resource.method,
      prediction: resource.prediction,
      ...(resource.note === undefined ? {} : { note: resource.note }),
    };
    let answer;
    try {
      answer = await outboundRequest(
        'POST',
        new URL(`${row.issuer}/RiskAssessment`),
        {
          accept: 'application/fhir+json',
          'content-type': 'application/fhir+json',
          authorization: `Bearer ${token.accessToken}`,
          'if-none-exist': `identifier=${encodeURIComponent(`${uriIdentifierSystem}|${identifier}`)}`,
        },
        JSON.stringify(body),
        { timeoutMs: REMOTE_TIMEOUT_MS, named: namedAddresses([row.issuer]) },
      );
    } catch (error) {
      if (!(error instanceof OutboundFailure)) throw error;
      return fail(
        `The record system could not be reached (${error.message}); try again. The assessment is saved here.`,
        `no answer (${error.message}) after ${created + alreadyThere}`,
      );
    }
    if (answer.status === 201) created += 1;
    // 200: a conditional create that found the copy an earlier attempt made.
    else if (answer.status === 200) alreadyThere += 1;
    else {
      return fail(
        `The record system answered ${answer.status} to a RiskAssessment; try again. The assessment is saved here.`,
        `answered ${answer.status} after ${created + alreadyThere}`,
      );
    }
  }
  await smartLaunchesRepository.update(context.database.db, row.id, {
    written_back_assessment_id: assessmentId,
    written_back_at: now.toISOString(),
  });
  await recordAudit(context.database.db, {
    at: now,
    actor: requester.user,
    action: 'smart_write_back',
    target: { type: 'assessment', id: assessmentId },
    address: requester.address,
    detail: `issuer=${row.issuer} RiskAssessment created ${created}, already there ${alreadyThere}`,
  });
  return { created, alreadyThere, at: now.toISOString() };
}
