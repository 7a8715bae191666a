import { setTimeout as sleep } from 'node:timers/promises';
import crypto from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatientData } from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { OrgUnit } from '../../shared/api/org-units.ts';
import type { Patient } from '../../shared/api/patients.ts';
import { createApiToken } from '../services/api-tokens.ts';
import { sweepExpiredBulkExports } from '../services/bulk-export.ts';
import { addFhirClient } from '../services/fhir-clients.ts';
import { makeSigningKey } from '../testing/cds-record-system.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { fhirValidator } from '../testing/fhir-schema.ts';
import { signedInAs } from '../testing/users.ts';
import { bulkRequests, referencesIn, type FhirJson } from '../testing/fhir-bulk.ts';

const validateFhir = fhirValidator([
  'Bundle',
  'Patient',
  'RiskAssessment',
  'OperationOutcome',
  'CapabilityStatement',
  'Observation',
  'Condition',
  'Organization',
]);

const visit = (weight: number, extra: PatientData = {}): PatientData => ({
  demographics: { age: 58, gender: 'Female', height: 162, weight },
  riskFactors: { familyHistory: { DM2: true } },
  symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
  ...extra,
});

describe.each(testDatabases())('FHIR Bulk Data export on $engine', (testDatabase) => {
  let t: TestApp;
  let admin: { cookie: string };
  let doctorNorth: { cookie: string };
  let north: OrgUnit;
  let amina: Patient;
  let bongani: Patient;
  let aminaVisits: Assessment[];
  let unlinkedNorth: Assessment;
  /** An assessment without a patient record in MAIN, outside North's units. */
  let unlinkedMain: Assessment;
  let bulk: ReturnType<typeof bulkRequests>;

  const post = async (who: { cookie: string }, url: string, payload: object) => {
    const response = await t.app.inject({
      method: 'POST',
      url,
      headers: { cookie: who.cookie },
      payload,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response;
  };

  beforeAll(async () => {
    t = await openTestApp(testDatabase, { PUBLIC_URL: 'https://triage.example' });
    bulk = bulkRequests(t);
    admin = await signedInAs(t, 'admin');
    const main = await t.database.db
      .selectFrom('org_units')
      .select('id')
      .where('code', '=', 'MAIN')
      .executeTakeFirstOrThrow();
    north = (
      await post(admin, '/api/org-units', {
        code: 'NORTH',
        name: 'North district',
        parentId: main.id,
      })
    ).json<OrgUnit>();
    const nurseNorth = await signedInAs(t, 'nurse', undefined, undefined, [north.id]);
    doctorNorth = await signedInAs(t, 'doctor', undefined, undefined, [north.id]);
    const nurseMain = await signedInAs(t, 'nurse');
    amina = (
      await post(nurseNorth, '/api/patients', {
        number: 'MRN-0077',
        name: 'Amina Okafor',
        birthDate: '1967-05-04',
        gender: 'Female',
      })
    ).json<Patient>();
    aminaVisits = [];
    for (const weight of [70, 82]) {
      aminaVisits.push(
        (
          await post(nurseNorth, '/api/assessments', { ...visit(weight), patientId: amina.id })
        ).json<Assessment>(),
      );
      t.advance(60_000);
    }
    unlinkedNorth = (
      await post(nurseNorth, '/api/assessments', {
        ...visit(65, { management: { Hypertension: { diagnosed: true } } }),
      })
    ).json<Assessment>();
    bongani = (
      await post(nurseMain, '/api/patients', {
        number: 'MRN-0100',
        name: 'Bongani Dube',
        gender: 'Male',
      })
    ).json<Patient>();
    unlinkedMain = (await post(nurseMain, '/api/assessments', visit(75))).json<Assessment>();
    await post(nurseMain, '/api/assessments', {
      ...visit(90),
      demographics: { age: 44, gender: 'Male', height: 180, weight: 90 },
      patientId: bongani.id,
    });
    t.advance(60_000);
  });
  afterAll(async () => {
    await t.close();
  });

  it('declares the three export operations in the CapabilityStatement', async () => {
    const statement = (await t.app.inject({ method: 'GET', url: '/fhir/metadata' })).json<{
      instantiates: string[];
      rest: Array<{
        operation: Array<{ name: string; definition: string }>;
        resource: Array<{ type: string; operation?: Array<{ name: string; definition: string }> }>;
      }>;
    }>();
    expect(validateFhir(statement)).toEqual([]);
    expect(statement.instantiates).toEqual([
      'http://hl7.org/fhir/uv/bulkdata/CapabilityStatement/bulk-data',
    ]);
    const [rest] = statement.rest;
    expect(rest?.operation).toEqual([
      { name: 'export', definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/export' },
    ]);
    const operationOf = (type: string) =>
      rest?.resource.find((resource) => resource.type === type)?.operation;
    expect(operationOf('Patient')).toEqual([
      {
        name: 'export',
        definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/patient-export',
      },
    ]);
    expect(operationOf('Group')).toEqual([
      {
        name: 'export',
        definition: 'http://hl7.org/fhir/uv/bulkdata/OperationDefinition/group-export',
      },
    ]);
  });

  it('exports everything, a file per type, whose references resolve and whose ids read', async () => {
    const kickOff = await bulk.kickOff(admin, '/fhir/$export');
    expect(kickOff.statusCode, kickOff.body).toBe(202);
    const location = kickOff.headers['content-location'];
    expect(location).toMatch(/^https:\/\/triage\.example\/fhir\/bulk-status\/[0-9a-f-]{36}$/);
    const { manifest, response } = await bulk.manifestOf(admin, String(location));
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers.expires).toBe(
      new Date(Date.parse(manifest.transactionTime) + 24 * 3_600_000).toUTCString(),
    );
    expect(manifest).toMatchObject({
      transactionTime: t.context.now().toISOString(),
      request: 'https://triage.example/fhir/$export',
      requiresAccessToken: true,
      error: [],
    });
    expect(manifest.output.map((file) => file.type)).toEqual([
      'Patient',
      'RiskAssessment',
      'Observation',
      'Condition',
      'Organization',
    ]);
    for (const file of manifest.output) {
      expect(file.url).toMatch(
        new RegExp(
          `^https://triage\\.example/fhir/bulk-files/[0-9a-f-]{36}/${file.type}-1\\.ndjson$`,
        ),
      );
    }
    const resources = await bulk.download(admin, manifest);
    const byType = new Map<string, FhirJson[]>();
    for (const resource of resources) {
      byType.set(resource.resourceType, [...(byType.get(resource.resourceType) ?? []), resource]);
    }
    // Two patient records and the Patients of the two assessments that name none; 5 assessments
    // of six RiskAssessments each; MAIN and NORTH.
    expect(
      byType
        .get('Patient')
        ?.map((patient) => patient.id)
        .sort(),
    ).toEqual(
      [amina.id, bongani.id, `${unlinkedNorth.id}.patient`, `${unlinkedMain.id}.patient`].sort(),
    );
    expect(byType.get('RiskAssessment')).toHaveLength(30);
    expect(byType.get('Condition')?.map((condition) => condition.id)).toEqual([
      `${unlinkedNorth.id}.Hypertension`,
    ]);
    expect(byType.get('Organization')?.map((unit) => unit.id)).toContain(north.id);
    for (const file of manifest.output) {
      expect(file.count).toBe(byType.get(file.type)?.length);
    }
    for (const resource of resources) expect(validateFhir(resource)).toEqual([]);

    const ids = new Set(
      resources.map((resource) => `${resource.resourceType}/${resource.id ?? ''}`),
    );
    const references = resources.flatMap((resource) => referencesIn(resource));
    expect(references.length).toBeGreaterThan(50);
    for (const reference of references) expect(ids).toContain(reference);

    // Each resource reads by its id in the read API, the same resource.
    for (const resource of resources) {
      const read = await t.app.inject({
        method: 'GET',
        url: `/fhir/${resource.resourceType}/${resource.id ?? ''}`,
        headers: { cookie: admin.cookie },
      });
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json<FhirJson>()).toEqual(resource);
    }
  });

  it('refuses a kick-off without Prefer: respond-async, or with parameters it cannot honour', async () => {
    const refused = async (url: string, headers: Record<string, string>, status = 400) => {
      const response = await t.app.inject({
        method: 'GET',
        url,
        headers: { cookie: admin.cookie, ...headers },
      });
      expect(response.statusCode, `${url} ${response.body}`).toBe(status);
      expect(response.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
      const outcome = response.json<FhirJson>();
      expect(validateFhir(outcome)).toEqual([]);
      return outcome;
    };
    const async = { prefer: 'respond-async' };
    await refused('/fhir/$export', {});
    await refused('/fhir/$export?_type=Patient,Encounter', async);
    await refused('/fhir/$export?_since=2026-11-22', async);
    await refused('/fhir/$export?_since=yesterday', async);
    await refused('/fhir/$export?_outputFormat=text/csv', async);
    await refused('/fhir/$export?_elements=id', { prefer: 'respond-async, handling=strict' });
    await refused('/fhir/$export', { ...async, accept: 'application/fhir+xml' }, 406);
    // Each refused kick-off is audited with why, as a failed export by the one who asked.
    const refusals = await t.database.db
      .selectFrom('audit_events')
      .select(['user_id', 'detail'])
      .where('action', '=', 'export')
      .where('outcome', '=', 'failure')
      .orderBy('id')
      .execute();
    expect(refusals.slice(-6).map((row) => row.detail)).toEqual([
      'bulk system kick-off refused: 400 validation_failed Prefer',
      'bulk system kick-off refused: 400 validation_failed _type',
      'bulk system kick-off refused: 400 validation_failed _since',
      'bulk system kick-off refused: 400 validation_failed _since',
      'bulk system kick-off refused: 400 validation_failed _outputFormat',
      'bulk system kick-off refused: 400 validation_failed _elements',
    ]);
    // All by the administrator who asked.
    const askers = new Set(refusals.slice(-6).map((row) => row.user_id));
    expect(askers.size).toBe(1);
    expect([...askers][0]).not.toBeNull();
    for (const format of ['application/fhir+ndjson', 'application/ndjson', 'ndjson']) {
      const taken = await bulk.kickOff(
        admin,
        `/fhir/$export?_outputFormat=${encodeURIComponent(format)}&_type=Organization`,
      );
      expect(taken.statusCode, taken.body).toBe(202);
    }
    // Lenient (the default): an unsupported parameter is ignored.
    const lenient = await bulk.kickOff(admin, '/fhir/$export?_elements=id&_type=Organization');
    expect(lenient.statusCode, lenient.body).toBe(202);
    await bulk.manifestOf(admin, String(lenient.headers['content-location']));
  });

  it('exports only the types of _type, and with _since only what changed after it', async () => {
    const dropped = (
      await post(admin, '/api/assessments', {
        demographics: { age: 30, gender: 'Male', height: 170, weight: 70 },
        management: { Asthma: { diagnosed: true } },
      })
    ).json<Assessment>();
    const typed = await bulk.kickOff(admin, '/fhir/$export?_type=Patient,RiskAssessment');
    const { manifest: first } = await bulk.manifestOf(
      admin,
      String(typed.headers['content-location']),
    );
    expect(first.output.map((file) => file.type)).toEqual(['Patient', 'RiskAssessment']);
    expect(first).not.toHaveProperty('deleted');

    t.advance(60_000);
    // After the first export: Amina's record changes, and an assessment is deleted.
    const updated = await t.app.inject({
      method: 'PUT',
      url: `/api/patients/${amina.id}`,
      headers: { cookie: admin.cookie, 'if-match': `"${amina.version}"` },
      payload: {
        number: 'MRN-0077',
        name: 'Amina Okafor-Bello',
        birthDate: '1967-05-04',
        gender: 'Female',
      },
    });
    expect(updated.statusCode, updated.body).toBe(200);
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/assessments/${dropped.id}`,
      headers: { cookie: admin.cookie, 'if-match': `"${dropped.version}"` },
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    const since = encodeURIComponent(first.transactionTime);
    const changed = await bulk.kickOff(admin, `/fhir/$export?_since=${since}`);
    const { manifest } = await bulk.manifestOf(admin, String(changed.headers['content-location']));
    // The unit MAIN, made by the migration at the real time, is after the test's clock.
    const resources = (await bulk.download(admin, manifest)).filter(
      (resource) => resource.resourceType !== 'Organization',
    );
    expect(resources.map((resource) => `${resource.resourceType}/${resource.id ?? ''}`)).toEqual([
      `Patient/${amina.id}`,
    ]);
    expect(resources[0]).toMatchObject({ name: [{ text: 'Amina Okafor-Bello' }] });
    expect(manifest.request).toBe(`https://triage.example/fhir/$export?_since=${since}`);
    // What was deleted after _since: a transaction Bundle naming each resource it had.
    expect(manifest.deleted?.map((file) => [file.type, file.count])).toEqual([['Bundle', 1]]);
    const bundles = await bulk.download(admin, { ...manifest, output: manifest.deleted ?? [] });
    expect(validateFhir(bundles[0])).toEqual([]);
    const conditions = ['DM2', 'HIV', 'TB', 'Asthma', 'Hypertension', 'Hyperlipidaemia'];
    expect(bundles[0]).toEqual({
      resourceType: 'Bundle',
      type: 'transaction',
      entry: [
        `Patient/${dropped.id}.patient`,
        ...['age', 'height', 'weight', 'bmi'].map((m) => `Observation/${dropped.id}.${m}`),
        `Condition/${dropped.id}.Asthma`,
        ...conditions.map((condition) => `RiskAssessment/${dropped.id}.${condition}`),
      ].map((url) => ({ request: { method: 'DELETE', url } })),
    });
  });

  it('exports a Group (an organisation unit) with the records of that unit only', async () => {
    const kickOff = await bulk.kickOff(admin, `/fhir/Group/${north.id}/$export`);
    expect(kickOff.statusCode, kickOff.body).toBe(202);
    const { manifest } = await bulk.manifestOf(admin, String(kickOff.headers['content-location']));
    const resources = await bulk.download(admin, manifest);
    const patients = resources.filter((resource) => resource.resourceType === 'Patient');
    expect(patients.map((patient) => patient.id).sort()).toEqual(
      [amina.id, `${unlinkedNorth.id}.patient`].sort(),
    );
    const risks = resources.filter((resource) => resource.resourceType === 'RiskAssessment');
    expect(new Set(risks.map((risk) => risk.id?.split('.')[0]))).toEqual(
      new Set([...aminaVisits.map((v) => v.id), unlinkedNorth.id]),
    );
    expect(JSON.stringify(resources)).not.toContain(bongani.id);
    expect(JSON.stringify(resources)).not.toContain(unlinkedMain.id);
    // The unit and the one above it, which its partOf names.
    expect(resources.filter((r) => r.resourceType === 'Organization')).toHaveLength(2);

    // A unit outside the caller's units is not found; nor is one that does not exist.
    const main = await t.database.db
      .selectFrom('org_units')
      .select('id')
      .where('code', '=', 'MAIN')
      .executeTakeFirstOrThrow();
    for (const id of [main.id, '01900000-0000-7000-8000-000000000000']) {
      const outside = await bulk.kickOff(doctorNorth, `/fhir/Group/${id}/$export`);
      expect(outside.statusCode, outside.body).toBe(404);
      expect(outside.json<FhirJson>().resourceType).toBe('OperationOutcome');
    }
  });

  it("exports only the caller's units", async () => {
    const kickOff = await bulk.kickOff(doctorNorth, '/fhir/Patient/$export?_type=Patient');
    const { manifest } = await bulk.manifestOf(
      doctorNorth,
      String(kickOff.headers['content-location']),
    );
    expect(manifest.request).toBe('https://triage.example/fhir/Patient/$export?_type=Patient');
    const resources = await bulk.download(doctorNorth, manifest);
    expect(resources.map((resource) => resource.id).sort()).toEqual(
      [amina.id, `${unlinkedNorth.id}.patient`].sort(),
    );
  });

  it('answers the status and the files to the caller who started the export only', async () => {
    const kickOff = await bulk.kickOff(admin, '/fhir/$export?_type=Patient');
    const location = String(kickOff.headers['content-location']);
    const { manifest } = await bulk.manifestOf(admin, location);
    const fileUrl = manifest.output[0]?.url ?? '';
    const { token } = await createApiToken(
      t.context,
      { user: null, address: 'cli' },
      'other',
      'MAIN',
    );
    const otherAdmin = await signedInAs(t, 'admin');
    for (const headers of [
      { cookie: doctorNorth.cookie },
      { cookie: otherAdmin.cookie },
      { authorization: `Bearer ${token}` },
    ]) {
      for (const url of [location, fileUrl]) {
        const response = await t.app.inject({ method: 'GET', url, headers });
        expect(response.statusCode, response.body).toBe(404);
        expect(response.json<FhirJson>().resourceType).toBe('OperationOutcome');
      }
      const cancel = await t.app.inject({ method: 'DELETE', url: location, headers });
      expect(cancel.statusCode).toBe(404);
    }
    // Still there for its caller.
    await bulk.manifestOf(admin, location);
  });

  it('lets an API token start, poll, download and cancel its own export', async () => {
    const { token } = await createApiToken(
      t.context,
      { user: null, address: 'cli' },
      'warehouse',
      'MAIN',
    );
    const asToken = { authorization: `Bearer ${token}` };
    const kickOff = await bulk.kickOff(asToken, '/fhir/$export?_type=Patient');
    expect(kickOff.statusCode, kickOff.body).toBe(202);
    const location = String(kickOff.headers['content-location']);
    const { manifest } = await bulk.manifestOf(asToken, location);
    expect(await bulk.download(asToken, manifest)).toHaveLength(4);
    const cancel = await t.app.inject({ method: 'DELETE', url: location, headers: asToken });
    expect(cancel.statusCode, cancel.body).toBe(202);
    expect(
      (await t.app.inject({ method: 'GET', url: location, headers: asToken })).statusCode,
    ).toBe(404);
    const audit = await t.database.db
      .selectFrom('audit_events')
      .select(['username', 'target_type', 'target_id'])
      .where('action', '=', 'export')
      .where('username', '=', 'api-token:warehouse')
      .orderBy('id')
      .execute();
    const jobId = location.split('/').at(-1) ?? '';
    expect(audit.map((row) => row.target_id)).toEqual([jobId, `${jobId}/Patient-1.ndjson`]);
  });

  it('exports to a FHIR client only the types its scope lets it read and search', async () => {
    const key = await makeSigningKey('ES384', 'registry-1');
    await addFhirClient(
      t.context,
      { user: null, address: 'cli' },
      {
        clientId: 'registry',
        unit: 'MAIN',
        jwks: { keys: [key.publicJwk] },
        scope: 'system/Patient.rs system/RiskAssessment.r',
      },
    );
    const now = Math.floor(t.context.now().getTime() / 1000);
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES384', kid: 'registry-1' })
      .setIssuer('registry')
      .setSubject('registry')
      .setAudience('https://triage.example/api/oauth/token')
      .setExpirationTime(now + 240)
      .setJti(crypto.randomUUID())
      .sign(key.privateKey);
    const issued = await t.app.inject({
      method: 'POST',
      url: '/api/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
        scope: 'system/Patient.rs system/RiskAssessment.r',
      }).toString(),
    });
    expect(issued.statusCode, issued.body).toBe(200);
    const asClient = {
      authorization: `Bearer ${issued.json<{ access_token: string }>().access_token}`,
    };
    // RiskAssessment is read by id only (no search): its export is refused, as is one the scope
    // does not name at all.
    for (const type of ['RiskAssessment', 'Observation', 'Patient,Condition']) {
      const refused = await bulk.kickOff(asClient, `/fhir/$export?_type=${type}`);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json<FhirJson>().resourceType).toBe('OperationOutcome');
    }
    const kickOff = await bulk.kickOff(asClient, '/fhir/$export');
    expect(kickOff.statusCode, kickOff.body).toBe(202);
    const location = String(kickOff.headers['content-location']);
    const { manifest } = await bulk.manifestOf(asClient, location);
    expect(manifest.output.map((file) => file.type)).toEqual(['Patient']);
    expect(await bulk.download(asClient, manifest)).toHaveLength(4);
    // Another caller does not see the client's job.
    const other = await t.app.inject({
      method: 'GET',
      url: location,
      headers: { cookie: admin.cookie },
    });
    expect(other.statusCode).toBe(404);
  });

  it('cancels a job: its files are deleted and its status is then not found', async () => {
    const kickOff = await bulk.kickOff(admin, '/fhir/$export');
    const location = String(kickOff.headers['content-location']);
    const jobId = location.split('/').at(-1) ?? '';
    const cancel = await t.app.inject({
      method: 'DELETE',
      url: location,
      headers: { cookie: admin.cookie },
    });
    expect(cancel.statusCode, cancel.body).toBe(202);
    expect(cancel.body).toBe('');
    const status = await t.app.inject({
      method: 'GET',
      url: location,
      headers: { cookie: admin.cookie },
    });
    expect(status.statusCode).toBe(404);
    // Whatever the runner had written is gone, and nothing more is written.
    await sleep(50);
    for (const table of ['bulk_export_jobs', 'bulk_export_chunks'] as const) {
      const rows = await t.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where(table === 'bulk_export_jobs' ? 'id' : 'job_id', '=', jobId)
        .executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(0);
    }
  });

  it('deletes the files BULK_EXPORT_HOURS after the export completed', async () => {
    // A token: a session would end sooner than the files.
    const { token } = await createApiToken(
      t.context,
      { user: null, address: 'cli' },
      'expiry',
      'MAIN',
    );
    const asToken = { authorization: `Bearer ${token}` };
    t.advance(1_000);
    const kickOff = await bulk.kickOff(asToken, '/fhir/$export?_type=Patient');
    const location = String(kickOff.headers['content-location']);
    const jobId = location.split('/').at(-1) ?? '';
    const { manifest } = await bulk.manifestOf(asToken, location);
    t.advance(24 * 3_600_000 - 1);
    // Earlier tests' exports expire now; this one stays a millisecond more.
    await sweepExpiredBulkExports(t.context);
    await bulk.manifestOf(asToken, location);
    t.advance(1);
    const gone = await t.app.inject({ method: 'GET', url: location, headers: asToken });
    expect(gone.statusCode).toBe(404);
    const file = await t.app.inject({
      method: 'GET',
      url: new URL(manifest.output[0]?.url ?? '').pathname,
      headers: asToken,
    });
    expect(file.statusCode).toBe(404);
    expect(await sweepExpiredBulkExports(t.context)).toBe(1);
    const chunks = await t.database.db
      .selectFrom('bulk_export_chunks')
      .select('job_id')
      .where('job_id', '=', jobId)
      .execute();
    expect(chunks).toEqual([]);
  });
});
