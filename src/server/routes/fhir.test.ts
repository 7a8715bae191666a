import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PatientData } from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { Patient } from '../../shared/api/patients.ts';
import { createApiToken, revokeApiToken } from '../services/api-tokens.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { fhirValidator } from '../testing/fhir-schema.ts';
import { signedInAs } from '../testing/users.ts';

const patientIdSystem = 'https://clinic.example/fhir/patient-number';

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

interface FhirJson {
  resourceType: string;
  id?: string;
  [key: string]: unknown;
}
interface SearchsetJson extends FhirJson {
  type: string;
  total: number;
  link: Array<{ relation: string; url: string }>;
  entry?: Array<{ fullUrl: string; resource: FhirJson; search: { mode: string } }>;
}
interface OutcomeJson extends FhirJson {
  issue: Array<{ severity: string; code: string; diagnostics: string }>;
}

const visit = (weight: number, extra: PatientData = {}): PatientData => ({
  demographics: { age: 58, gender: 'Female', height: 162, weight },
  riskFactors: { familyHistory: { DM2: true } },
  symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
  ...extra,
});

/** Every reference (`Type/id`) a resource or list of them holds. */
function referencesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(referencesIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === 'reference' && typeof v === 'string' ? [v] : referencesIn(v),
  );
}

