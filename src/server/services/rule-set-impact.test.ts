import fc from 'fast-check';
import { everythingScope } from '../auth/scope.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_RULE_SET,
  RISK_STATUSES,
  RULE_SETS,
  score,
  type PatientData,
  type RiskStatus,
  type RuleSet,
} from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { AgreementSummary, DoctorStatus } from '../../shared/api/reviews.ts';
import { patientArbitrary } from '../../engine/testing/arbitraries.ts';
import { cohensKappa } from '../../shared/kappa.ts';
import { impactResultSchema, type ImpactResult } from '../../shared/rule-set-impact.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';
import { analyseRuleSetImpact, type ImpactProgress } from './rule-set-impact.ts';

const day = 24 * 3_600_000;

/** The default rules with DM2's threshold moved: each patient below moves one status. */
function withDm2Threshold(threshold: number): RuleSet {
  return {
    ...DEFAULT_RULE_SET,
    version: `test-dm2-threshold-${threshold}`,
    name: `Test: DM2 threshold ${threshold}`,
    conditions: {
      ...DEFAULT_RULE_SET.conditions,
      DM2: { ...DEFAULT_RULE_SET.conditions.DM2, threshold },
    },
  };
}

/** A 30-year-old man of normal weight with `n` of DM2's symptoms: n factors (threshold 2). */
function withDm2Symptoms(n: number, demographics: object = { height: 180, weight: 70 }) {
  const keys = ['fatigue', 'thirst', 'frequentUrination', 'hunger'].slice(0, n);
  return {
    demographics: { age: 30, gender: 'Male', ...demographics },
    riskFactors: { smoking: false, familyHistory: {}, householdTBExposure: false },
    symptoms: { DM2: Object.fromEntries(keys.map((key) => [key, { present: true }])) },
  };
}

const diagnosedDm2 = {
  ...withDm2Symptoms(1),
  management: { DM2: { diagnosed: true, lastDoctorVisit: 'never' } },
};

function dm2Status(patient: object, ruleSet: RuleSet = DEFAULT_RULE_SET): RiskStatus {
  const result = score(patient as PatientData, ruleSet).conditions.find(
    (c) => c.condition === 'DM2',
  );
  if (result === undefined) throw new Error('No DM2 result');
  return result.riskStatus;
}

/** The cells of a matrix that are not zero, as 'STORED->NEW': n. */
function nonZeroCells(matrix: ImpactResult['conditions']['DM2']['matrix']) {
  return Object.fromEntries(
    RISK_STATUSES.flatMap((stored) =>
      RISK_STATUSES.flatMap((next) =>
        matrix[stored][next] === 0 ? [] : [[`${stored}->${next}`, matrix[stored][next]]],
      ),
    ),
  );
}

/** The answers the analysis reads (rule-set-impact repository): present symptoms, diagnoses. */
function scoringAnswersOnly(patient: PatientData): PatientData {
  return {
    ...patient,
    symptoms: Object.fromEntries(
      Object.entries(patient.symptoms ?? {}).map(([condition, answers]) => [
        condition,
        Object.fromEntries(
          Object.entries(answers as Record<string, { present: boolean }>).filter(
            ([, answer]) => answer.present,
          ),
        ),
      ]),
    ),
    management: Object.fromEntries(
      Object.entries(patient.management ?? {}).filter(([, answer]) => answer.diagnosed),
    ),
  };
}

