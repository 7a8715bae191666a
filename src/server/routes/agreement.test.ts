import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { score, type Condition, type RiskStatus } from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { AgreementSummary, DoctorStatus } from '../../shared/api/reviews.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';

const day = 24 * 3_600_000;

/** A 30-year-old man of normal weight with nothing to report: TB is FALSE. */
const healthyPatient = {
  demographics: { age: 30, gender: 'Male', height: 180, weight: 70 },
  riskFactors: { smoking: false, familyHistory: {}, householdTBExposure: false },
} as const;

/** The same man with a long cough, weight loss and night sweats: TB is TRUE. */
const coughingPatient = {
  ...healthyPatient,
  symptoms: {
    TB: {
      coughOver14Days: { present: true },
      weightLoss: { present: true, severity: 'loss' },
      nightSweats: { present: true, severity: 'moderate' },
    },
  },
} as const;

function statusOf(patient: Parameters<typeof score>[0], condition: Condition): RiskStatus {
  const result = score(patient).conditions.find((c) => c.condition === condition);
  if (result === undefined) throw new Error(`No result for ${condition}`);
  return result.riskStatus;
}

interface Verdict {
  agreed: boolean;
  comments?: string;
  doctorStatus?: DoctorStatus;
}

describe.each(testDatabases())('Doctor Agreement on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: { cookie: string };
  let doctor: { cookie: string; userId: string };

  beforeAll(async () => {
    // 2026-11-22 11:00 in Johannesburg when the clock starts.
    t = await openTestApp(testDatabase, { TRIAGE_TIME_ZONE: 'Africa/Johannesburg' });
    nurse = await signedInAs(t, 'nurse');
    doctor = await signedInAs(t, 'doctor');
  });
  afterAll(async () => {
    await t.close();
  });

  const inject = (who: { cookie: string }, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: who.cookie },
      ...(payload === undefined ? {} : { payload }),
    });
  /** A new assessment of the patient whose TB result the doctor finalizes with the verdict. */
  const reviewTb = async (patient: object, verdict: Verdict) => {
    const created = await inject(nurse, 'POST', '/api/assessments', patient);
    expect(created.statusCode, created.body).toBe(201);
    const assessment = created.json<Assessment>();
    const locked = await inject(doctor, 'POST', `/api/assessments/${assessment.id}/review/lock`, {
      reviews: [{ condition: 'TB', comments: '', ...verdict }],
    });
    expect(locked.statusCode, locked.body).toBe(200);
    t.advance(60_000);
    return assessment;
  };
  const summary = async (query = '') => {
    const response = await inject(doctor, 'GET', `/api/reviews/agreement${query}`);
    expect(response.statusCode, response.body).toBe(200);
    const found = response.json<AgreementSummary>().conditions.find((c) => c.condition === 'TB');
    if (found === undefined) throw new Error('No TB in the summary');
    return found;
  };

  it('measures the rules against the doctors: kappa from 10 reviews that give a doctor status, the matrix, the latest comments, by dates, and as CSV', async () => {
    expect(statusOf(coughingPatient, 'TB')).toBe('TRUE');
    expect(statusOf(healthyPatient, 'TB')).toBe('FALSE');

    // Day one, 2026-11-22: four agreements with TRUE, one doctor who would say MAYBE instead.
    for (let i = 0; i < 4; i++) await reviewTb(coughingPatient, { agreed: true });
    await reviewTb(coughingPatient, {
      agreed: false,
      doctorStatus: 'MAYBE',
      comments: 'Cough explained by a recent cold',
    });
    // Two days later: four agreements with FALSE, one doctor who would say TRUE, one who
    // disagrees without naming a status (reviewed, but not in kappa).
    t.advance(2 * day);
    nurse = await signedInAs(t, 'nurse');
    doctor = await signedInAs(t, 'doctor');
    for (let i = 0; i < 3; i++) await reviewTb(healthyPatient, { agreed: true });

    // Nine reviews give a doctor status: not enough for kappa yet.
    expect((await summary()).kappa).toBeNull();

    await reviewTb(healthyPatient, { agreed: true, comments: 'Agreed, an agreement comment' });
    await reviewTb(healthyPatient, {
      agreed: false,
      doctorStatus: 'TRUE',
      comments: 'Contact with a TB case',
    });
    await reviewTb(healthyPatient, { agreed: false, comments: 'Needs a sputum test' });

    const tb = await summary();
    expect(tb).toMatchObject({ reviewed: 11, agreed: 8 });
    // Rules (rows) against doctor (columns), FALSE, MAYBE, TRUE, DIAGNOSED.
    expect(tb.matrix).toEqual([
      [4, 0, 1, 0],
      [0, 0, 0, 0],
      [0, 1, 4, 0],
      [0, 0, 0, 0],
    ]);
    // po = 8 / 10; pe = (5·4 + 0·1 + 5·5 + 0·0) / 100 = 0.45; kappa = 0.35 / 0.55.
    expect(tb.kappa).toBeCloseTo(0.35 / 0.55, 10);
    // Disagreements only, newest first, with when they were finalized.
    expect(tb.latestComments.map((c) => [c.comments, c.ruleStatus, c.doctorStatus])).toEqual([
      ['Needs a sputum test', 'FALSE', null],
      ['Contact with a TB case', 'FALSE', 'TRUE'],
      ['Cough explained by a recent cold', 'TRUE', 'MAYBE'],
    ]);
    expect(tb.latestComments[2]?.reviewedAt.slice(0, 10)).toBe('2026-11-22');

    // Whole days in the clinic's zone, of the assessments' creation.
    const firstDay = await summary('?from=2026-11-22&to=2026-11-22');
    expect(firstDay).toMatchObject({ reviewed: 5, agreed: 4, kappa: null });
    expect(firstDay.matrix[2]).toEqual([0, 1, 4, 0]);
    expect(firstDay.latestComments.map((c) => c.comments)).toEqual([
      'Cough explained by a recent cold',
    ]);
    const later = await summary('?from=2026-11-23');
    expect(later).toMatchObject({ reviewed: 6, agreed: 4 });
    expect(later.latestComments).toHaveLength(2);
    expect(await summary('?to=2026-11-21')).toMatchObject({
      reviewed: 0,
      share: null,
      kappa: null,
      latestComments: [],
    });

    // Only the five latest comments.
    for (let i = 1; i <= 4; i++) {
      await reviewTb(healthyPatient, { agreed: false, comments: `Later comment ${i}` });
    }
    expect((await summary()).latestComments.map((c) => c.comments)).toEqual([
      'Later comment 4',
      'Later comment 3',
      'Later comment 2',
      'Later comment 1',
      'Needs a sputum test',
    ]);

    // The CSV: one row per condition with the figures and the matrix; audited as an export.
    const csv = await inject(
      doctor,
      'GET',
      '/api/reviews/agreement.csv?from=2026-11-22&to=2026-11-22',
    );
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="doctor-agreement-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe(
      'condition,reviewed,agreed,agreed_share,kappa,kappa_reviews,' +
        'rules_FALSE_doctor_FALSE,rules_FALSE_doctor_MAYBE,rules_FALSE_doctor_TRUE,rules_FALSE_doctor_DIAGNOSED,' +
        'rules_MAYBE_doctor_FALSE,rules_MAYBE_doctor_MAYBE,rules_MAYBE_doctor_TRUE,rules_MAYBE_doctor_DIAGNOSED,' +
        'rules_TRUE_doctor_FALSE,rules_TRUE_doctor_MAYBE,rules_TRUE_doctor_TRUE,rules_TRUE_doctor_DIAGNOSED,' +
        'rules_DIAGNOSED_doctor_FALSE,rules_DIAGNOSED_doctor_MAYBE,rules_DIAGNOSED_doctor_TRUE,rules_DIAGNOSED_doctor_DIAGNOSED',
    );
    expect(lines.slice(1, 7).map((line) => line.split(',')[0])).toEqual([
      'DM2',
      'HIV',
      'TB',
      'Asthma',
      'Hypertension',
      'Hyperlipidaemia',
    ]);
    expect(lines[3]).toBe('TB,5,4,0.8,,5,0,0,0,0,0,0,0,0,0,1,4,0,0,0,0,0');
    expect(lines[1]).toBe('DM2,0,0,,,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0');
    expect(lines[7]).toBe('');
    const fullCsv = await inject(doctor, 'GET', '/api/reviews/agreement.csv');
    expect(fullCsv.body.split('\r\n')[3]).toBe(
      `TB,15,8,${Number((8 / 15).toFixed(4))},${Number((0.35 / 0.55).toFixed(4))},10,4,0,1,0,0,0,0,0,0,1,4,0,0,0,0,0`,
    );
    const audited = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'target_type', 'target_id', 'user_id'])
      .where('action', '=', 'export')
      .execute();
    expect(audited).toEqual([
      {
        action: 'export',
        target_type: 'export',
        target_id: 'agreement.csv',
        user_id: doctor.userId,
      },
      {
        action: 'export',
        target_type: 'export',
        target_id: 'agreement.csv',
        user_id: doctor.userId,
      },
    ]);
  });

  it('refuses the CSV to nurses, and dates that are not calendar dates', async () => {
    expect((await inject(nurse, 'GET', '/api/reviews/agreement.csv')).statusCode).toBe(403);
    const bad = await inject(doctor, 'GET', '/api/reviews/agreement?from=2026-02-30');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ error: { field?: string } }>().error.field).toBe('from');
  });
});
