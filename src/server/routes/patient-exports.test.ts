import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { score, type PatientData } from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { AssessmentReport } from '../../shared/api/exports.ts';
import type { Patient } from '../../shared/api/patients.ts';
import { orgUnitsRepository } from '../db/repositories/org-units.ts';
import { childRows, type PatientInput } from '../services/assessment-records.ts';
import { renderReportText } from '../services/reports.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { requestsAs, type Requests } from '../testing/requests.ts';
import { fhirValidator } from '../testing/fhir-schema.ts';
import { signedInAs } from '../testing/users.ts';

const patientIdSystem = 'https://clinic.example/fhir/patient-number';

/** A 62-year-old woman with a family history of diabetes, thirsty; her weight as given. */
const visit = (weight: number, extra: PatientData = {}): PatientData => ({
  demographics: { age: 62, gender: 'Female', height: 160, weight },
  riskFactors: { familyHistory: { DM2: true } },
  symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
  ...extra,
});

interface FhirResource {
  resourceType: string;
  id: string;
  subject?: { reference: string };
  [key: string]: unknown;
}
interface BundleJson {
  resourceType: 'Bundle';
  entry: Array<{ fullUrl: string; resource: FhirResource }>;
}

const validateFhir = fhirValidator([
  'Bundle',
  'Patient',
  'Observation',
  'Condition',
  'RiskAssessment',
  'OperationOutcome',
  'Organization',
]);

/** The managingOrganization of a patient record's Patient: the record's unit. */
async function managingOrganizationOf(t: TestApp, recordId: string) {
  const { org_unit_id } = await t.database.db
    .selectFrom('patient_records')
    .select('org_unit_id')
    .where('id', '=', recordId)
    .executeTakeFirstOrThrow();
  return { reference: `Organization/${org_unit_id}` };
}

/** Every `reference` value anywhere inside a resource. */
function referencesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(referencesIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === 'reference' && typeof v === 'string' ? [v] : referencesIn(v),
  );
}