describe('the answers an impact analysis reads', () => {
  it('score as the whole record does under every rule set: absent symptoms and undiagnosed conditions move no score', () => {
    fc.assert(
      fc.property(patientArbitrary, (patient) => {
        for (const ruleSet of RULE_SETS) {
          expect(score(scoringAnswersOnly(patient), ruleSet)).toEqual(score(patient, ruleSet));
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe.each(testDatabases())('Rule set impact analysis on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: { cookie: string };
  let doctor: { cookie: string };

  beforeEach(async () => {
    // 2026-11-22 11:00 in Johannesburg when the clock starts.
    t = await openTestApp(testDatabase, { TRIAGE_TIME_ZONE: 'Africa/Johannesburg' });
    nurse = await signedInAs(t, 'nurse');
    doctor = await signedInAs(t, 'doctor');
  });
  afterEach(async () => {
    await t.close();
  });

  const call = async (who: { cookie: string }, method: string, url: string, payload?: object) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { cookie: who.cookie },
      ...(payload === undefined ? {} : { payload }),
    });
  const save = async (patient: object): Promise<Assessment> => {
    const created = await call(nurse, 'POST', '/api/assessments', patient);
    expect(created.statusCode, created.body).toBe(201);
    t.advance(60_000);
    return created.json<Assessment>();
  };
  const lockDm2 = async (
    assessment: Assessment,
    verdict: { agreed: boolean; doctorStatus?: DoctorStatus } | 'undecided',
  ) => {
    // An undecided DM2: the doctor chose for TB alone.
    const reviews =
      verdict === 'undecided'
        ? [{ condition: 'TB', agreed: true, comments: '' }]
        : [{ condition: 'DM2', comments: '', ...verdict }];
    const locked = await call(doctor, 'POST', `/api/assessments/${assessment.id}/review/lock`, {
      reviews,
    });
    expect(locked.statusCode, locked.body).toBe(200);
  };
  const analyse = async (ruleSet: RuleSet, range = {}) => {
    const progress: ImpactProgress[] = [];
    const result = await analyseRuleSetImpact(t.context, everythingScope, ruleSet, range, {
      onProgress: (p) => progress.push(p),
    });
    expect(impactResultSchema.parse(result)).toEqual(result);
    return { result, progress };
  };

  it('of the default rules against themselves is the identity: nothing changes, the diagonal is the stored distribution, and both agreements are the same', async () => {
    for (const n of [0, 1, 2, 3]) await save(withDm2Symptoms(n));
    await save(withDm2Symptoms(1, { height: 180 }));
    const diagnosed = await save(diagnosedDm2);
    await lockDm2(diagnosed, { agreed: true });
    // Ids that do not carry their assessments' creation times, as ids made before version 7
    // UUIDs: the page's rows are then sought id by id rather than read as a range.
    await t.database.db
      .updateTable('assessments')
      .set({ created_at: '2026-11-24T09:00:00.000Z' })
      .execute();
    // Answers that move no score, which the analysis does not read.
    await save({
      ...withDm2Symptoms(2),
      symptoms: {
        DM2: { fatigue: { present: true }, thirst: { present: false } },
        TB: { coughOver14Days: { present: false } },
      },
      management: { HIV: { diagnosed: false }, Hypertension: { diagnosed: true } },
    });

    const { result, progress } = await analyse(DEFAULT_RULE_SET);
    expect(result).toMatchObject({
      version: DEFAULT_RULE_SET.version,
      title: DEFAULT_RULE_SET.name,
      from: null,
      to: null,
      assessments: 7,
    });
    expect(progress.at(-1)).toEqual({ done: 7, total: 7 });

    const population = await call(doctor, 'GET', '/api/assessments/population');
    const stored = population.json<{
      conditions: { condition: string; counts: Record<RiskStatus, number> }[];
    }>();
    for (const { condition, counts } of stored.conditions) {
      const impact = result.conditions[condition as keyof ImpactResult['conditions']];
      expect(impact.changed).toBe(0);
      expect(impact).toMatchObject({ scoreChanged: 0, scoreChangeMean: null });
      for (const status of RISK_STATUSES) {
        expect(impact.matrix[status][status], `${condition} ${status}`).toBe(counts[status]);
      }
      expect(impact.agreement.new).toEqual(impact.agreement.stored);
    }
    expect(result.conditions.DM2.matrix.DIAGNOSED.DIAGNOSED).toBe(1);
    expect(result.conditions.DM2.agreement.stored).toMatchObject({ reviews: 1, agreed: 1 });
  });

  it('counts each kind of status change under a lower and a higher threshold; a diagnosis stays DIAGNOSED', async () => {
    expect(
      [0, 1, 2, 3].map((n) => dm2Status(withDm2Symptoms(n))).concat(dm2Status(diagnosedDm2)),
    ).toEqual(['FALSE', 'FALSE', 'MAYBE', 'TRUE', 'DIAGNOSED']);
    // Without a weight the missing answer could add a factor: UNKNOWN.
    const noWeight = withDm2Symptoms(1, { height: 180 });
    expect(dm2Status(noWeight)).toBe('UNKNOWN');
    for (const n of [0, 1, 2, 3]) await save(withDm2Symptoms(n));
    await save(noWeight);
    await save(diagnosedDm2);

    const lower = (await analyse(withDm2Threshold(1))).result.conditions.DM2;
    expect(nonZeroCells(lower.matrix)).toEqual({
      'FALSE->FALSE': 1,
      'FALSE->MAYBE': 1,
      'MAYBE->TRUE': 1,
      'TRUE->TRUE': 1,
      'UNKNOWN->UNKNOWN': 1,
      'DIAGNOSED->DIAGNOSED': 1,
    });
    expect(lower.changed).toBe(2);

    const higher = (await analyse(withDm2Threshold(3))).result.conditions.DM2;
    expect(nonZeroCells(higher.matrix)).toEqual({
      'FALSE->FALSE': 2,
      'MAYBE->FALSE': 1,
      'TRUE->MAYBE': 1,
      'UNKNOWN->UNKNOWN': 1,
      'DIAGNOSED->DIAGNOSED': 1,
    });
    expect(higher.changed).toBe(2);

    const none = (await analyse(withDm2Threshold(0))).result.conditions.DM2;
    expect(nonZeroCells(none.matrix)).toMatchObject({ 'UNKNOWN->TRUE': 1 });

    // A weight moves scores, not statuses (they follow the factor count): nothing changes.
    const dm2 = DEFAULT_RULE_SET.conditions.DM2;
    const reweighted: RuleSet = {
      ...DEFAULT_RULE_SET,
      version: 'test-dm2-bmi-weight-0.25',
      conditions: {
        ...DEFAULT_RULE_SET.conditions,
        DM2: {
          ...dm2,
          riskFactors: dm2.riskFactors.map((factor) =>
            factor.key === 'bmiOver25' ? { ...factor, weight: 0.25 } : factor,
          ),
        },
      },
    };
    await save(withDm2Symptoms(1, { height: 160, weight: 80 }));
    const heavier = (await analyse(reweighted)).result;
    expect(Object.values(heavier.conditions).map((c) => c.changed)).toEqual([0, 0, 0, 0, 0, 0]);
    // What it moves is the total score of the one assessment with a BMI over 25: 0.5 less.
    expect(heavier.conditions.DM2).toMatchObject({ scoreChanged: 1 });
    expect(heavier.conditions.DM2.scoreChangeMean).toBeCloseTo(-0.5, 10);
    expect(Object.values(heavier.conditions).map((c) => c.scoreChanged)).toEqual([
      1, 0, 0, 0, 0, 0,
    ]);
    // Only DM2's threshold moved: the other conditions stay as stored.
    const other = (await analyse(withDm2Threshold(1))).result.conditions;
    expect([other.HIV, other.TB, other.Asthma].map((c) => c.changed)).toEqual([0, 0, 0]);
  });

  it('re-scores the live assessments of the date range only (local creation dates, inclusive) and leaves deleted ones out', async () => {
    await save(withDm2Symptoms(1)); // 2026-11-22
    t.advance(2 * day);
    nurse = await signedInAs(t, 'nurse');
    await save(withDm2Symptoms(2)); // 2026-11-24
    const deleted = await save(withDm2Symptoms(3));
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/assessments/${deleted.id}`,
      headers: { cookie: nurse.cookie, 'if-match': `"${deleted.version}"` },
    });
    expect(gone.statusCode, gone.body).toBe(204);
    t.advance(2 * day);
    nurse = await signedInAs(t, 'nurse');
    await save(withDm2Symptoms(0)); // 2026-11-26

    const lower = withDm2Threshold(1);
    const all = (await analyse(lower)).result;
    expect(all.assessments).toBe(3);
    expect(nonZeroCells(all.conditions.DM2.matrix)).toEqual({
      'FALSE->FALSE': 1,
      'FALSE->MAYBE': 1,
      'MAYBE->TRUE': 1,
    });

    const middle = await analyse(lower, { from: '2026-11-23', to: '2026-11-24' });
    expect(middle.result).toMatchObject({ from: '2026-11-23', to: '2026-11-24', assessments: 1 });
    expect(nonZeroCells(middle.result.conditions.DM2.matrix)).toEqual({ 'MAYBE->TRUE': 1 });
    expect(middle.progress).toEqual([{ done: 1, total: 1 }]);

    const fromStart = await analyse(lower, { from: '2026-11-22', to: '2026-11-22' });
    expect(nonZeroCells(fromStart.result.conditions.DM2.matrix)).toEqual({ 'FALSE->MAYBE': 1 });
    const untilEnd = await analyse(lower, { from: '2026-11-26' });
    expect(nonZeroCells(untilEnd.result.conditions.DM2.matrix)).toEqual({ 'FALSE->FALSE': 1 });
    const empty = await analyse(lower, { to: '2026-11-21' });
    expect(empty.result.assessments).toBe(0);
    expect(empty.progress).toEqual([]);
  });

  it('measures agreement with the locked reviews under each: Agree, Disagree with and without a status; undecided and unlocked reviews left out', async () => {
    const higher = withDm2Threshold(3);
    expect(dm2Status(withDm2Symptoms(2), higher)).toBe('FALSE');
    expect(dm2Status(withDm2Symptoms(3), higher)).toBe('MAYBE');
    for (let round = 0; round < 4; round++) {
      // Stored MAYBE, new FALSE: the doctor endorsed MAYBE, so no longer agrees.
      await lockDm2(await save(withDm2Symptoms(2)), { agreed: true });
      // Stored FALSE, new FALSE: agrees under both.
      await lockDm2(await save(withDm2Symptoms(1)), { agreed: true });
      // Stored MAYBE, doctor says FALSE: the new rules agree.
      await lockDm2(await save(withDm2Symptoms(2)), { agreed: false, doctorStatus: 'FALSE' });
      // Stored TRUE, doctor disagrees without a status; new MAYBE: unknown, left out of new.
      await lockDm2(await save(withDm2Symptoms(3)), { agreed: false });
      // Stored FALSE, doctor disagrees without a status; new FALSE: still disagrees.
      await lockDm2(await save(withDm2Symptoms(1)), { agreed: false });
      await lockDm2(await save(withDm2Symptoms(1)), 'undecided');
      const unlocked = await save(withDm2Symptoms(2));
      const saved = await call(doctor, 'PUT', `/api/assessments/${unlocked.id}/review`, {
        reviews: [{ condition: 'DM2', agreed: true, comments: '' }],
      });
      expect(saved.statusCode, saved.body).toBe(200);
      doctor = await signedInAs(t, 'doctor');
      nurse = await signedInAs(t, 'nurse');
    }

    const { agreement } = (await analyse(higher)).result.conditions.DM2;
    // Rules' status (rows) against the doctor's (columns), FALSE, MAYBE, TRUE, DIAGNOSED.
    const storedPairs = [
      [4, 0, 0, 0],
      [4, 4, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ];
    const newPairs = [
      [8, 4, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ];
    expect(agreement.stored).toEqual({
      reviews: 20,
      agreed: 8,
      share: 0.4,
      kappa: cohensKappa(storedPairs),
      kappaReviews: 12,
    });
    expect(agreement.stored.kappa).toBeCloseTo(0.4, 10);
    expect(agreement.new).toEqual({
      reviews: 16,
      agreed: 8,
      share: 0.5,
      kappa: cohensKappa(newPairs),
      kappaReviews: 12,
    });
    expect(agreement.new.kappa).toBeCloseTo(0, 10);

    // The stored side is the Doctor Agreement's own figures.
    const summary = await call(doctor, 'GET', '/api/reviews/agreement');
    const dm2 = summary.json<AgreementSummary>().conditions.find((c) => c.condition === 'DM2');
    expect(dm2).toMatchObject({ reviewed: 20, agreed: 8, kappa: agreement.stored.kappa });
  });
});
