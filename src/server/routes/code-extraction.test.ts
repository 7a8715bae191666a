import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { ExtractionResult } from '../../shared/api/code-extraction.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';

describe.each(testDatabases())('the code extraction API on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: { cookie: string };
  let doctor: { cookie: string };
  let notDiagnosed: Assessment;
  let deleted: Assessment;

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    nurse = await signedInAs(t, 'nurse');
    doctor = await signedInAs(t, 'doctor', 'doctor-extract', 'Dr Extract');
    const create = async (body: object) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/assessments',
          headers: { cookie: nurse.cookie },
          payload: body,
        })
      ).json<Assessment>();
    notDiagnosed = await create({
      management: { DM2: { diagnosed: false }, Hypertension: { diagnosed: true } },
      notes:
        'Known hypertension I10 on treatment. Glucose high, query E11.9; BP 120/80 on 2024-03-15.',
    });
    await create({ notes: 'No codes here: metformin 500 mg twice daily, phone 011-555-0123.' });
    await create({ notes: '' });
    deleted = await create({ notes: 'Asthma J45.909 noted.' });
    await t.app.inject({
      method: 'DELETE',
      url: `/api/assessments/${deleted.id}`,
      headers: { cookie: nurse.cookie, 'if-match': '"1"' },
    });
    await t.app.inject({
      method: 'PUT',
      url: `/api/assessments/${notDiagnosed.id}/review`,
      headers: { cookie: doctor.cookie },
      payload: {
        reviews: [
          {
            condition: 'TB',
            agreed: true,
            comments: 'Screen for TB, consider A15.0 if sputum positive.',
          },
        ],
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const extract = () =>
    t.app.inject({
      method: 'POST',
      url: '/api/code-extraction',
      headers: { cookie: doctor.cookie },
    });

  it('scans live notes and review comments, with counts, sources and the kinds searched', async () => {
    const response = await extract();
    expect(response.statusCode).toBe(200);
    const result = response.json<ExtractionResult>();
    expect(result.totals).toEqual({
      totalNotes: 3,
      notesWithCodes: 2,
      uniqueCodes: 3,
      totalMatches: 3,
    });
    expect(result.matches.map((m) => [m.code, m.type, m.source.kind])).toEqual([
      ['I10', 'ICD-10', 'assessment_note'],
      ['E11.9', 'ICD-10', 'assessment_note'],
      ['A15.0', 'ICD-10', 'doctor_comment'],
    ]);
    expect(result.matches[0]?.source).toMatchObject({
      assessmentId: notDiagnosed.id,
      assessmentCode: notDiagnosed.code,
    });
    expect(result.matches[2]?.source).toMatchObject({ condition: 'TB' });
    expect(result.countsByType['ICD-10']).toBe(3);
    expect(result.kindsSearched.map((k) => k.type)).toContain('SNOMED CT');
    // The deleted assessment's J45.909 is not scanned.
    expect(result.matches.some((m) => m.code.startsWith('J45'))).toBe(false);
  });

  it('lists a condition code in a note whose assessment says not diagnosed', async () => {
    const result = (await extract()).json<ExtractionResult>();
    expect(result.inconsistencies).toEqual([
      expect.objectContaining({
        assessmentId: notDiagnosed.id,
        condition: 'DM2',
        code: 'E11.9',
      }) as unknown,
    ]);
  });

  it('streams progress and then the result when asked for NDJSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/code-extraction',
      headers: { cookie: doctor.cookie, accept: 'application/x-ndjson' },
    });
    expect(response.headers['content-type']).toContain('application/x-ndjson');
    const lines = response.body
      .trim()
      .split('\n')
      .map(
        (line) => JSON.parse(line) as { type: string; total?: number; result?: ExtractionResult },
      );
    expect(lines.at(0)).toEqual({ type: 'progress', scanned: 3, total: 3 });
    expect(lines.at(-1)?.type).toBe('result');
    expect(lines.at(-1)?.result?.totals.totalMatches).toBe(3);
  });

  it('downloads a text report and a CSV of the matches', async () => {
    const report = await t.app.inject({
      method: 'GET',
      url: '/api/code-extraction/report.txt',
      headers: { cookie: doctor.cookie },
    });
    expect(report.statusCode).toBe(200);
    expect(report.headers['content-disposition']).toMatch(
      /attachment; filename="code-extraction-report-\d{4}-\d{2}-\d{2}\.txt"/,
    );
    expect(report.body).toContain('E11.9');
    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/code-extraction/matches.csv',
      headers: { cookie: doctor.cookie },
    });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')).toHaveLength(1 + 3 + 1);
  });

  it('audits each download as one export naming the file, with no note text', async () => {
    const trail = () =>
      t.database.db.selectFrom('audit_events').selectAll().orderBy('id').execute();
    for (const [url, file] of [
      ['/api/code-extraction/report.txt', 'code-extraction/report.txt'],
      ['/api/code-extraction/matches.csv', 'code-extraction/matches.csv'],
    ] as const) {
      const before = await trail();
      const response = await t.app.inject({
        method: 'GET',
        url,
        headers: { cookie: doctor.cookie },
      });
      expect(response.statusCode).toBe(200);
      const added = (await trail()).slice(before.length);
      expect(added).toEqual([
        expect.objectContaining({
          action: 'export',
          target_type: 'export',
          target_id: file,
          username: 'doctor-extract',
          outcome: 'success',
        }) as unknown,
      ]);
      const written = JSON.stringify(added);
      for (const fromNotes of ['E11.9', 'I10', 'A15.0', 'hypertension', notDiagnosed.id]) {
        expect(written).not.toContain(fromNotes);
      }
    }
  });

  it('is for doctors and admins only, and audited', async () => {
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/code-extraction',
          headers: { cookie: nurse.cookie },
        })
      ).statusCode,
    ).toBe(403);
    const before = await t.database.db
      .selectFrom('audit_events')
      .select('id')
      .where('action', '=', 'code_extraction')
      .execute();
    await extract();
    const after = await t.database.db
      .selectFrom('audit_events')
      .select('id')
      .where('action', '=', 'code_extraction')
      .execute();
    expect(after.length).toBe(before.length + 1);
  });
});