describe.each(testDatabases())('the FHIR R4 read API on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: { cookie: string };
  let doctor: { cookie: string };
  let admin: { cookie: string; userId: string };
  let amina: Patient;
  let gone: Patient;
  /** Amina's live assessments, oldest first. */
  const visits: Assessment[] = [];
  let deleted: Assessment;
  let unlinked: Assessment;
  let ofGone: Assessment;

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers });
  const read = async <T extends FhirJson>(
    who: { cookie: string },
    url: string,
    headers: Record<string, string> = {},
  ) => {
    const response = await get(url, { cookie: who.cookie, ...headers });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    const body = response.json<T>();
    expect(validateFhir(body)).toEqual([]);
    return body;
  };
  const refused = async (
    url: string,
    status: number,
    code: string,
    headers: Record<string, string> = {},
  ) => {
    const response = await get(url, headers);
    expect(response.statusCode, `${url} ${response.body}`).toBe(status);
    expect(response.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    const body = response.json<OutcomeJson>();
    expect(body.resourceType).toBe('OperationOutcome');
    expect(validateFhir(body)).toEqual([]);
    expect(body.issue[0]?.severity).toBe('error');
    expect(body.issue[0]?.code).toBe(code);
    expect(body).not.toHaveProperty('error');
    // No patient data comes back in a diagnostic, whatever the request carried.
    for (const text of ['MRN-0077', 'mrn-0077', 'Amina', 'Okafor', '1967-05-04']) {
      expect(response.body).not.toContain(text);
    }
    return response;
  };
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
  const remove = async (who: { cookie: string }, url: string, version: number) => {
    const response = await t.app.inject({
      method: 'DELETE',
      url,
      headers: { cookie: who.cookie, 'if-match': `"${version}"` },
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
  };

  beforeAll(async () => {
    t = await openTestApp(testDatabase, { TRIAGE_PATIENT_ID_SYSTEM: patientIdSystem });
    nurse = await signedInAs(t, 'nurse');
    doctor = await signedInAs(t, 'doctor');
    admin = await signedInAs(t, 'admin');
    amina = (
      await post(nurse, '/api/patients', {
        number: 'MRN-0077',
        name: 'Amina Okafor',
        birthDate: '1967-05-04',
        gender: 'Female',
      })
    ).json<Patient>();
    gone = (await post(nurse, '/api/patients', { number: 'MRN-0099' })).json<Patient>();
    for (const weight of [70, 76, 82]) {
      visits.push(
        (
          await post(nurse, '/api/assessments', { ...visit(weight), patientId: amina.id })
        ).json<Assessment>(),
      );
      t.advance(60_000);
    }
    deleted = (
      await post(nurse, '/api/assessments', { ...visit(90), patientId: amina.id })
    ).json<Assessment>();
    await remove(nurse, `/api/assessments/${deleted.id}`, deleted.version);
    t.advance(60_000);
    unlinked = (
      await post(nurse, '/api/assessments', {
        ...visit(65, { management: { Hypertension: { diagnosed: true } } }),
      })
    ).json<Assessment>();
    ofGone = (
      await post(nurse, '/api/assessments', { ...visit(60), patientId: gone.id })
    ).json<Assessment>();
    await remove(admin, `/api/patients/${gone.id}`, 1);
  });
  afterAll(async () => {
    await t.close();
  });

  const auditRows = () =>
    t.database.db
      .selectFrom('audit_events')
      .select(['user_id', 'username', 'action', 'target_type', 'target_id'])
      .where('action', '=', 'fhir_read')
      .orderBy('id')
      .execute();

  const mainUnitId = async () =>
    (
      await t.database.db
        .selectFrom('org_units')
        .select('id')
        .where('code', '=', 'MAIN')
        .executeTakeFirstOrThrow()
    ).id;

  it('states what it supports in a CapabilityStatement, to anyone', async () => {
    const response = await get('/fhir/metadata');
    expect(response.statusCode).toBe(200);
    const statement = response.json<FhirJson & Record<string, never>>();
    expect(validateFhir(statement)).toEqual([]);
    expect(response.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    expect(statement).toMatchObject({
      resourceType: 'CapabilityStatement',
      status: 'active',
      kind: 'instance',
      fhirVersion: '4.0.1',
      format: ['json'],
      implementation: { url: 'http://localhost:80/fhir' },
    });
    const rest = (
      statement as unknown as {
        rest: Array<{
          mode: string;
          security: { description: string };
          resource: Array<{
            type: string;
            interaction?: Array<{ code: string }>;
            searchParam?: Array<{ name: string; type: string }>;
          }>;
        }>;
      }
    ).rest;
    expect(rest[0]?.security.description).toMatch(/session.*Bearer/s);
    // SMART on FHIR: the service, and where a backend service asks for its token.
    expect(rest[0]?.security).toMatchObject({
      service: [
        {
          coding: [
            {
              system: 'http://terminology.hl7.org/CodeSystem/restful-security-service',
              code: 'SMART-on-FHIR',
            },
          ],
        },
      ],
      extension: [
        {
          url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
          extension: [{ url: 'token', valueUri: 'http://localhost:80/api/oauth/token' }],
        },
      ],
    });
    expect(
      rest[0]?.resource.map((resource) => [
        resource.type,
        (resource.interaction ?? []).map((interaction) => interaction.code),
        (resource.searchParam ?? []).map((parameter) => `${parameter.name}:${parameter.type}`),
      ]),
    ).toEqual([
      [
        'RiskAssessment',
        ['read', 'search-type'],
        ['patient:reference', 'subject:reference', '_lastUpdated:date'],
      ],
      ['Observation', ['read'], []],
      ['Condition', ['read'], []],
      ['Patient', ['read', 'search-type'], ['identifier:token']],
      // The Group of an organisation unit is only exported (FHIR Bulk Data, fhir-bulk.test.ts).
      ['Group', [], []],
      ['Organization', ['read'], []],
    ]);
  });

  it("reads a linked assessment's RiskAssessment as the export writes it, its subject the record's Patient", async () => {
    const [latest] = visits.slice(-1);
    const id = `${latest?.id ?? ''}.DM2`;
    const risk = await read(doctor, `/fhir/RiskAssessment/${id}`);
    expect(risk).toMatchObject({
      resourceType: 'RiskAssessment',
      id,
      subject: { reference: `Patient/${amina.id}` },
      occurrenceDateTime: latest?.createdAt,
    });
    const bundle = (
      await get(`/api/assessments/${latest?.id ?? ''}/fhir`, { cookie: doctor.cookie })
    ).json<{ entry: Array<{ resource: FhirJson }> }>();
    const exported = bundle.entry
      .map((entry) => entry.resource)
      .filter((resource) => resource.resourceType === 'RiskAssessment');
    expect(exported).toContainEqual(risk);
    // Its subject is readable here.
    const patient = await read(doctor, `/fhir/Patient/${amina.id}`);
    expect(patient).toEqual({
      resourceType: 'Patient',
      id: amina.id,
      meta: { versionId: '1', lastUpdated: amina.updatedAt },
      identifier: [{ system: patientIdSystem, value: 'MRN-0077' }],
      name: [{ text: 'Amina Okafor' }],
      gender: 'female',
      birthDate: '1967-05-04',
      managingOrganization: { reference: `Organization/${await mainUnitId()}` },
    });
  });

  it('follows every reference of a RiskAssessment to a resource read here, as the export writes it', async () => {
    for (const risk of [
      await read(doctor, `/fhir/RiskAssessment/${visits[0]?.id ?? ''}.DM2`),
      await read(doctor, `/fhir/RiskAssessment/${unlinked.id}.Hypertension`),
    ]) {
      const assessmentId = (risk.id ?? '').split('.')[0] ?? '';
      const exported = (
        await get(`/api/assessments/${assessmentId}/fhir`, { cookie: doctor.cookie })
      )
        .json<{ entry: Array<{ resource: FhirJson }> }>()
        .entry.map((entry) => entry.resource);
      const references = [
        ...((risk.basis as Array<{ reference: string }> | undefined) ?? []),
        ...(risk.condition === undefined ? [] : [risk.condition as { reference: string }]),
        risk.subject as { reference: string },
      ].map((reference) => reference.reference);
      expect(references.length).toBeGreaterThan(1);
      for (const reference of references) {
        const [type, id] = reference.split('/');
        const target = await read(doctor, `/fhir/${reference}`);
        expect([target.resourceType, target.id]).toEqual([type, id]);
        expect(exported).toContainEqual(target);
      }
    }
    // The diagnosed Hypertension is the Condition its RiskAssessment names.
    const hypertension = await read(doctor, `/fhir/Condition/${unlinked.id}.Hypertension`);
    expect(hypertension).toMatchObject({
      subject: { reference: `Patient/${unlinked.id}.patient` },
      code: { text: expect.stringMatching(/hypertension/i) as unknown },
    });
    const first = visits[0];
    const bmi = await read(doctor, `/fhir/Observation/${first?.id ?? ''}.bmi`);
    expect(bmi).toMatchObject({ subject: { reference: `Patient/${amina.id}` } });
    expect(bmi.valueQuantity).toMatchObject({
      value: Math.round((first?.demographics.bmi ?? Number.NaN) * 10) / 10,
    });
    // Each read is audited with the resource it returned.
    const audited = (await auditRows()).map((row) => `${row.target_type}/${row.target_id}`);
    expect(audited).toContain(`Observation/${first?.id ?? ''}.bmi`);
    expect(audited).toContain(`Condition/${unlinked.id}.Hypertension`);
  });

  it('serves every resource and reference of the bulk file and the single download under its own id', async () => {
    const response = await get('/api/exports/fhir.ndjson', { cookie: doctor.cookie });
    expect(response.statusCode).toBe(200);
    const lines = response.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as FhirJson);
    // Amina's unit (MAIN), her Patient and her 3 live visits (4 Observations and 6
    // RiskAssessments each), the unlinked assessment (its Patient, 4 Observations, its Condition,
    // 6 RiskAssessments); nothing of the deleted patient record, which the API answers 404.
    expect(lines).toHaveLength(1 + 1 + 3 * 10 + 12);
    expect(JSON.stringify(lines)).not.toContain(gone.id);
    for (const resource of lines) {
      expect(await read(doctor, `/fhir/${resource.resourceType}/${resource.id ?? ''}`)).toEqual(
        resource,
      );
    }
    const written = new Set(
      lines.map((resource) => `${resource.resourceType}/${resource.id ?? ''}`),
    );
    for (const reference of new Set(referencesIn(lines))) expect(written).toContain(reference);
    expect(lines.find((resource) => resource.id === amina.id)?.managingOrganization).toEqual({
      reference: `Organization/${await mainUnitId()}`,
    });

    for (const assessment of [...visits, unlinked]) {
      const bundle = (
        await get(`/api/assessments/${assessment.id}/fhir`, { cookie: doctor.cookie })
      ).json<{ entry: Array<{ fullUrl: string; resource: FhirJson }> }>();
      for (const { fullUrl, resource } of bundle.entry) {
        expect(fullUrl).toBe(
          `http://localhost:80/fhir/${resource.resourceType}/${resource.id ?? ''}`,
        );
        expect(await read(doctor, fullUrl.replace('http://localhost:80', ''))).toEqual(resource);
        expect(lines).toContainEqual(resource);
      }
    }
  });

  it('reads the RiskAssessment of an assessment without a patient record, and its own Patient', async () => {
    const risk = await read(doctor, `/fhir/RiskAssessment/${unlinked.id}.Hypertension`);
    expect(risk.subject).toEqual({ reference: `Patient/${unlinked.id}.patient` });
    expect(JSON.stringify(risk)).not.toContain('qualitativeRisk');
    const patient = await read(doctor, `/fhir/Patient/${unlinked.id}.patient`);
    expect(patient).toEqual({
      resourceType: 'Patient',
      id: `${unlinked.id}.patient`,
      meta: { versionId: '1', lastUpdated: unlinked.updatedAt },
      gender: 'female',
    });
    const bundle = await read<SearchsetJson>(
      doctor,
      `/fhir/RiskAssessment?subject=Patient/${unlinked.id}.patient`,
    );
    const all = ['DM2', 'HIV', 'TB', 'Asthma', 'Hypertension', 'Hyperlipidaemia'].map(
      (condition) => `${unlinked.id}.${condition}`,
    );
    expect(bundle.total).toBe(6);
    expect(bundle.entry?.map((entry) => entry.resource.id)).toEqual(all);
    // Paged like any other Patient's.
    const first = await read<SearchsetJson>(
      doctor,
      `/fhir/RiskAssessment?subject=Patient/${unlinked.id}.patient&_count=4`,
    );
    const next = first.link.find((link) => link.relation === 'next')?.url ?? '';
    const second = await read<SearchsetJson>(doctor, next.replace('http://localhost:80', ''));
    expect([first, second].map((page) => page.total)).toEqual([6, 6]);
    expect(second.link.map((link) => link.relation)).toEqual(['self']);
    expect(
      [...(first.entry ?? []), ...(second.entry ?? [])].map((entry) => entry.resource.id),
    ).toEqual(all);
  });

  it("pages a Patient's RiskAssessments newest first, with the total and an opaque next link", async () => {
    const expected = [...visits]
      .reverse()
      .flatMap((assessment) =>
        ['DM2', 'HIV', 'TB', 'Asthma', 'Hypertension', 'Hyperlipidaemia'].map(
          (condition) => `${assessment.id}.${condition}`,
        ),
      );
    for (const count of [4, 6, 7, 18, 100]) {
      const seen: string[] = [];
      let url: string | undefined =
        `/fhir/RiskAssessment?subject=Patient/${amina.id}&_count=${count}`;
      let pages = 0;
      while (url !== undefined) {
        const page: SearchsetJson = await read<SearchsetJson>(doctor, url);
        pages += 1;
        expect(page).toMatchObject({ type: 'searchset', total: 18 });
        expect(page.entry?.length).toBe(Math.min(count, 18 - seen.length));
        for (const entry of page.entry ?? []) {
          expect(entry.fullUrl).toBe(
            `http://localhost:80/fhir/RiskAssessment/${entry.resource.id ?? ''}`,
          );
          expect(entry.search.mode).toBe('match');
          seen.push(entry.resource.id ?? '');
        }
        expect(page.link[0]?.relation).toBe('self');
        const next = page.link.find((link) => link.relation === 'next')?.url;
        if (next !== undefined) {
          expect(next).toMatch(/^http:\/\/localhost:80\/fhir\/RiskAssessment\?/);
          expect(new URL(next).searchParams.get('_cursor')).toMatch(/^[A-Za-z0-9_-]+$/);
        }
        url = next === undefined ? undefined : next.replace('http://localhost:80', '');
      }
      expect(seen, `_count=${count}`).toEqual(expected);
      expect(pages).toBe(Math.ceil(18 / count));
    }
    // The default page is 20 entries; none is of the deleted assessment.
    const whole = await read<SearchsetJson>(doctor, `/fhir/RiskAssessment?subject=${amina.id}`);
    expect(whole.entry?.map((entry) => entry.resource.id)).toEqual(expected);
    expect(JSON.stringify(whole)).not.toContain(deleted.id);
    // _count=0 gives the total alone.
    const counted = await read<SearchsetJson>(
      doctor,
      `/fhir/RiskAssessment?subject=Patient/${amina.id}&_count=0`,
    );
    expect(counted.total).toBe(18);
    expect(counted.entry).toBeUndefined();
    // A Patient with nothing live matches nothing.
    const none = await read<SearchsetJson>(
      doctor,
      `/fhir/RiskAssessment?subject=Patient/${gone.id}`,
    );
    expect(none.total).toBe(0);
    expect(none.entry).toBeUndefined();
  });

  it('finds a Patient by its number, with or without the system, in any case', async () => {
    const found = async (identifier: string) => {
      const bundle = await read<SearchsetJson>(
        doctor,
        `/fhir/Patient?identifier=${encodeURIComponent(identifier)}`,
      );
      expect(bundle.type).toBe('searchset');
      expect(bundle.total).toBe(bundle.entry?.length ?? 0);
      return (bundle.entry ?? []).map((entry) => entry.resource.id);
    };
    expect(await found(`${patientIdSystem}|MRN-0077`)).toEqual([amina.id]);
    expect(await found(`${patientIdSystem}|mrn-0077`)).toEqual([amina.id]);
    expect(await found('Mrn-0077')).toEqual([amina.id]);
    expect(await found('urn:other:system|MRN-0077')).toEqual([]);
    expect(await found('|MRN-0077')).toEqual([]);
    expect(await found('MRN-0078')).toEqual([]);
    // A deleted record is not found.
    expect(await found('MRN-0099')).toEqual([]);
  });

  it('answers what it cannot find or read as an OperationOutcome', async () => {
    const headers = { cookie: doctor.cookie };
    for (const url of [
      `/fhir/RiskAssessment/${deleted.id}.DM2`,
      `/fhir/RiskAssessment/${ofGone.id}.DM2`,
      `/fhir/RiskAssessment/${visits[0]?.id ?? ''}.Gout`,
      '/fhir/RiskAssessment/nothing-here',
      `/fhir/Patient/${gone.id}`,
      `/fhir/Patient/${deleted.id}.patient`,
      `/fhir/Patient/${visits[0]?.id ?? ''}.patient`,
      '/fhir/Patient/0194a0b2-0000-7000-8000-000000000000',
    ]) {
      await refused(url, 404, 'not-found', headers);
    }
    await refused('/fhir/Encounter/x', 404, 'not-supported', headers);
    for (const url of [
      `/fhir/Observation/${deleted.id}.bmi`,
      `/fhir/Observation/${ofGone.id}.bmi`,
      `/fhir/Observation/${visits[0]?.id ?? ''}.DM2`,
      `/fhir/Condition/${visits[0]?.id ?? ''}.Hypertension`,
      `/fhir/Condition/${unlinked.id}.bmi`,
      '/fhir/Condition/nothing-here',
    ]) {
      await refused(url, 404, 'not-found', headers);
    }
    await refused('/fhir/RiskAssessment', 400, 'invalid', headers);
    await refused('/fhir/Patient', 400, 'invalid', headers);
    await refused('/fhir/Patient?identifier=MRN-0077|x|y', 400, 'invalid', headers);
    await refused(
      `/fhir/Patient?identifier=${encodeURIComponent(`${patientIdSystem}|`)}`,
      400,
      'invalid',
      headers,
    );
    await refused('/fhir/RiskAssessment?subject=Patient/MRN-0077!', 400, 'invalid', headers);
    await refused(
      `/fhir/RiskAssessment?subject=Patient/${amina.id}&_count=-1`,
      400,
      'invalid',
      headers,
    );
    await refused(
      `/fhir/RiskAssessment?subject=Patient/${amina.id}&_cursor=bm9wZQ`,
      400,
      'invalid',
      headers,
    );
    await refused('/fhir/Patient/MRN-0077!', 400, 'invalid', headers);
    await refused(`/fhir/Patient/${amina.id}`, 406, 'not-supported', {
      ...headers,
      accept: 'application/fhir+xml',
    });
    await refused(`/fhir/Patient/${amina.id}?_format=xml`, 406, 'not-supported', headers);
    // Plain JSON and the FHIR format parameter are both FHIR JSON.
    await read(doctor, `/fhir/Patient/${amina.id}`, { accept: 'application/json' });
    await read(doctor, `/fhir/Patient/${amina.id}?_format=json`, { accept: 'text/html' });
  });

  it('refuses an anonymous read 401 as an OperationOutcome, naming how to authenticate', async () => {
    for (const url of [
      `/fhir/RiskAssessment/${visits[0]?.id ?? ''}.DM2`,
      `/fhir/RiskAssessment?subject=Patient/${amina.id}`,
      `/fhir/Patient/${amina.id}`,
      '/fhir/Patient?identifier=MRN-0077',
    ]) {
      const response = await refused(url, 401, 'login');
      expect(response.headers['www-authenticate']).toBe('Bearer realm="fhir"');
    }
  });

  it("refuses a nurse's session 403, as decisions.md's FHIR export row says, and admits doctors and admins", async () => {
    for (const url of [
      '/fhir/RiskAssessment',
      `/fhir/RiskAssessment/${visits[0]?.id ?? ''}.DM2`,
      `/fhir/RiskAssessment?subject=Patient/${amina.id}`,
      `/fhir/Patient/${amina.id}`,
      '/fhir/Patient?identifier=MRN-0077',
      `/fhir/Condition/${unlinked.id}.Hypertension`,
    ]) {
      await refused(url, 403, 'forbidden', { cookie: nurse.cookie });
    }
    await read(doctor, `/fhir/Patient/${amina.id}`);
    await read(admin, `/fhir/Patient/${amina.id}`);
    // The CapabilityStatement stays open to anyone.
    expect((await get('/fhir/metadata', { cookie: nurse.cookie })).statusCode).toBe(200);
  });

  it('audits every read, with the user, the resource and never the number searched for', async () => {
    const before = (await auditRows()).length;
    await read(doctor, `/fhir/Patient/${amina.id}`);
    await read(doctor, `/fhir/RiskAssessment/${visits[1]?.id ?? ''}.TB`);
    await read(doctor, `/fhir/RiskAssessment?subject=Patient/${amina.id}`);
    await read(doctor, '/fhir/Patient?identifier=mrn-0077');
    await read(doctor, '/fhir/Patient?identifier=MRN-0078');
    const rows = (await auditRows()).slice(before);
    expect(rows.map((row) => [row.target_type, row.target_id])).toEqual([
      ['Patient', amina.id],
      ['RiskAssessment', `${visits[1]?.id ?? ''}.TB`],
      ['RiskAssessment', `?subject=Patient/${amina.id}`],
      ['Patient', amina.id],
      ['Patient', '?identifier'],
    ]);
    expect(new Set(rows.map((row) => row.user_id))).toEqual(
      new Set([
        (
          await t.database.db
            .selectFrom('users')
            .select('id')
            .where('role', '=', 'doctor')
            .executeTakeFirstOrThrow()
        ).id,
      ]),
    );
    expect(JSON.stringify(rows).toLowerCase()).not.toContain('mrn-');
  });

  it('admits an API token on the FHIR reads only, audits its use by name, and refuses it once revoked', async () => {
    const operator = { user: null, address: 'command line' };
    const { token } = await createApiToken(t.context, operator, 'openmrs-test');
    expect(token).toMatch(/^triage_[A-Za-z0-9_-]{43}$/);
    const stored = await t.database.db
      .selectFrom('api_tokens')
      .selectAll()
      .where('name', '=', 'openmrs-test')
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(token.slice('triage_'.length));
    expect(stored.last_used_at).toBeNull();

    const bearer = { authorization: `Bearer ${token}` };
    const patient = await get(`/fhir/Patient/${amina.id}`, bearer);
    expect(patient.statusCode, patient.body).toBe(200);
    expect(validateFhir(patient.json())).toEqual([]);
    const page = await get(`/fhir/RiskAssessment?subject=Patient/${amina.id}&_count=2`, bearer);
    expect(page.statusCode).toBe(200);
    expect(page.json<SearchsetJson>().entry).toHaveLength(2);
    const rows = (await auditRows()).slice(-2);
    expect(rows).toEqual([
      {
        user_id: null,
        username: 'api-token:openmrs-test',
        action: 'fhir_read',
        target_type: 'Patient',
        target_id: amina.id,
      },
      {
        user_id: null,
        username: 'api-token:openmrs-test',
        action: 'fhir_read',
        target_type: 'RiskAssessment',
        target_id: `?subject=Patient/${amina.id}`,
      },
    ]);
    const used = await t.database.db
      .selectFrom('api_tokens')
      .select('last_used_at')
      .where('name', '=', 'openmrs-test')
      .executeTakeFirstOrThrow();
    expect(used.last_used_at).not.toBeNull();

    // Read-only and FHIR-only: neither a write nor another read of the product takes it.
    const write = await t.app.inject({
      method: 'POST',
      url: '/api/patients',
      headers: bearer,
      payload: { number: 'MRN-TOKEN' },
    });
    expect(write.statusCode).toBe(401);
    expect((await get('/api/patients', bearer)).statusCode).toBe(401);
    expect((await get(`/api/patients/${amina.id}`, bearer)).statusCode).toBe(401);
    expect(
      await t.database.db
        .selectFrom('patient_records')
        .select('id')
        .where('number', '=', 'MRN-TOKEN')
        .execute(),
    ).toEqual([]);

    // A read that finds nothing is a use too, audited as a failure naming the route only.
    await refused(`/fhir/RiskAssessment/${deleted.id}.DM2`, 404, 'not-found', bearer);
    expect(
      await t.database.db
        .selectFrom('audit_events')
        .select(['username', 'action', 'target_type', 'target_id', 'outcome'])
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      username: 'api-token:openmrs-test',
      action: 'fhir_read',
      target_type: 'route',
      target_id: 'GET /fhir/RiskAssessment/:id',
      outcome: 'failure',
    });

    // A token that is not one, and the token once revoked.
    await refused(`/fhir/Patient/${amina.id}`, 401, 'login', {
      authorization: `Bearer ${token.slice(0, -1)}x`,
    });
    await revokeApiToken(t.context, operator, 'openmrs-test');
    const revoked = await refused(`/fhir/Patient/${amina.id}`, 401, 'login', bearer);
    expect(revoked.json<OutcomeJson>().issue[0]?.diagnostics).toMatch(/revoked/);
    const actions = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'target_id', 'username'])
      .where('action', 'in', ['api_token_create', 'api_token_revoke'])
      .orderBy('id')
      .execute();
    expect(actions).toEqual([
      { action: 'api_token_create', target_id: 'openmrs-test', username: null },
      { action: 'api_token_revoke', target_id: 'openmrs-test', username: null },
    ]);
    expect(
      JSON.stringify(await t.database.db.selectFrom('audit_events').selectAll().execute()),
    ).not.toContain(token);
  });

  it('versions every resource: meta, a weak ETag and Last-Modified, 304 for the version held', async () => {
    const inject = async (
      method: 'PUT' | 'POST',
      url: string,
      who: { cookie: string },
      payload: object,
      version?: number,
    ) => {
      const response = await t.app.inject({
        method,
        url,
        headers: {
          cookie: who.cookie,
          ...(version === undefined ? {} : { 'if-match': `"${version}"` }),
        },
        payload,
      });
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response;
    };
    const record = (
      await post(nurse, '/api/patients', { number: 'MRN-0500', name: 'Kofi Mensah' })
    ).json<Patient>();
    const made = (
      await post(nurse, '/api/assessments', { ...visit(70), patientId: record.id })
    ).json<Assessment>();
    const urls = ['RiskAssessment', 'Observation'].map(
      (type) => `/fhir/${type}/${made.id}.${type === 'Observation' ? 'bmi' : 'DM2'}`,
    );
    /** Each resource's answer: status, ETag, Last-Modified and meta. */
    const versions = async (url: string, headers: Record<string, string> = {}) => {
      const response = await get(url, { cookie: doctor.cookie, ...headers });
      return {
        status: response.statusCode,
        etag: response.headers.etag,
        lastModified: response.headers['last-modified'],
        meta: response.statusCode === 200 ? response.json<FhirJson>().meta : response.body,
      };
    };
    const httpDate = (iso: string) => new Date(iso).toUTCString();
    for (const url of urls) {
      expect(await versions(url)).toEqual({
        status: 200,
        etag: 'W/"1"',
        lastModified: httpDate(made.updatedAt),
        meta: { versionId: '1', lastUpdated: made.updatedAt },
      });
      // The version held: 304 with no body, the ETag strong or weak, in a list, or any (*).
      for (const held of ['W/"1"', '"1"', 'W/"7", W/"1"', '*']) {
        expect(await versions(url, { 'if-none-match': held }), held).toEqual({
          status: 304,
          etag: 'W/"1"',
          lastModified: httpDate(made.updatedAt),
          meta: '',
        });
      }
      expect((await versions(url, { 'if-none-match': 'W/"2"' })).status).toBe(200);
    }

    // An update raises the version and the last update of every resource of the assessment.
    t.advance(60_000);
    const updated = (
      await inject(
        'PUT',
        `/api/assessments/${made.id}`,
        nurse,
        { ...visit(74), patientId: record.id },
        1,
      )
    ).json<Assessment>();
    expect(updated.updatedAt > made.updatedAt).toBe(true);
    for (const url of urls) {
      expect(await versions(url, { 'if-none-match': 'W/"1"' })).toMatchObject({
        status: 200,
        etag: 'W/"2"',
        meta: { versionId: '2', lastUpdated: updated.updatedAt },
      });
    }
    // So does a sign-off, and each write of the doctor's review (its comments are the notes).
    t.advance(60_000);
    await inject('POST', `/api/assessments/${made.id}/sign-off`, doctor, {}, 2);
    t.advance(60_000);
    await inject('PUT', `/api/assessments/${made.id}/review`, doctor, {
      reviews: [{ condition: 'DM2', agreed: true, comments: 'Order HbA1c.' }],
    });
    const reviewedAt = t.context.now().toISOString();
    const reviewed = await read(doctor, urls[0] ?? '');
    expect(reviewed.meta).toEqual({ versionId: '4', lastUpdated: reviewedAt });
    expect(reviewed.note).toEqual([
      { text: 'Order HbA1c.', authorString: expect.any(String) as unknown },
    ]);
    t.advance(60_000);
    await inject('POST', `/api/assessments/${made.id}/review/lock`, doctor, {});
    expect((await versions(urls[0] ?? '', { 'if-none-match': 'W/"4"' })).etag).toBe('W/"5"');

    // A patient record's Patient has the record's version and last change.
    const patientUrl = `/fhir/Patient/${record.id}`;
    expect(await versions(patientUrl)).toMatchObject({ status: 200, etag: 'W/"1"' });
    t.advance(60_000);
    const renamed = (
      await inject(
        'PUT',
        `/api/patients/${record.id}`,
        nurse,
        { number: 'MRN-0500', name: 'Kofi A. Mensah' },
        1,
      )
    ).json<Patient>();
    expect(await versions(patientUrl, { 'if-none-match': 'W/"1"' })).toEqual({
      status: 200,
      etag: 'W/"2"',
      lastModified: httpDate(renamed.updatedAt),
      meta: { versionId: '2', lastUpdated: renamed.updatedAt },
    });
    expect((await versions(patientUrl, { 'if-none-match': 'W/"2"' })).status).toBe(304);

    // The downloads carry the same meta as the reads.
    const bundle = (await get(`/api/assessments/${made.id}/fhir`, { cookie: doctor.cookie })).json<{
      entry: Array<{ resource: FhirJson }>;
    }>();
    for (const { resource } of bundle.entry) {
      expect(await read(doctor, `/fhir/${resource.resourceType}/${resource.id ?? ''}`)).toEqual(
        resource,
      );
    }
  });

  it("reads an organisation unit as an Organization, which a Patient's managingOrganization names, versioned like the other reads", async () => {
    const mainId = await mainUnitId();
    const unitRequest = async (
      method: 'POST' | 'PUT',
      url: string,
      payload: object,
      version?: number,
    ) => {
      const response = await t.app.inject({
        method,
        url,
        headers: {
          cookie: admin.cookie,
          ...(version === undefined ? {} : { 'if-match': `"${version}"` }),
        },
        payload,
      });
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response.json<{ id: string; version: number; updatedAt: string }>();
    };
    const facility = await unitRequest('POST', '/api/org-units', {
      code: 'KAN-014',
      name: 'Kanyama clinic',
      parentId: mainId,
    });
    const url = `/fhir/Organization/${facility.id}`;
    expect(await read(doctor, url)).toEqual({
      resourceType: 'Organization',
      id: facility.id,
      meta: { versionId: '1', lastUpdated: facility.updatedAt },
      identifier: [{ system: 'urn:triage:org-unit', value: 'KAN-014' }],
      active: true,
      name: 'Kanyama clinic',
      partOf: { reference: `Organization/${mainId}` },
    });
    // The top of the tree is part of nothing; every Patient's unit is readable.
    const main = await read(doctor, `/fhir/Organization/${mainId}`);
    expect(main).toMatchObject({ identifier: [{ value: 'MAIN' }], active: true });
    expect(main).not.toHaveProperty('partOf');
    const patient = await read(doctor, `/fhir/Patient/${amina.id}`);
    const managing = (patient.managingOrganization as { reference: string }).reference;
    expect(await read(doctor, `/fhir/${managing}`)).toEqual(main);

    const first = await get(url, { cookie: doctor.cookie });
    expect(first.headers.etag).toBe('W/"1"');
    expect(first.headers['last-modified']).toBe(new Date(facility.updatedAt).toUTCString());
    const held = await get(url, { cookie: doctor.cookie, 'if-none-match': 'W/"1"' });
    expect([held.statusCode, held.body]).toEqual([304, '']);

    // A change raises the version; a closed unit is inactive and still readable.
    t.advance(60_000);
    await unitRequest(
      'PUT',
      `/api/org-units/${facility.id}`,
      { code: 'KAN-014', name: 'Kanyama health centre', parentId: mainId },
      1,
    );
    t.advance(60_000);
    const closed = await unitRequest('POST', `/api/org-units/${facility.id}/close`, {}, 2);
    const changed = await get(url, { cookie: doctor.cookie, 'if-none-match': 'W/"1"' });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).toBe(`W/"${closed.version}"`);
    expect(changed.json()).toMatchObject({
      meta: { versionId: String(closed.version), lastUpdated: closed.updatedAt },
      name: 'Kanyama health centre',
      active: false,
    });

    const audited = (await auditRows()).map((row) => `${row.target_type}/${row.target_id}`);
    expect(audited).toContain(`Organization/${facility.id}`);
    await refused('/fhir/Organization/019a8f6e-0000-7000-8000-00000000dead', 401, 'login');
    await refused('/fhir/Organization/019a8f6e-0000-7000-8000-00000000dead', 404, 'not-found', {
      cookie: doctor.cookie,
    });
  });

  it('searches as R4 says: every form of the Patient, the self link showing what was used', async () => {
    const conditions = ['DM2', 'HIV', 'TB', 'Asthma', 'Hypertension', 'Hyperlipidaemia'];
    const idsOf = (assessments: Assessment[]) =>
      assessments.flatMap((assessment) => conditions.map((c) => `${assessment.id}.${c}`));
    const newestFirst = idsOf([...visits].reverse());
    const base = 'http://localhost:80/fhir';
    const self = (page: SearchsetJson) => page.link.find((link) => link.relation === 'self')?.url;
    const entries = (page: SearchsetJson) => page.entry?.map((entry) => entry.resource.id);
    for (const form of [
      `patient=${amina.id}`,
      `patient=Patient/${amina.id}`,
      `subject=Patient/${amina.id}`,
      `subject=${amina.id}`,
      `subject=${encodeURIComponent(`${base}/Patient/${amina.id}`)}`,
      `subject:Patient=${amina.id}`,
    ]) {
      const page = await read<SearchsetJson>(doctor, `/fhir/RiskAssessment?${form}`);
      expect(entries(page), form).toEqual(newestFirst);
      expect(self(page), form).toBe(
        `${base}/RiskAssessment?subject=Patient%2F${amina.id}&_count=20`,
      );
    }
    // Lenient (the default): what the search did not use is left out of self; _count as served.
    const lenient = await read<SearchsetJson>(
      doctor,
      `/fhir/RiskAssessment?subject=Patient/${amina.id}&_include=RiskAssessment:subject&colour=blue&_sort=date&_count=1000`,
    );
    expect(self(lenient)).toBe(
      `${base}/RiskAssessment?subject=Patient%2F${amina.id}&_sort=date&_count=100`,
    );
    expect(entries(lenient)).toEqual(idsOf(visits));
    // Strict: refused, naming the parameters (never their values).
    const strict = await refused(
      `/fhir/RiskAssessment?subject=Patient/${amina.id}&colour=blue&_include=x`,
      400,
      'invalid',
      { cookie: doctor.cookie, prefer: 'handling=strict' },
    );
    expect(strict.json<OutcomeJson>().issue[0]?.diagnostics).toBe(
      'This search does not support the parameters _include, colour.',
    );
    expect(
      (
        await get(`/fhir/RiskAssessment?subject=Patient/${amina.id}&_count=2`, {
          cookie: doctor.cookie,
          prefer: 'return=minimal, handling=strict',
        })
      ).statusCode,
    ).toBe(200);
    // Sorted oldest first, and paged in that order.
    const seen: string[] = [];
    let url: string | undefined =
      `/fhir/RiskAssessment?subject=Patient/${amina.id}&_sort=date&_count=4`;
    while (url !== undefined) {
      const page: SearchsetJson = await read<SearchsetJson>(doctor, url);
      expect(self(page)).toMatch(/&_sort=date&_count=4(&_cursor=[A-Za-z0-9_-]+)?$/);
      seen.push(...(entries(page) ?? []).map(String));
      url = page.link
        .find((link) => link.relation === 'next')
        ?.url.replace('http://localhost:80', '');
    }
    expect(seen).toEqual(idsOf(visits));
    // Only the total.
    const counted = await read<SearchsetJson>(
      doctor,
      `/fhir/RiskAssessment?subject=Patient/${amina.id}&_summary=count`,
    );
    expect(counted).toMatchObject({ total: 18 });
    expect(counted.entry).toBeUndefined();
    expect(self(counted)).toBe(
      `${base}/RiskAssessment?subject=Patient%2F${amina.id}&_summary=count`,
    );
    // Last updated: the visits were saved a minute apart.
    const since = (query: string) =>
      read<SearchsetJson>(doctor, `/fhir/RiskAssessment?subject=Patient/${amina.id}&${query}`);
    const second = visits[1]?.updatedAt ?? '';
    expect(entries(await since(`_lastUpdated=ge${second}`))).toEqual(
      idsOf([visits[2], visits[1]] as Assessment[]),
    );
    expect((await since(`_lastUpdated=gt${second}`)).total).toBe(6);
    expect(entries(await since(`_lastUpdated=lt${second}`))).toEqual(
      idsOf([visits[0]] as Assessment[]),
    );
    const range = await since(`_lastUpdated=ge${second}&_lastUpdated=le${second}`);
    expect(entries(range)).toEqual(idsOf([visits[1]] as Assessment[]));
    expect(self(range)).toBe(
      `${base}/RiskAssessment?subject=Patient%2F${amina.id}&_lastUpdated=ge${encodeURIComponent(second)}&_lastUpdated=le${encodeURIComponent(second)}&_count=20`,
    );
    // The same instant in another zone.
    const inZone = new Date(Date.parse(second) + 2 * 3_600_000)
      .toISOString()
      .replace('Z', '+02:00');
    expect((await since(`_lastUpdated=ge${encodeURIComponent(inZone)}`)).total).toBe(12);
    // What the search cannot understand is refused, whatever the handling.
    for (const query of [
      '_sort=name',
      '_sort=-_lastUpdated',
      '_sort=date&_sort=-date',
      '_lastUpdated=eq2026-11-22T09:00:00Z',
      '_lastUpdated=ge2026-11-22',
      '_lastUpdated=ge2026-11-22T09:00:00',
      '_summary=true',
      '_count=ten',
      `patient=${gone.id}`,
      'subject=Observation/x',
      `subject=${encodeURIComponent(`https://elsewhere.example/fhir/Patient/${amina.id}`)}`,
    ]) {
      await refused(`/fhir/RiskAssessment?subject=Patient/${amina.id}&${query}`, 400, 'invalid', {
        cookie: doctor.cookie,
      });
    }
    // The Patient search treats unknown parameters the same way.
    const patients = await read<SearchsetJson>(doctor, '/fhir/Patient?identifier=mrn-0077&name=x');
    expect(self(patients)).toBe(`${base}/Patient?identifier=mrn-0077`);
    await refused('/fhir/Patient?identifier=mrn-0077&name=x', 400, 'invalid', {
      cookie: doctor.cookie,
      prefer: 'handling=strict',
    });
  });

  it('searches by POST [type]/_search with a form, for a session and an API token alike', async () => {
    const operator = { user: null, address: 'command line' };
    const { token } = await createApiToken(t.context, operator, 'warehouse', 'MAIN');
    const form = `subject=Patient%2F${amina.id}&_sort=date&_count=4&colour=blue`;
    const byGet = await read<SearchsetJson>(doctor, `/fhir/RiskAssessment?${form}`);
    for (const headers of [{ cookie: doctor.cookie }, { authorization: `Bearer ${token}` }]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/fhir/RiskAssessment/_search',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form,
      });
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json<SearchsetJson>();
      expect(validateFhir(page)).toEqual([]);
      expect(page).toEqual(byGet);
      const patient = await t.app.inject({
        method: 'POST',
        url: '/fhir/Patient/_search?identifier=MRN-0077',
        headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
        payload: '',
      });
      expect(patient.json<SearchsetJson>().entry?.map((entry) => entry.resource.id)).toEqual([
        amina.id,
      ]);
    }
    // Strict handling holds for a form too; a nurse may not search this way either.
    const strict = await t.app.inject({
      method: 'POST',
      url: '/fhir/RiskAssessment/_search',
      headers: {
        cookie: doctor.cookie,
        prefer: 'handling=strict',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: form,
    });
    expect(strict.statusCode).toBe(400);
    const byNurse = await t.app.inject({
      method: 'POST',
      url: '/fhir/RiskAssessment/_search',
      headers: { cookie: nurse.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
    expect(byNurse.statusCode).toBe(403);
    await revokeApiToken(t.context, operator, 'warehouse');
  });

  it('finds what changed since a time, and sorts by the last change', async () => {
    const record = (await post(nurse, '/api/patients', { number: 'MRN-0600' })).json<Patient>();
    const older = (
      await post(nurse, '/api/assessments', { ...visit(70), patientId: record.id })
    ).json<Assessment>();
    t.advance(60_000);
    const newer = (
      await post(nurse, '/api/assessments', { ...visit(72), patientId: record.id })
    ).json<Assessment>();
    t.advance(60_000);
    const before = t.context.now().toISOString();
    t.advance(60_000);
    const changed = await t.app.inject({
      method: 'PUT',
      url: `/api/assessments/${older.id}`,
      headers: { cookie: nurse.cookie, 'if-match': '"1"' },
      payload: { ...visit(71), patientId: record.id },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const search = (query: string) =>
      read<SearchsetJson>(doctor, `/fhir/RiskAssessment?subject=Patient/${record.id}&${query}`);
    const assessmentsIn = (page: SearchsetJson) => [
      ...new Set(page.entry?.map((entry) => (entry.resource.id ?? '').split('.')[0])),
    ];
    expect(assessmentsIn(await search(`_lastUpdated=gt${before}`))).toEqual([older.id]);
    expect(assessmentsIn(await search('_sort=-date'))).toEqual([newer.id, older.id]);
    expect(assessmentsIn(await search('_sort=_lastUpdated'))).toEqual([newer.id, older.id]);
    expect(assessmentsIn(await search('_sort=date'))).toEqual([older.id, newer.id]);
    // Paged in the order of the last change.
    const first = await search('_sort=_lastUpdated&_count=6');
    expect(assessmentsIn(first)).toEqual([newer.id]);
    const next = first.link.find((link) => link.relation === 'next')?.url ?? '';
    expect(
      assessmentsIn(await read<SearchsetJson>(doctor, next.replace('http://localhost:80', ''))),
    ).toEqual([older.id]);
  });

  it('prefers a session to a token, and lists the routes in the OpenAPI document', async () => {
    const document = (await get('/api/openapi.json')).json<{
      paths: Record<string, Record<string, { tags?: string[] }>>;
    }>();
    for (const path of [
      '/fhir/metadata',
      '/fhir/RiskAssessment/{id}',
      '/fhir/RiskAssessment',
      '/fhir/Patient/{id}',
      '/fhir/Patient',
    ]) {
      expect(document.paths[path]?.get?.tags, path).toEqual(['fhir']);
    }
    const response = await get(`/fhir/Patient/${amina.id}`, {
      cookie: doctor.cookie,
      authorization: 'Bearer triage_not-a-token',
    });
    expect(response.statusCode).toBe(200);
  });
});

describe.each(testDatabases())('the FHIR API behind PUBLIC_URL on $engine', (testDatabase) => {
  it('builds its links and the CapabilityStatement from PUBLIC_URL, not the request', async () => {
    const t = await openTestApp(testDatabase, {
      PUBLIC_URL: 'https://triage.clinic.example/base/',
    });
    try {
      const nurse = await signedInAs(t, 'nurse');
      const made = await t.app.inject({
        method: 'POST',
        url: '/api/patients',
        headers: { cookie: nurse.cookie },
        payload: { number: 'MRN-5' },
      });
      const patient = made.json<Patient>();
      for (let index = 0; index < 2; index++) {
        const saved = await t.app.inject({
          method: 'POST',
          url: '/api/assessments',
          headers: { cookie: nurse.cookie },
          payload: { demographics: { age: 40 }, patientId: patient.id },
        });
        expect(saved.statusCode, saved.body).toBe(201);
      }
      const doctor = await signedInAs(t, 'doctor');
      const headers = { cookie: doctor.cookie, host: 'internal:3000' };
      const metadata = await t.app.inject({ method: 'GET', url: '/fhir/metadata', headers });
      expect(metadata.json<{ implementation: { url: string } }>().implementation.url).toBe(
        'https://triage.clinic.example/base/fhir',
      );
      const page = (
        await t.app.inject({
          method: 'GET',
          url: `/fhir/RiskAssessment?subject=Patient/${patient.id}&_count=5`,
          headers,
        })
      ).json<SearchsetJson>();
      expect(validateFhir(page)).toEqual([]);
      const urls = [
        ...page.link.map((link) => link.url),
        ...(page.entry ?? []).map((e) => e.fullUrl),
      ];
      expect(urls).toHaveLength(7);
      for (const url of urls)
        expect(url).toMatch(/^https:\/\/triage\.clinic\.example\/base\/fhir\//);
    } finally {
      await t.close();
    }
  });
});
