import crypto from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITIONS, score } from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { AssessmentReport } from '../../shared/api/exports.ts';
import { csvRow } from '../csv.ts';
import { renderReportText } from '../services/reports.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { fhirValidator } from '../testing/fhir-schema.ts';
import { man30, man45, partial, woman62 } from '../testing/export-samples.ts';
import { signedInAs } from '../testing/users.ts';

/** A figure at the decimals spec 9.1 shows it with (BMI 1, comorbidity 2, other scores 4). */
function shown(value: number | null, decimals: number): number | null {
  return value === null ? null : Number(value.toFixed(decimals));
}

/** decisions.md section 5, spelled out rather than derived, so that a wrong order fails. */
const expectedHeader = [
  'assessment_id',
  'assessment_code',
  'created_at',
  'updated_at',
  'age',
  'gender',
  'height_cm',
  'weight_kg',
  'bmi',
  'assessment_complete',
  'signed_off',
  'signed_off_at',
  'signed_off_by',
  'total_score',
  'notes',
  'review_locked',
  ...['DM2', 'HIV', 'TB', 'Asthma', 'Hypertension', 'Hyperlipidaemia'].flatMap((c) => [
    `${c}_risk_status`,
    `${c}_total_score`,
    `${c}_factor_count`,
    `${c}_symptom_score`,
    `${c}_risk_factor_score`,
    `${c}_comorbidity_score`,
    `${c}_management_score`,
  ]),
];

const formulaNotes = {
  woman62: '=HYPERLINK("http://evil.example","click")',
  man45: '-1+2',
  partial: '@SUM(A1)',
  man30: '+44 20 7946 0000',
};
const awkwardNote = 'Seen with "family", follow up\nSecond line, still notes';

const snomedAndIcd10 = {
  DM2: ['44054006', 'E11'],
  HIV: ['86406008', 'B20'],
  TB: ['56717001', 'A15'],
  Asthma: ['195967001', 'J45'],
  Hypertension: ['38341003', 'I10'],
  Hyperlipidaemia: ['55822004', 'E78.5'],
} as const;

interface FhirResource {
  resourceType: string;
  id: string;
  [key: string]: unknown;
}
interface Coding {
  system: string;
  code: string;
}
interface RiskAssessmentJson extends FhirResource {
  status: string;
  method: { text: string; coding: Coding[] };
  basis?: Array<{ reference: string }>;
  note?: Array<{ text: string; authorString: string }>;
  prediction: Array<{
    outcome: { coding: Coding[] };
    qualitativeRisk?: { coding: Coding[] };
    rationale: string;
  }>;
}
interface BundleJson {
  resourceType: 'Bundle';
  type: string;
  entry: Array<{ fullUrl: string; resource: FhirResource }>;
}

const validateFhir = fhirValidator([
  'Bundle',
  'Patient',
  'Observation',
  'Condition',
  'RiskAssessment',
  'OperationOutcome',
]);

/** Every `reference` value anywhere inside a resource. */
function referencesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(referencesIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === 'reference' && typeof v === 'string' ? [v] : referencesIn(v),
  );
}

function codesOf(concept: { coding: Coding[] } | undefined): string[] {
  return (concept?.coding ?? []).map((coding) => coding.code);
}

