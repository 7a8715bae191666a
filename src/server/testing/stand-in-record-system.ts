import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for a record system that launches the product as a SMART app (issue 39), for the
 * tests: a SMART authorization server (EHR launch, public client, PKCE S256 required, `patient`
 * in the token response) and a FHIR R4 server holding one patient, which checks the token and its
 * scopes on every request and pages its searches. A real HTTP server on 127.0.0.1: the product's
 * SMART client (fhirclient) and its FHIR reads talk to it as to a record system.
 */

export type StandInResource =
  'Patient' | 'Observation' | 'Condition' | 'FamilyMemberHistory' | 'RiskAssessment';

export interface StandInRecordSystem {
  /** The FHIR base URL: the `iss` of its launches. */
  readonly issuer: string;
  readonly origin: string;
  /** Registers a launch context; returns the opaque `launch` value the record system sends. */
  newLaunch(context?: { patientId?: string; encounterId?: string; appContext?: string }): string;
  /** Scopes left out of every grant from now on, as if the user or a policy refused them. */
  denyScopes(scopes: readonly string[]): void;
  /** The next authorization is refused: the browser comes back with error=access_denied. */
  denyNextAuthorization(): void;
  /** Reads (or creates) of the type answer this status with an OperationOutcome; undefined ends it. */
  failResource(type: StandInResource, status: number | undefined): void;
  /** The RiskAssessments created through the FHIR API. */
  riskAssessments(): readonly Record<string, unknown>[];
  /** Every POST of a RiskAssessment received, whether it made one or not. */
  readonly riskAssessmentPosts: number;
  readonly tokenRequests: ReadonlyArray<{ pkceVerified: boolean; clientId: string }>;
  readonly fhirRequests: ReadonlyArray<{ method: string; url: string; status: number }>;
  close(): Promise<void>;
}

/** The patient the stand-in holds, in codes the product's CDS Hooks mapping reads. */
export const standInPatientId = 'smart-pat-1';
const subject = { reference: `Patient/${standInPatientId}` };
const loinc = (code: string) => ({ coding: [{ system: 'http://loinc.org', code }] });
const snomed = (code: string) => ({ coding: [{ system: 'http://snomed.info/sct', code }] });
const clinical = (code: string) => ({
  coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code }],
});
const measured = (id: string, code: string, value: number, unit: string, date: string) => ({
  resourceType: 'Observation',
  id,
  status: 'final',
  code: loinc(code),
  subject,
  effectiveDateTime: date,
  valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
});

export const standInRecord = {
  patient: {
    resourceType: 'Patient',
    id: standInPatientId,
    identifier: [{ system: 'urn:oid:2.16.840.1.113883.2.1.4.1', value: 'SMART-1001' }],
    name: [{ use: 'official', family: 'Dlamini', given: ['Nomsa'] }],
    gender: 'female',
    birthDate: '1968-05-14',
  },
  observations: [
    measured('height-1', '8302-2', 162, 'cm', '2026-10-02'),
    measured('weight-1', '29463-7', 88, 'kg', '2026-10-02'),
    // An older weight: the newest one counts.
    measured('weight-0', '29463-7', 80, 'kg', '2025-01-10'),
    {
      resourceType: 'Observation',
      id: 'smoking-1',
      status: 'final',
      code: loinc('72166-2'),
      subject,
      effectiveDateTime: '2019-03-01',
      valueCodeableConcept: snomed('266919005'),
    },
  ],
  conditions: [
    {
      resourceType: 'Condition',
      id: 'htn-1',
      clinicalStatus: clinical('active'),
      code: {
        coding: [
          { system: 'http://snomed.info/sct', code: '59621000' },
          { system: 'http://hl7.org/fhir/sid/icd-10', code: 'I10' },
        ],
      },
      subject,
      recordedDate: '2024-06-01',
    },
    // Resolved: it does not count as diagnosed.
    {
      resourceType: 'Condition',
      id: 'asthma-1',
      clinicalStatus: clinical('resolved'),
      code: snomed('195967001'),
      subject,
    },
  ],
  familyHistory: [
    {
      resourceType: 'FamilyMemberHistory',
      id: 'fmh-1',
      status: 'completed',
      patient: subject,
      relationship: {
        coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v3-RoleCode', code: 'MTH' }],
      },
      condition: [{ code: snomed('44054006') }],
    },
  ],
};