describe.each(testDatabases())('patient records in reports and FHIR on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: { cookie: string };
  let doctor: { cookie: string };
  let amina: Patient;
  let first: Assessment;
  let second: Assessment;
  let anonymous: Assessment;

  let call: Requests;
  const ok = async (who: { cookie: string }, url: string) => {
    const response = await call(who, 'GET', url);
    expect(response.statusCode, response.body).toBe(200);
    return response;
  };
  const create = async (body: object) => {
    const response = await call(nurse, 'POST', '/api/assessments', body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Assessment>();
  };

  beforeAll(async () => {
    // 2026-11-22 09:00 UTC is 11:00 in Johannesburg.
    t = await openTestApp(testDatabase, {
      TRIAGE_TIME_ZONE: 'Africa/Johannesburg',
      TRIAGE_PATIENT_ID_SYSTEM: patientIdSystem,
    });
    call = requestsAs(t);
    nurse = await signedInAs(t, 'nurse');
    doctor = await signedInAs(t, 'doctor');
    const response = await call(nurse, 'POST', '/api/patients', {
      number: 'MRN-0001',
      name: 'Amina Okafor',
      birthDate: '1964-03-02',
      gender: 'Female',
    });
    expect(response.statusCode, response.body).toBe(201);
    amina = response.json<Patient>();
    first = await create({ ...visit(75), code: 'ASS-1-FRST', patientId: amina.id });
    t.advance(30 * 24 * 3_600_000);
    nurse = await signedInAs(t, 'nurse');
    doctor = await signedInAs(t, 'doctor');
    // A month later: heavier, and now on treatment for hypertension.
    second = await create({
      ...visit(80, { management: { Hypertension: { diagnosed: true } } }),
      code: 'ASS-2-SCND',
      patientId: amina.id,
    });
    t.advance(60_000);
    anonymous = await create(visit(80));
  });
  afterAll(async () => {
    await t.close();
  });

  describe('the single report', () => {
    it('names the patient and says what changed since the last assessment', async () => {
      const text = (await ok(nurse, `/api/assessments/${second.id}/report.txt`)).body;
      const report = (
        await ok(nurse, `/api/assessments/${second.id}/report`)
      ).json<AssessmentReport>();
      expect(renderReportText(report)).toBe(text);
      expect(report.sections.map((section) => section.heading)).toEqual([
        'Report',
        'Assessment',
        'Patient',
        'Patient Demographics',
        'Symptoms',
        'Risk Factors',
        'Management',
        'Results',
        'Since the last assessment',
        'Recommendations',
        'Clinical Notes',
        'Disclaimer',
      ]);
      const lines = (heading: string) =>
        report.sections.find((section) => section.heading === heading)?.lines;
      expect(lines('Patient')).toEqual(['Patient number: MRN-0001', 'Name: Amina Okafor']);
      expect(lines('Since the last assessment')).toEqual([
        'Previous assessment: 2026-11-22 11:00 (ASS-1-FRST)',
        'BMI: 29.3 then, 31.2 now (+1.9)',
        'Type 2 Diabetes: High Risk then and now; total score no change',
        'HIV: Low Risk then and now; total score no change',
        'TB: Low Risk then and now; total score no change',
        'Asthma: Low Risk then and now; total score no change',
        'Hypertension: Low Risk then, Diagnosed now; total score no change',
        // Diagnosed hypertension is a comorbidity of hyperlipidaemia.
        'Hyperlipidaemia: Moderate Risk then and now; total score +1.0000',
      ]);
      expect(text).toContain('\nSINCE THE LAST ASSESSMENT\n-------------------------\n');
      // The spec's lines stay as they were.
      for (const line of [
        `Assessment code: ASS-2-SCND`,
        'Age: 62 years',
        'BMI: 31.2',
        'Type 2 Diabetes: High Risk',
        'Hypertension: Diagnosed',
      ]) {
        expect(text.split('\n')).toContain(line);
      }
    });

    it('names the patient of a first assessment, with nothing to compare', async () => {
      const report = (
        await ok(nurse, `/api/assessments/${first.id}/report`)
      ).json<AssessmentReport>();
      const headings = report.sections.map((section) => section.heading);
      expect(headings).toContain('Patient');
      expect(headings).not.toContain('Since the last assessment');
    });

    it('has only the spec sections for an assessment that names no patient', async () => {
      const report = (
        await ok(nurse, `/api/assessments/${anonymous.id}/report`)
      ).json<AssessmentReport>();
      expect(report.sections.map((section) => section.heading)).toEqual([
        'Report',
        'Assessment',
        'Patient Demographics',
        'Symptoms',
        'Risk Factors',
        'Management',
        'Results',
        'Recommendations',
        'Clinical Notes',
        'Disclaimer',
      ]);
    });
  });

  describe('FHIR', () => {
    const patientId = () => amina.id;

    it("exports the patient record's Patient in the bundle, as every resource's subject", async () => {
      const bundle = (await ok(doctor, `/api/assessments/${second.id}/fhir`)).json<BundleJson>();
      expect(validateFhir(bundle)).toEqual([]);
      const resources = bundle.entry.map((entry) => entry.resource);
      const patients = resources.filter((r) => r.resourceType === 'Patient');
      expect(patients).toEqual([
        {
          resourceType: 'Patient',
          id: patientId(),
          meta: { versionId: String(amina.version), lastUpdated: amina.updatedAt },
          identifier: [{ system: patientIdSystem, value: 'MRN-0001' }],
          name: [{ text: 'Amina Okafor' }],
          gender: 'female',
          birthDate: '1964-03-02',
          managingOrganization: await managingOrganizationOf(t, patientId()),
        },
      ]);
      const subjects = resources.flatMap((r) => (r.subject ? [r.subject.reference] : []));
      // Every resource but the Patient and its unit's Organization (MAIN, at the top) has it.
      expect(resources.filter((r) => r.resourceType === 'Organization')).toHaveLength(1);
      expect(subjects).toHaveLength(resources.length - 2);
      expect(new Set(subjects)).toEqual(new Set([`Patient/${patientId()}`]));
      // Relative references resolve against the entries' base: the read API's URLs.
      const fullUrls = new Set(bundle.entry.map((entry) => entry.fullUrl));
      expect(bundle.entry[0]?.fullUrl).toBe(`http://localhost:80/fhir/Patient/${patientId()}`);
      for (const reference of referencesIn(resources)) {
        expect(fullUrls).toContain(`http://localhost:80/fhir/${reference}`);
      }
    });

    it('keeps the Patient of an assessment that names no patient as it was', async () => {
      const bundle = (await ok(doctor, `/api/assessments/${anonymous.id}/fhir`)).json<BundleJson>();
      expect(bundle.entry[0]?.resource).toEqual({
        resourceType: 'Patient',
        id: `${anonymous.id}.patient`,
        meta: { versionId: String(anonymous.version), lastUpdated: anonymous.updatedAt },
        gender: 'female',
      });
    });

    it('writes the Patient once in the bulk file, before the newest of its assessments', async () => {
      const ndjson = (await ok(doctor, '/api/exports/fhir.ndjson')).body;
      const resources = ndjson
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as FhirResource);
      for (const resource of resources) expect(validateFhir(resource)).toEqual([]);
      const patients = resources.filter((r) => r.resourceType === 'Patient');
      expect(patients.map((p) => p.id)).toEqual([`${anonymous.id}.patient`, patientId()]);
      const known = new Set(resources.map((r) => `${r.resourceType}/${r.id}`));
      for (const reference of referencesIn(resources)) expect(known).toContain(reference);
      const subjectOf = (assessmentId: string) =>
        resources.find((r) => r.resourceType === 'RiskAssessment' && r.id === `${assessmentId}.DM2`)
          ?.subject?.reference;
      expect(subjectOf(first.id)).toBe(`Patient/${patientId()}`);
      expect(subjectOf(second.id)).toBe(`Patient/${patientId()}`);
    });
  });
});

