import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assessment } from '../../shared/api/assessments.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';

/**
 * 90 kg at 160 cm is a BMI of 35.15624999999999 in floating point; a mild rash (weight 0.55,
 * multiplier 1.5) adds 0.8250000000000001 to HIV's symptom score; TB diagnosed gives HIV a
 * comorbidity point; being female adds 0.5 to its risk factors.
 */
const awkwardFigures = {
  demographics: { age: 40, gender: 'Female', height: 160, weight: 90 },
  symptoms: { HIV: { rash: { present: true, severity: 'mild' } } },
  management: { TB: { diagnosed: true } },
};

describe.each(testDatabases())('the CSV export on $engine', (testDatabase) => {
  let t: TestApp;
  let saved: Assessment;
  let row: Record<string, string>;
  let line: string;

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    const nurse = await signedInAs(t, 'nurse');
    const doctor = await signedInAs(t, 'doctor');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/assessments',
      headers: { cookie: nurse.cookie },
      payload: awkwardFigures,
    });
    expect(response.statusCode, response.body).toBe(201);
    saved = response.json<Assessment>();
    const csv = await t.app.inject({
      method: 'GET',
      url: '/api/exports/assessments.csv',
      headers: { cookie: doctor.cookie },
    });
    expect(csv.statusCode, csv.body).toBe(200);
    const rows: string[][] = parse(csv.body);
    const [header = [], values = []] = rows;
    row = Object.fromEntries(header.map((name, index) => [name, values[index] ?? '']));
    line = csv.body.split('\r\n')[1] ?? '';
  });
  afterAll(async () => {
    await t.close();
  });

  it('stores the figures as computed (the API answers them unrounded)', () => {
    expect(saved.demographics.bmi).toBe(35.15624999999999);
    const hiv = saved.results.conditions.find((result) => result.condition === 'HIV');
    expect(hiv?.components.symptomScore).toBe(0.8250000000000001);
  });

  it('writes BMI to 1 decimal', () => {
    expect(row.bmi).toBe('35.2');
  });

  it('writes total and component scores to 4 decimals and comorbidity to 2, without trailing zeros', () => {
    expect(row.HIV_symptom_score).toBe('0.825');
    expect(row.HIV_comorbidity_score).toBe('1');
    expect(row.HIV_risk_factor_score).toBe('0.5');
    const hiv = saved.results.conditions.find((result) => result.condition === 'HIV');
    expect(row.HIV_total_score).toBe(String(Number(hiv?.totalScore.toFixed(4))));
    expect(row.total_score).toBe(String(Number(saved.totalScore.toFixed(4))));
    for (const [column, value] of Object.entries(row)) {
      if (/(^bmi|_score)$/.test(column) && value !== '') {
        expect(value, column).toMatch(column === 'bmi' ? /^\d+(\.\d)?$/ : /^\d+(\.\d{1,4})?$/);
      }
    }
  });

  it('leaves no raw floating point anywhere in the line', () => {
    expect(line).not.toMatch(/\d\.\d{5,}/);
  });
});