interface Launch {
  patientId: string;
  encounterId: string | undefined;
  appContext: string | undefined;
}

interface Grant {
  launch: Launch;
  clientId: string;
  redirectUri: string;
  challenge: string;
  scopes: string[];
  expiresAt: number;
}

function outcome(code: string, diagnostics: string) {
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity: 'error', code, diagnostics }],
  };
}

function s256(verifier: string): string {
  return crypto.createHash('sha256').update(verifier).digest('base64url');
}

/** Whether a granted scope lets the token do `permission` (c, r or s) on resources of `type`. */
function permits(scopes: readonly string[], type: string, permission: 'c' | 'r' | 's'): boolean {
  return scopes.some((scope) => {
    const match = /^patient\/(\*|[A-Za-z]+)\.(read|write|\*|[cruds]+)$/.exec(scope);
    if (match === null || (match[1] !== '*' && match[1] !== type)) return false;
    const given = match[2] ?? '';
    if (given === '*') return true;
    if (given === 'read') return permission !== 'c';
    if (given === 'write') return permission === 'c';
    return given.includes(permission);
  });
}

async function bodyOf(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startStandInRecordSystem(options: {
  clientId: string;
  redirectUris: readonly string[];
  port?: number;
  pageSize?: number;
}): Promise<StandInRecordSystem> {
  const pageSize = options.pageSize ?? 2;
  const launches = new Map<string, Launch>();
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, Grant>();
  const failing = new Map<StandInResource, number>();
  const held: Record<string, unknown>[] = [];
  const tokenRequests: Array<{ pkceVerified: boolean; clientId: string }> = [];
  const fhirRequests: Array<{ method: string; url: string; status: number }> = [];
  let denied: readonly string[] = [];
  let denyNext = false;
  let riskAssessmentPosts = 0;
  let origin = '';
  const issuer = () => `${origin}/fhir`;

  const send = (
    response: http.ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };

  function authorize(url: URL, response: http.ServerResponse) {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri') ?? '';
    if (q.get('client_id') !== options.clientId || !options.redirectUris.includes(redirectUri)) {
      response.writeHead(400, { 'content-type': 'text/plain' });
      response.end('Unknown client or redirect_uri');
      return;
    }
    const back = new URL(redirectUri);
    const state = q.get('state');
    if (state !== null) back.searchParams.set('state', state);
    const refuse = (error: string) => {
      back.searchParams.set('error', error);
      response.writeHead(302, { location: back.href });
      response.end();
    };
    const launch = launches.get(q.get('launch') ?? '');
    if (q.get('response_type') !== 'code') return refuse('unsupported_response_type');
    if (q.get('aud') !== issuer() || launch === undefined) return refuse('invalid_request');
    if (q.get('code_challenge_method') !== 'S256' || (q.get('code_challenge') ?? '') === '') {
      return refuse('invalid_request');
    }
    if (denyNext) {
      denyNext = false;
      return refuse('access_denied');
    }
    launches.delete(q.get('launch') ?? '');
    const code = crypto.randomBytes(16).toString('base64url');
    codes.set(code, {
      launch,
      clientId: options.clientId,
      redirectUri,
      challenge: q.get('code_challenge') ?? '',
      scopes: (q.get('scope') ?? '').split(' ').filter((s) => s !== '' && !denied.includes(s)),
      expiresAt: Date.now() + 60_000,
    });
    back.searchParams.set('code', code);
    response.writeHead(302, { location: back.href });
    response.end();
  }

  async function token(request: http.IncomingMessage, response: http.ServerResponse) {
    const form = new URLSearchParams(await bodyOf(request));
    const code = form.get('code') ?? '';
    const grant = codes.get(code);
    codes.delete(code);
    const verifier = form.get('code_verifier') ?? '';
    const pkceVerified =
      grant !== undefined && verifier !== '' && s256(verifier) === grant.challenge;
    tokenRequests.push({ pkceVerified, clientId: form.get('client_id') ?? '' });
    if (
      form.get('grant_type') !== 'authorization_code' ||
      grant === undefined ||
      grant.expiresAt < Date.now() ||
      form.get('redirect_uri') !== grant.redirectUri ||
      form.get('client_id') !== grant.clientId ||
      !pkceVerified
    ) {
      send(response, 400, { error: 'invalid_grant' }, { 'cache-control': 'no-store' });
      return;
    }
    const accessToken = crypto.randomBytes(24).toString('base64url');
    tokens.set(accessToken, { ...grant, expiresAt: Date.now() + 3_600_000 });
    send(
      response,
      200,
      {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: 3600,
        scope: grant.scopes.join(' '),
        patient: grant.launch.patientId,
        ...(grant.launch.encounterId === undefined ? {} : { encounter: grant.launch.encounterId }),
        ...(grant.launch.appContext === undefined ? {} : { appContext: grant.launch.appContext }),
      },
      { 'cache-control': 'no-store' },
    );
  }

  function searchset(url: URL, resources: readonly unknown[]) {
    const page = Number(url.searchParams.get('_page') ?? '1');
    const link = (n: number) => {
      const at = new URL(url);
      at.searchParams.set('_page', String(n));
      return at.href;
    };
    const entries = resources.slice((page - 1) * pageSize, page * pageSize);
    return {
      resourceType: 'Bundle',
      type: 'searchset',
      total: resources.length,
      link: [
        { relation: 'self', url: link(page) },
        ...(page * pageSize < resources.length ? [{ relation: 'next', url: link(page + 1) }] : []),
      ],
      entry: entries.map((resource) => ({ resource, search: { mode: 'match' } })),
    };
  }

  async function fhir(
    request: http.IncomingMessage,
    url: URL,
  ): Promise<{ status: number; body: unknown; headers?: Record<string, string> }> {
    const [, , type = '', id] = url.pathname.split('/');
    const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
    const grant = bearer === undefined ? undefined : tokens.get(bearer);
    if (grant === undefined || grant.expiresAt < Date.now()) {
      return { status: 401, body: outcome('login', 'No live access token') };
    }
    const known = ['Patient', 'Observation', 'Condition', 'FamilyMemberHistory', 'RiskAssessment'];
    if (!known.includes(type)) return { status: 404, body: outcome('not-found', 'Unknown type') };
    const permission = request.method === 'POST' ? 'c' : id === undefined ? 's' : 'r';
    if (!permits(grant.scopes, type, permission)) {
      return { status: 403, body: outcome('forbidden', `The scopes do not permit ${type}`) };
    }
    const failure = failing.get(type as StandInResource);
    if (failure !== undefined) return { status: failure, body: outcome('exception', 'Failing') };
    const patientId = grant.launch.patientId;

    if (request.method === 'POST' && type === 'RiskAssessment' && id === undefined) {
      riskAssessmentPosts += 1;
      const resource = JSON.parse(await bodyOf(request)) as Record<string, unknown>;
      if (
        (resource.subject as { reference?: string } | undefined)?.reference !==
        `Patient/${patientId}`
      ) {
        return { status: 422, body: outcome('processing', 'Not the patient in context') };
      }
      const condition = request.headers['if-none-exist'];
      if (typeof condition === 'string') {
        const wanted = new URLSearchParams(condition).get('identifier') ?? '';
        const found = held.find((kept) => identifiesAs(kept, wanted));
        if (found !== undefined) return { status: 200, body: found };
      }
      const stored = { ...resource, id: `ra-${held.length + 1}`, meta: { versionId: '1' } };
      held.push(stored);
      return {
        status: 201,
        body: stored,
        headers: { location: `${issuer()}/RiskAssessment/${stored.id}/_history/1` },
      };
    }
    if (request.method !== 'GET') return { status: 405, body: outcome('not-supported', 'No') };

    if (type === 'Patient') {
      return id === patientId
        ? { status: 200, body: standInRecord.patient }
        : { status: 404, body: outcome('not-found', 'No such patient') };
    }
    const about = url.searchParams.get('patient') ?? url.searchParams.get('subject');
    if (about !== patientId && about !== `Patient/${patientId}` && type !== 'RiskAssessment') {
      return { status: 200, body: searchset(url, []) };
    }
    const byType: Record<string, readonly unknown[]> = {
      Observation: standInRecord.observations,
      Condition: standInRecord.conditions,
      FamilyMemberHistory: standInRecord.familyHistory,
      RiskAssessment: held.filter((kept) => {
        const identifier = url.searchParams.get('identifier');
        return identifier === null || identifiesAs(kept, identifier);
      }),
    };
    return { status: 200, body: searchset(url, byType[type] ?? []) };
  }

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', origin);
    void (async () => {
      if (url.pathname === '/fhir/.well-known/smart-configuration') {
        send(response, 200, {
          issuer: issuer(),
          authorization_endpoint: `${origin}/auth/authorize`,
          token_endpoint: `${origin}/auth/token`,
          capabilities: [
            'launch-ehr',
            'context-ehr-patient',
            'client-public',
            'permission-v2',
            'permission-patient',
          ],
          code_challenge_methods_supported: ['S256'],
          grant_types_supported: ['authorization_code'],
          scopes_supported: ['launch', 'openid', 'fhirUser', 'patient/*.rs'],
        });
      } else if (url.pathname === '/fhir/metadata') {
        send(response, 200, {
          resourceType: 'CapabilityStatement',
          status: 'active',
          kind: 'instance',
          fhirVersion: '4.0.1',
          format: ['json'],
        });
      } else if (url.pathname === '/auth/authorize') {
        authorize(url, response);
      } else if (url.pathname === '/auth/token' && request.method === 'POST') {
        await token(request, response);
      } else if (url.pathname.startsWith('/fhir/')) {
        const answer = await fhir(request, url);
        fhirRequests.push({
          method: request.method ?? '',
          url: `${url.pathname}${url.search}`,
          status: answer.status,
        });
        response.writeHead(answer.status, {
          'content-type': 'application/fhir+json',
          ...answer.headers,
        });
        response.end(JSON.stringify(answer.body));
      } else {
        send(response, 404, outcome('not-found', 'No such path'));
      }
    })().catch((error: unknown) => {
      send(response, 500, outcome('exception', String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer: issuer(),
    origin,
    newLaunch(context = {}) {
      const launch = crypto.randomBytes(12).toString('base64url');
      launches.set(launch, {
        patientId: context.patientId ?? standInPatientId,
        encounterId: context.encounterId,
        appContext: context.appContext,
      });
      return launch;
    },
    denyScopes(scopes) {
      denied = [...scopes];
    },
    denyNextAuthorization() {
      denyNext = true;
    },
    failResource(type, status) {
      if (status === undefined) failing.delete(type);
      else failing.set(type, status);
    },
    riskAssessments: () => held,
    get riskAssessmentPosts() {
      return riskAssessmentPosts;
    },
    tokenRequests,
    fhirRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Whether a resource has the identifier `system|value`. */
function identifiesAs(resource: Record<string, unknown>, wanted: string): boolean {
  const identifiers = (resource.identifier ?? []) as Array<{ system?: string; value?: string }>;
  return identifiers.some(
    (identifier) => `${identifier.system ?? ''}|${identifier.value ?? ''}` === wanted,
  );
}