/** Inserts linked and unlinked assessments straight into the tables, 10 minutes apart, newest first. */
async function insertAssessments(
  t: TestApp,
  count: number,
  patientOf: (index: number) => string | null,
  newest: number,
): Promise<string[]> {
  const input: PatientInput = {
    demographics: { age: 50, gender: 'Male', height: 175, weight: 80 },
    riskFactors: {},
    symptoms: {},
    management: {},
  };
  const result = score(input);
  const ids: string[] = [];
  const main = await orgUnitsRepository.findMain(t.database.db);
  await t.database.db.transaction().execute(async (trx) => {
    for (let index = 0; index < count; index++) {
      const id = crypto.randomUUID();
      const patientId = crypto.randomUUID();
      const at = new Date(newest - index * 10 * 60_000).toISOString();
      ids.push(id);
      await trx
        .insertInto('patients')
        .values({
          id: patientId,
          age: 50,
          gender: 'Male',
          height: 175,
          weight: 80,
          bmi: result.patientBMI,
          updated_at: at,
        })
        .execute();
      await trx
        .insertInto('assessments')
        .values({
          id,
          patient_id: patientId,
          patient_record_id: patientOf(index),
          assessment_code: null,
          assessment_complete: result.assessmentComplete,
          total_score: result.totalScore,
          notes: null,
          created_at: at,
          updated_at: at,
          signed_off: false,
          version: 1,
          search_text: id,
          org_unit_id: main?.id,
        })
        .execute();
      const children = childRows(id, input, result);
      await trx.insertInto('risk_factors').values(children.riskFactors).execute();
      await trx.insertInto('results').values(children.results).execute();
    }
  });
  return ids;
}