describe.each(testDatabases())('exports on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: { cookie: string };
  let doctor: { cookie: string };
  let admin: { cookie: string };
  const created = {} as Record<'woman62' | 'man45' | 'partial' | 'man30' | 'deleted', Assessment>;

  const signIn = async () => {
    nurse = await signedInAs(t, 'nurse');
    doctor = await signedInAs(t, 'doctor', undefined, 'Dee Doctor');
    admin = await signedInAs(t, 'admin');
  };
  const call = (
    who: { cookie: string },
    url: string,
    method: 'GET' | 'POST' = 'GET',
    headers: Record<string, string> = {},
  ) => t.app.inject({ method, url, headers: { cookie: who.cookie, ...headers } });
  const ok = async (who: { cookie: string }, url: string) => {
    const response = await call(who, url);
    expect(response.statusCode, response.body).toBe(200);
    return response;
  };
  const create = async (body: object) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/assessments',
      headers: { cookie: nurse.cookie },
      payload: body,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Assessment>();
  };
  const csv = async (query = '') => {
    const rows = parse((await ok(doctor, `/api/exports/assessments.csv${query}`)).body);
    const [header = [], ...body] = rows;
    return {
      header,
      rows: body.map((row) => Object.fromEntries(header.map((h, i) => [h, row[i]]))),
    };
  };
  const exportAuditRows = () =>
    t.database.db
      .selectFrom('audit_events')
      .select(['username', 'target_type', 'target_id'])
      .where('action', '=', 'export')
      .orderBy('id')
      .execute();

  beforeAll(async () => {
    // The clock starts at 2026-11-22 11:00 in Johannesburg; one assessment a day.
    t = await openTestApp(testDatabase, { TRIAGE_TIME_ZONE: 'Africa/Johannesburg' });
    const day = 24 * 3_600_000;
    await signIn();
    created.woman62 = await create({ ...woman62, notes: formulaNotes.woman62 });
    t.advance(day);
    await signIn();
    created.man45 = await create({ ...man45, notes: formulaNotes.man45 });
    t.advance(day);
    await signIn();
    created.partial = await create({ ...partial, notes: formulaNotes.partial });
    t.advance(day);
    await signIn();
    created.man30 = await create({ ...man30, notes: `${formulaNotes.man30}\n${awkwardNote}` });
    created.deleted = await create({ ...man30, notes: 'deleted' });
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/assessments/${created.deleted.id}`,
      headers: { cookie: nurse.cookie, 'if-match': '"1"' },
    });
    expect(removed.statusCode).toBe(204);
    const signed = await call(doctor, `/api/assessments/${created.woman62.id}/sign-off`, 'POST', {
      'if-match': `"${created.woman62.version}"`,
    });
    expect(signed.statusCode).toBe(200);
    created.woman62 = signed.json<Assessment>();
    // A finalized doctor review: one comment, one left empty.
    const review = (condition: string, comments: string) => ({
      id: crypto.randomUUID(),
      assessment_id: created.woman62.id,
      condition,
      agreed: true,
      comments,
      created_at: t.context.now().toISOString(),
      reviewed_by: 'Dee Doctor',
      locked: true,
    });
    await t.database.db
      .insertInto('doctor_reviews')
      .values([review('DM2', 'Agree: refer for HbA1c.'), review('HIV', '')])
      .execute();
  });
  afterAll(async () => {
    await t.close();
  });

  it("exports the 58 columns in order, one row per live assessment, with the stored values at the screens' precision", async () => {
    const response = await ok(doctor, '/api/exports/assessments.csv');
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="assessments-2026-11-25.csv"',
    );
    const { header, rows } = await csv();
    expect(header).toEqual(expectedHeader);
    expect(header).toHaveLength(58);
    expect(rows.map((row) => row.assessment_id)).toEqual(
      [created.man30, created.partial, created.man45, created.woman62].map((a) => a.id),
    );
    for (const row of rows) {
      const read = await ok(doctor, `/api/assessments/${row.assessment_id ?? ''}`);
      const a = read.json<Assessment>();
      const text = (value: string | number | boolean | null | undefined) =>
        value === null || value === undefined ? '' : String(value);
      expect(row).toMatchObject({
        assessment_code: a.code,
        created_at: a.createdAt,
        updated_at: a.updatedAt,
        age: text(a.demographics.age),
        gender: text(a.demographics.gender),
        height_cm: text(a.demographics.height),
        weight_kg: text(a.demographics.weight),
        bmi: text(shown(a.demographics.bmi, 1)),
        assessment_complete: text(a.assessmentComplete),
        signed_off: text(a.signedOff),
        signed_off_at: text(a.signedOffAt),
        signed_off_by: text(a.signedOffBy),
        total_score: text(shown(a.totalScore, 4)),
        review_locked: text(a.id === created.woman62.id),
      });
      for (const result of a.results.conditions) {
        const c = result.condition;
        expect(row[`${c}_risk_status`]).toBe(result.riskStatus);
        expect(row[`${c}_total_score`]).toBe(text(shown(result.totalScore, 4)));
        expect(row[`${c}_factor_count`]).toBe(text(result.factorCount));
        const components = result.components;
        expect(row[`${c}_symptom_score`]).toBe(text(shown(components.symptomScore, 4)));
        expect(row[`${c}_risk_factor_score`]).toBe(text(shown(components.riskFactorScore, 4)));
        expect(row[`${c}_comorbidity_score`]).toBe(text(shown(components.comorbidityScore, 2)));
        expect(row[`${c}_management_score`]).toBe(text(shown(components.managementScore, 4)));
      }
    }
    const woman = rows.find((row) => row.assessment_id === created.woman62.id);
    expect(woman).toMatchObject({
      signed_off: 'true',
      signed_off_by: 'Dee Doctor',
      DM2_risk_status: 'TRUE',
      Hypertension_risk_status: 'DIAGNOSED',
    });
  });

  it('makes formula-like cells inert and round-trips commas, quotes and newlines', async () => {
    const notes = new Map((await csv()).rows.map((row) => [row.assessment_id, row.notes]));
    expect(notes.get(created.woman62.id)).toBe(`'${formulaNotes.woman62}`);
    expect(notes.get(created.man45.id)).toBe(`'${formulaNotes.man45}`);
    expect(notes.get(created.partial.id)).toBe(`'${formulaNotes.partial}`);
    expect(notes.get(created.man30.id)).toBe(`'${formulaNotes.man30}\n${awkwardNote}`);
  });

  it('writes each CSV row byte for byte from the stored values that the single read shows, at its precision', async () => {
    const body = (await ok(doctor, '/api/exports/assessments.csv')).body;
    const rows = [];
    for (const { id } of [created.man30, created.partial, created.man45, created.woman62]) {
      const a = (await ok(doctor, `/api/assessments/${id}`)).json<Assessment>();
      const d = a.demographics;
      rows.push(
        csvRow([
          a.id,
          a.code,
          a.createdAt,
          a.updatedAt,
          d.age,
          d.gender,
          d.height,
          d.weight,
          shown(d.bmi, 1),
          a.assessmentComplete,
          a.signedOff,
          a.signedOffAt,
          a.signedOffBy,
          shown(a.totalScore, 4),
          a.notes,
          a.id === created.woman62.id,
          ...CONDITIONS.flatMap((condition) => {
            const r = a.results.conditions.find((result) => result.condition === condition);
            if (r === undefined) return Array<null>(7).fill(null);
            const c = r.components;
            return [
              r.riskStatus,
              shown(r.totalScore, 4),
              r.factorCount,
              shown(c.symptomScore, 4),
              shown(c.riskFactorScore, 4),
              shown(c.comorbidityScore, 2),
              shown(c.managementScore, 4),
            ];
          }),
        ]),
      );
    }
    expect(body).toBe(csvRow(expectedHeader) + rows.join(''));
  });

  it('makes each bulk report entry and FHIR line exactly as the single downloads do', async () => {
    const text = (await ok(doctor, '/api/exports/assessments.txt')).body;
    const ndjson = (await ok(doctor, '/api/exports/fhir.ndjson')).body;
    const resourceLines = [];
    for (const [index, a] of [
      created.man30,
      created.partial,
      created.man45,
      created.woman62,
    ].entries()) {
      const single = (await ok(doctor, `/api/assessments/${a.id}/report.txt`)).body;
      const sections = single.slice(single.indexOf('ASSESSMENT\n'), single.indexOf('DISCLAIMER\n'));
      const title = `Assessment ${index + 1}: ${a.code ?? a.id}`;
      expect(text).toContain(`\n${title}\n${'='.repeat(title.length)}\n\n${sections}`);

      // The same resources, with the same ids and references, in the bundle and the bulk file.
      const bundle = (await ok(doctor, `/api/assessments/${a.id}/fhir`)).json<BundleJson>();
      resourceLines.push(
        bundle.entry.map((entry) => `${JSON.stringify(entry.resource)}\n`).join(''),
      );
    }
    expect(ndjson).toBe(resourceLines.join(''));
  });

  it('leaves deleted assessments out of every bulk export', async () => {
    const { rows } = await csv();
    expect(rows.map((row) => row.assessment_id)).not.toContain(created.deleted.id);
    const text = (await ok(doctor, '/api/exports/assessments.txt')).body;
    expect(text).not.toContain(created.deleted.id);
    const ndjson = (await ok(doctor, '/api/exports/fhir.ndjson')).body;
    const patients = ndjson
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as FhirResource)
      .filter((resource) => resource.resourceType === 'Patient');
    expect(patients).toHaveLength(4);
  });

  it.each([
    ['?q=female', ['partial', 'woman62']],
    ['?q=signed%20off', ['woman62']],
    ['?from=2026-11-23&to=2026-11-24', ['partial', 'man45']],
    ['?from=2026-11-25', ['man30']],
    ['?to=2026-11-22', ['woman62']],
  ] as const)('narrows the CSV and the text report with %s', async (query, names) => {
    const ids = names.map((name) => created[name].id);
    expect((await csv(query)).rows.map((row) => row.assessment_id)).toEqual(ids);
    const text = (await ok(doctor, `/api/exports/assessments.txt${query}`)).body;
    expect(text).toContain(`Total assessments: ${ids.length}\n`);
    expect(text.match(/^Assessment ID: .*$/gm)).toEqual(ids.map((id) => `Assessment ID: ${id}`));
  });

  it('opens the text report with the summary statistics, then one entry each', async () => {
    const response = await ok(doctor, '/api/exports/assessments.txt');
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="assessment-reports-2026-11-25.txt"',
    );
    const average =
      [woman62, man45, partial, man30].reduce((sum, input) => sum + score(input).totalScore, 0) / 4;
    const text = response.body;
    expect(text).toContain(
      [
        'SUMMARY STATISTICS',
        '------------------',
        'Total assessments: 4',
        'Complete: 3 (75.0%)',
        'Signed off: 1 (25.0%)',
        `Average total score: ${average.toFixed(4)}`,
      ].join('\n'),
    );
    expect(text.indexOf('SUMMARY STATISTICS')).toBeLessThan(text.indexOf('Assessment 1:'));
    for (const [number, a] of [
      created.man30,
      created.partial,
      created.man45,
      created.woman62,
    ].entries()) {
      expect(text).toContain(`Assessment ${number + 1}: ${a.code ?? ''}\n`);
    }
    expect(text.match(/support and do not replace clinical judgement/g)).toHaveLength(1);
  });

  it('marks an entry whose details cannot be computed and carries on', async () => {
    // A result naming a rule set the server does not know makes recomputing it fail.
    const corrupt = (version: string) =>
      t.database.db
        .updateTable('results')
        .set({ rule_set_version: version })
        .where('assessment_id', '=', created.man45.id)
        .execute();
    await corrupt('9.9');
    try {
      const text = (await ok(doctor, '/api/exports/assessments.txt')).body;
      expect(text).toContain(
        `Assessment 3: ${created.man45.code ?? ''} - Basic Data Only - Detailed Load Failed\n`,
      );
      expect(text).toContain(`Assessment 4: ${created.woman62.code ?? ''}\n`);
      expect(text.match(/^Assessment ID: .*$/gm)).toHaveLength(4);
      expect(text).toContain('Total score: ');

      const lines = (await ok(doctor, '/api/exports/fhir.ndjson')).body.trimEnd().split('\n');
      const resources = lines.map((line) => JSON.parse(line) as FhirResource);
      const outcomes = resources.filter((r) => r.resourceType === 'OperationOutcome');
      expect(outcomes).toHaveLength(1);
      expect(JSON.stringify(outcomes[0])).toContain(created.man45.id);
      expect(validateFhir(outcomes[0])).toEqual([]);
      expect(resources.filter((r) => r.resourceType === 'Patient')).toHaveLength(3);
      expect((await csv()).rows).toHaveLength(4);
    } finally {
      await corrupt('2.0');
    }
  });

  it('downloads the single report as text, and the same report as JSON sections', async () => {
    const response = await ok(nurse, `/api/assessments/${created.woman62.id}/report.txt`);
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="comprehensive-assessment-${created.woman62.code ?? ''}-2026-11-25.txt"`,
    );
    const text = response.body;
    for (const line of [
      'PATIENT DEMOGRAPHICS',
      'Age: 62 years',
      'Gender: Female',
      'BMI: 31.2',
      'SYMPTOMS',
      '  Increased Thirst: Yes, moderate',
      '  Cough (on and off): No',
      'Hyperlipidaemia: asymptomatic condition, no symptoms assessed',
      'RISK FACTORS',
      'Family history of Type 2 Diabetes: Yes',
      'Smoking (current or within 5 years): No',
      'MANAGEMENT',
      'Hypertension: Diagnosed; last doctor visit: Never; current prescription: Less than 4 months',
      'RESULTS',
      'Type 2 Diabetes: High Risk',
      'Hypertension: Diagnosed',
      'RECOMMENDATIONS',
      'Type 2 Diabetes (High Risk): clinical evaluation and confirmatory testing recommended.',
      'CLINICAL NOTES',
      formulaNotes.woman62,
      'Sign-off: Signed off by Dee Doctor on 2026-11-25 11:00',
      'DISCLAIMER',
      'The scores in this report support and do not replace clinical judgement.',
    ]) {
      expect(text.split('\n')).toContain(line);
    }
    const json = await ok(nurse, `/api/assessments/${created.woman62.id}/report`);
    const report = json.json<AssessmentReport>();
    expect(report.fileName).toBe(
      `comprehensive-assessment-${created.woman62.code ?? ''}-2026-11-25.txt`,
    );
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
    expect(renderReportText(report)).toBe(text);
  });

  it('answers 404 for the report of a deleted assessment, except to an admin', async () => {
    for (const url of ['report.txt', 'report', 'fhir']) {
      expect((await call(doctor, `/api/assessments/${created.deleted.id}/${url}`)).statusCode).toBe(
        404,
      );
      expect((await call(admin, `/api/assessments/${created.deleted.id}/${url}`)).statusCode).toBe(
        200,
      );
    }
    expect((await call(doctor, '/api/assessments/no-such-id/report.txt')).statusCode).toBe(404);
  });

  it('lets a nurse download the single report but not the bulk or FHIR exports', async () => {
    const id = created.man45.id;
    for (const url of [`/api/assessments/${id}/report.txt`, `/api/assessments/${id}/report`]) {
      expect((await call(nurse, url)).statusCode).toBe(200);
    }
    for (const url of [
      '/api/exports/assessments.csv',
      '/api/exports/assessments.txt',
      '/api/exports/fhir.ndjson',
      `/api/assessments/${id}/fhir`,
    ]) {
      expect((await call(nurse, url)).statusCode).toBe(403);
      expect((await call(doctor, url)).statusCode).toBe(200);
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/exports/assessments.csv' });
    expect(anonymous.statusCode).toBe(401);
  });

  it("shows the doctor review in the reports of those who may read it: each choice, the doctor's status, the rest Not reviewed", async () => {
    const id = created.man45.id;
    const saved = await t.app.inject({
      method: 'PUT',
      url: `/api/assessments/${id}/review`,
      headers: { cookie: doctor.cookie },
      payload: {
        reviews: [
          { condition: 'DM2', agreed: true, comments: '' },
          { condition: 'TB', agreed: false, comments: 'Exposure is old.', doctorStatus: 'FALSE' },
        ],
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const reviewLines = [
      'DOCTOR REVIEW',
      'Type 2 Diabetes: Agree',
      'HIV: Not reviewed',
      'TB: Disagree; the doctor would give Low Risk',
      '  Comments: Exposure is old.',
      'Asthma: Not reviewed',
      'Hypertension: Not reviewed',
      'Hyperlipidaemia: Not reviewed',
    ];
    const single = (await ok(doctor, `/api/assessments/${id}/report.txt`)).body.split('\n');
    for (const line of reviewLines) expect(single).toContain(line);
    expect(single.filter((line) => line.startsWith('Doctor review: '))).toEqual([
      expect.stringMatching(/^Doctor review: Saved, not finalized by Dee Doctor on 2026-11-2\d /),
    ]);
    const printable = (await ok(doctor, `/api/assessments/${id}/report`)).json<AssessmentReport>();
    expect(printable.sections.map((section) => section.heading)).toContain('Doctor Review');
    const bulk = (await ok(admin, '/api/exports/assessments.txt')).body.split('\n');
    for (const line of reviewLines) expect(bulk).toContain(line);

    // A nurse may not read doctor reviews, so the nurse's report leaves the review out.
    const nurseReport = (await ok(nurse, `/api/assessments/${id}/report.txt`)).body;
    expect(nurseReport).not.toContain('DOCTOR REVIEW');
    expect(nurseReport).not.toContain('Exposure is old.');
  });

  it('writes one audit row per export, naming the assessment or the file', async () => {
    const id = created.man30.id;
    const cases = [
      [`/api/assessments/${id}/report.txt`, 'assessment', id],
      [`/api/assessments/${id}/report`, 'assessment', id],
      [`/api/assessments/${id}/fhir`, 'assessment', id],
      ['/api/exports/assessments.csv', 'export', 'assessments.csv'],
      ['/api/exports/assessments.txt', 'export', 'assessments.txt'],
      ['/api/exports/fhir.ndjson', 'export', 'fhir.ndjson'],
    ] as const;
    const doctorName = (
      await t.database.db
        .selectFrom('users')
        .select('username')
        .where('display_name', '=', 'Dee Doctor')
        .orderBy('created_at', 'desc')
        .executeTakeFirstOrThrow()
    ).username;
    for (const [url, targetType, targetId] of cases) {
      const before = await exportAuditRows();
      await ok(doctor, url);
      const after = await exportAuditRows();
      expect(after.slice(before.length)).toEqual([
        { username: doctorName, target_type: targetType, target_id: targetId },
      ]);
    }
    const before = await exportAuditRows();
    await call(nurse, '/api/exports/assessments.csv');
    expect(await exportAuditRows()).toHaveLength(before.length);
  });

  it('exports one assessment as a valid FHIR bundle with the right codes', async () => {
    const response = await ok(doctor, `/api/assessments/${created.woman62.id}/fhir`);
    expect(response.headers['content-type']).toBe('application/fhir+json; charset=utf-8');
    const bundle = response.json<BundleJson>();
    expect(validateFhir(bundle)).toEqual([]);
    expect(bundle.type).toBe('collection');
    const resources = bundle.entry.map((entry) => entry.resource);
    const base = 'http://localhost:80/fhir';
    for (const entry of bundle.entry) {
      expect(entry.fullUrl).toBe(`${base}/${entry.resource.resourceType}/${entry.resource.id}`);
      expect(validateFhir(entry.resource)).toEqual([]);
    }
    const fullUrls = new Set(bundle.entry.map((entry) => entry.fullUrl));
    for (const reference of referencesIn(resources)) {
      expect(fullUrls).toContain(`${base}/${reference}`);
    }

    const patient = resources.find((r) => r.resourceType === 'Patient');
    expect(patient).toEqual({
      resourceType: 'Patient',
      id: patient?.id,
      meta: { versionId: '2', lastUpdated: expect.any(String) as unknown },
      gender: 'female',
    });
    // Every resource of the assessment has the assessment's version (saved, then signed off; its
    // review rows here are written straight into the table, which no review write counts).
    for (const resource of resources) {
      expect(resource.meta).toEqual(patient?.meta);
    }

    const observations = resources.filter((r) => r.resourceType === 'Observation');
    expect(
      observations.map((o) => [
        codesOf(o.code as { coding: Coding[] }),
        (o.valueQuantity as { value: number; code: string; system: string }).value,
        (o.valueQuantity as { code: string }).code,
        (o.valueQuantity as { system: string }).system,
      ]),
    ).toEqual([
      [['30525-0'], 62, 'a', 'http://unitsofmeasure.org'],
      [['8302-2'], 160, 'cm', 'http://unitsofmeasure.org'],
      [['29463-7'], 80, 'kg', 'http://unitsofmeasure.org'],
      [['39156-5'], 31.2, 'kg/m2', 'http://unitsofmeasure.org'],
    ]);

    const conditions = resources.filter((r) => r.resourceType === 'Condition');
    expect(conditions.map((c) => codesOf(c.code as { coding: Coding[] }))).toEqual([
      ['38341003', 'I10'],
    ]);

    const risks = resources.filter(
      (r): r is RiskAssessmentJson => r.resourceType === 'RiskAssessment',
    );
    expect(risks.map((r) => codesOf(r.prediction[0]?.outcome))).toEqual(
      CONDITIONS.map((c) => [...snomedAndIcd10[c]]),
    );
    for (const risk of risks) {
      expect(risk.status).toBe('final');
      expect(risk.method.text).toBe('Clinical Guidelines Version 2.0');
      expect(risk.method.coding[0]).toMatchObject({ code: '2.0' });
      expect(risk.method.coding[0]?.system).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
      expect(risk.basis?.slice(0, 4).map((b) => b.reference)).toEqual(
        observations.map((o) => `Observation/${o.id}`),
      );
      expect(risk.prediction[0]).not.toHaveProperty('probabilityDecimal');
    }
    const byCondition = Object.fromEntries(CONDITIONS.map((c, i) => [c, risks[i]]));
    expect(byCondition.DM2?.prediction[0]?.qualitativeRisk?.coding).toEqual([
      {
        system: 'http://terminology.hl7.org/CodeSystem/risk-probability',
        code: 'high',
        display: 'High likelihood',
      },
    ]);
    expect(byCondition.DM2?.prediction[0]?.rationale).toContain(
      'Factor count 5 against a threshold of 2',
    );
    expect(byCondition.DM2?.note).toEqual([
      { text: 'Agree: refer for HbA1c.', authorString: 'Dee Doctor' },
    ]);
    expect(byCondition.HIV?.note).toBeUndefined();
    expect(byCondition.HIV?.prediction[0]?.qualitativeRisk?.coding[0]?.code).toBe('low');
    expect(byCondition.Hypertension?.prediction[0]?.qualitativeRisk).toBeUndefined();
    expect(byCondition.Hypertension?.prediction[0]?.rationale).toContain('already diagnosed');
    expect(byCondition.Hypertension?.condition).toEqual({
      reference: `Condition/${conditions[0]?.id ?? ''}`,
    });
  });

  it('leaves out the qualitative risk where the data are insufficient, and says why', async () => {
    const bundle = (
      await ok(doctor, `/api/assessments/${created.partial.id}/fhir`)
    ).json<BundleJson>();
    expect(validateFhir(bundle)).toEqual([]);
    const resources = bundle.entry.map((entry) => entry.resource);
    expect(resources.filter((r) => r.resourceType === 'Observation')).toEqual([]);
    const dm2 = resources.find(
      (r): r is RiskAssessmentJson =>
        r.resourceType === 'RiskAssessment' &&
        codesOf((r as RiskAssessmentJson).prediction[0]?.outcome).includes('44054006'),
    );
    expect(dm2?.prediction[0]?.qualitativeRisk).toBeUndefined();
    expect(dm2?.prediction[0]?.rationale).toMatch(/^Insufficient Data, so no risk is predicted/);
    expect(dm2?.status).toBe('preliminary');
  });

  it('marks the risk assessments final once the assessment is signed off', async () => {
    const statuses = async () =>
      (await ok(doctor, `/api/assessments/${created.man45.id}/fhir`))
        .json<BundleJson>()
        .entry.filter((entry) => entry.resource.resourceType === 'RiskAssessment')
        .map((entry) => (entry.resource as RiskAssessmentJson).status);
    expect(await statuses()).toEqual(Array(6).fill('preliminary'));
    const tb = (await ok(doctor, `/api/assessments/${created.man45.id}/fhir`))
      .json<BundleJson>()
      .entry.map((entry) => entry.resource)
      .find(
        (r) =>
          r.resourceType === 'RiskAssessment' &&
          codesOf((r as RiskAssessmentJson).prediction[0]?.outcome).includes('56717001'),
      ) as RiskAssessmentJson;
    expect(tb.prediction[0]?.qualitativeRisk?.coding[0]?.code).toBe('high');
    expect(
      (
        await call(doctor, `/api/assessments/${created.man45.id}/sign-off`, 'POST', {
          'if-match': `"${created.man45.version}"`,
        })
      ).statusCode,
    ).toBe(200);
    expect(await statuses()).toEqual(Array(6).fill('final'));
  });

  it('streams every live assessment as FHIR NDJSON, each line a valid resource', async () => {
    const response = await ok(doctor, '/api/exports/fhir.ndjson');
    expect(response.headers['content-type']).toBe('application/fhir+ndjson');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="assessments-fhir-2026-11-25.ndjson"',
    );
    const lines = response.body.split('\n');
    expect(lines.pop()).toBe('');
    const resources = lines.map((line) => JSON.parse(line) as FhirResource);
    for (const resource of resources) expect(validateFhir(resource)).toEqual([]);
    const count = (type: string) => resources.filter((r) => r.resourceType === type).length;
    expect([count('Patient'), count('RiskAssessment'), count('Condition')]).toEqual([4, 24, 1]);
    const known = new Set(resources.map((r) => `${r.resourceType}/${r.id}`));
    for (const reference of referencesIn(resources)) expect(known).toContain(reference);
    // The same assessment exported again keeps its resource ids.
    const bundle = (
      await ok(doctor, `/api/assessments/${created.woman62.id}/fhir`)
    ).json<BundleJson>();
    for (const entry of bundle.entry)
      expect(known).toContain(`${entry.resource.resourceType}/${entry.resource.id}`);
  });
});