describe.each(testDatabases())('the bulk FHIR file over many pages on $engine', (testDatabase) => {
  // Pages of the export hold 250 assessments: 600 make three.
  const count = 600;
  let t: TestApp;
  let doctor: { cookie: string };
  const records: Record<'a' | 'b' | 'c', Patient> = {} as Record<'a' | 'b' | 'c', Patient>;
  let ids: string[] = [];
  const newest = Date.parse('2026-11-20T12:00:00.000Z');
  /** Where each patient's assessments lie, by index (0 the newest): across pages 1 to 3. */
  const indexesOf = { a: [0, 300, 599], b: [100, 260], c: [550] } as const;

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    const nurse = await signedInAs(t, 'nurse');
    doctor = await signedInAs(t, 'doctor');
    for (const [key, body] of [
      ['a', { number: 'MRN-A', name: 'Alice Adebayo', birthDate: '1980-01-31', gender: 'Female' }],
      ['b', { number: 'MRN-B' }],
      ['c', { number: 'MRN-C', name: 'Chidi Okoro', gender: 'Male' }],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/patients',
        headers: { cookie: nurse.cookie },
        payload: body,
      });
      expect(response.statusCode, response.body).toBe(201);
      records[key] = response.json<Patient>();
    }
    const byIndex = new Map<number, string>();
    for (const key of ['a', 'b', 'c'] as const) {
      for (const index of indexesOf[key]) byIndex.set(index, records[key].id);
    }
    ids = await insertAssessments(t, count, (index) => byIndex.get(index) ?? null, newest);
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  const resourcesOf = async (query = '') => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/exports/fhir.ndjson${query}`,
      headers: { cookie: doctor.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as FhirResource);
  };
  const recordPatientId = (key: 'a' | 'b' | 'c') => records[key].id;

  /** Each record's Patient written once, before any line that refers to it; no dangling reference. */
  const expectEachPatientOnceBeforeUse = (
    resources: FhirResource[],
    keys: Array<'a' | 'b' | 'c'>,
  ) => {
    const references = resources.map(referencesIn);
    for (const key of keys) {
      const written = resources.flatMap((r, line) =>
        r.resourceType === 'Patient' && r.id === recordPatientId(key) ? [line] : [],
      );
      expect(written, key).toHaveLength(1);
      const reference = `Patient/${recordPatientId(key)}`;
      const firstUse = references.findIndex((lineReferences) => lineReferences.includes(reference));
      expect(firstUse).toBeGreaterThan(written[0] ?? Infinity);
    }
    const known = new Set(resources.map((r) => `${r.resourceType}/${r.id}`));
    for (const reference of new Set(references.flat())) expect(known).toContain(reference);
  };

  it('writes each patient record once in the whole file, however many pages its assessments span', async () => {
    const resources = await resourcesOf();
    const patients = resources.filter((r) => r.resourceType === 'Patient');
    // One anonymous Patient per assessment that names no record, one per record.
    expect(patients).toHaveLength(count - 6 + 3);
    expectEachPatientOnceBeforeUse(resources, ['a', 'b', 'c']);
    for (const patient of patients) expect(validateFhir(patient)).toEqual([]);
    expect(patients.find((p) => p.id === recordPatientId('b'))).toEqual({
      resourceType: 'Patient',
      id: recordPatientId('b'),
      meta: { versionId: '1', lastUpdated: records.b.updatedAt },
      identifier: [{ system: 'urn:triage:patient-number', value: 'MRN-B' }],
      managingOrganization: await managingOrganizationOf(t, recordPatientId('b')),
    });
    // Each patient comes with its newest assessment.
    const patientLine = resources.findIndex((r) => r.id === recordPatientId('a'));
    expect(resources[patientLine + 1]).toMatchObject({
      resourceType: 'Observation',
      id: `${ids[indexesOf.a[0]] ?? ''}.age`,
    });
  });

  it('writes the Patient with the newest assessment the filter keeps', async () => {
    // The export's date range leaves out patient a's newest assessment (on 2026-11-20, with the
    // 72 after it) but not patient b's.
    const resources = await resourcesOf('?to=2026-11-19');
    expectEachPatientOnceBeforeUse(resources, ['a', 'b', 'c']);
    const patientLine = resources.findIndex((r) => r.id === recordPatientId('a'));
    expect(resources[patientLine + 1]).toMatchObject({
      id: `${ids[indexesOf.a[1]] ?? ''}.age`,
    });
    // Searched by the patient: their assessments alone, their Patient once.
    const searched = await resourcesOf('?q=adebayo');
    expect(searched.filter((r) => r.resourceType === 'Patient').map((r) => r.id)).toEqual([
      recordPatientId('a'),
    ]);
    expect(searched.filter((r) => r.resourceType === 'RiskAssessment')).toHaveLength(3 * 6);
    expectEachPatientOnceBeforeUse(searched, ['a']);
  });

  it('still writes the Patient when the assessment that was to bring it cannot be exported', async () => {
    // A result naming a rule set the server does not know makes recomputing it fail.
    const corrupt = (version: string) =>
      t.database.db
        .updateTable('results')
        .set({ rule_set_version: version })
        .where('assessment_id', '=', ids[indexesOf.a[0]] ?? '')
        .execute();
    await corrupt('9.9');
    try {
      const resources = await resourcesOf();
      const patientLine = resources.findIndex((r) => r.id === recordPatientId('a'));
      expect(resources[patientLine + 1]).toMatchObject({ resourceType: 'OperationOutcome' });
      expectEachPatientOnceBeforeUse(resources, ['a', 'b', 'c']);
    } finally {
      await corrupt('2.0');
    }
  });
});
