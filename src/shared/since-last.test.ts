import { describe, expect, it } from 'vitest';
import type { PatientAssessment } from './api/patients.ts';
import {
  formatBmiChange,
  formatScoreChange,
  latestBefore,
  noChange,
  sinceLast,
  type SinceLastCurrent,
} from './since-last.ts';

function earlier(fields: Partial<PatientAssessment> = {}): PatientAssessment {
  return {
    id: 'a-1',
    code: 'ASS-MHX3K2QZ-7F2A',
    createdAt: '2026-10-01T08:00:00.000Z',
    totalScore: 9.5,
    bmi: 29.4,
    signedOff: true,
    reviewLocked: false,
    ruleSetVersion: '2.0',
    results: [
      { condition: 'DM2', riskStatus: 'MAYBE', totalScore: 4.75 },
      { condition: 'HIV', riskStatus: 'FALSE', totalScore: 0.5 },
      { condition: 'Hypertension', riskStatus: 'DIAGNOSED', totalScore: 4.25 },
    ],
    ...fields,
  };
}

const now: SinceLastCurrent = {
  bmi: 30.64,
  results: [
    { condition: 'Hypertension', riskStatus: 'DIAGNOSED', totalScore: 4.25 },
    { condition: 'DM2', riskStatus: 'TRUE', totalScore: 6.25 },
    { condition: 'HIV', riskStatus: 'FALSE', totalScore: 0 },
    { condition: 'TB', riskStatus: 'FALSE', totalScore: 1 },
  ],
};

describe('sinceLast', () => {
  it('compares status and total score per condition, in the product order', () => {
    expect(sinceLast(now, earlier())).toEqual({
      previousId: 'a-1',
      previousCode: 'ASS-MHX3K2QZ-7F2A',
      previousDate: '2026-10-01T08:00:00.000Z',
      previousRuleSetVersion: '2.0',
      bmiThen: 29.4,
      bmiNow: 30.64,
      bmiChange: 1.2,
      conditions: [
        {
          condition: 'DM2',
          statusThen: 'MAYBE',
          statusNow: 'TRUE',
          scoreThen: 4.75,
          scoreNow: 6.25,
          scoreChange: 1.5,
        },
        {
          condition: 'HIV',
          statusThen: 'FALSE',
          statusNow: 'FALSE',
          scoreThen: 0.5,
          scoreNow: 0,
          scoreChange: -0.5,
        },
        // Only one side scored it: no change can be given.
        {
          condition: 'TB',
          statusThen: null,
          statusNow: 'FALSE',
          scoreThen: null,
          scoreNow: 1,
          scoreChange: null,
        },
        {
          condition: 'Hypertension',
          statusThen: 'DIAGNOSED',
          statusNow: 'DIAGNOSED',
          scoreThen: 4.25,
          scoreNow: 4.25,
          scoreChange: 0,
        },
      ],
    });
  });

  it('takes changes between the figures as shown, without float noise', () => {
    const previous = earlier({
      bmi: 29.44,
      results: [{ condition: 'DM2', riskStatus: 'TRUE', totalScore: 1.1 }],
    });
    const current: SinceLastCurrent = {
      // 29.46 reads 29.5 and 29.44 reads 29.4: the change reads as the figures do.
      bmi: 29.46,
      results: [{ condition: 'DM2', riskStatus: 'TRUE', totalScore: 1.2000000000000002 }],
    };
    const result = sinceLast(current, previous);
    expect(result.bmiChange).toBe(0.1);
    expect(result.conditions[0]?.scoreChange).toBe(0.1);

    const same = sinceLast(
      { bmi: 29.41, results: [{ condition: 'DM2', riskStatus: 'TRUE', totalScore: 1.10000001 }] },
      previous,
    );
    expect(Object.is(same.bmiChange, 0)).toBe(true);
    expect(Object.is(same.conditions[0]?.scoreChange, 0)).toBe(true);
  });

  it('gives no BMI change when either BMI is unknown (0)', () => {
    expect(sinceLast({ ...now, bmi: 0 }, earlier()).bmiChange).toBeNull();
    expect(sinceLast(now, earlier({ bmi: 0 })).bmiChange).toBeNull();
  });
});

describe('change texts', () => {
  it('sign scores to 4 decimals and BMI to 1, with a true minus sign', () => {
    expect(formatScoreChange(1.5)).toBe('+1.5000');
    expect(formatScoreChange(-0.75)).toBe('\u22120.7500');
    expect(formatScoreChange(0)).toBe(noChange);
    expect(formatBmiChange(1.2)).toBe('+1.2');
    expect(formatBmiChange(-0.3)).toBe('\u22120.3');
    expect(formatBmiChange(0)).toBe('no change');
  });
});

describe('latestBefore', () => {
  const first = earlier({ id: 'a-1', createdAt: '2026-09-01T08:00:00.000Z' });
  const second = earlier({ id: 'a-2', createdAt: '2026-10-01T08:00:00.000Z' });
  const third = earlier({ id: 'a-3', createdAt: '2026-11-01T08:00:00.000Z' });

  it('takes the latest of all for an assessment not saved yet', () => {
    expect(latestBefore([third, first, second], null)).toBe(third);
    expect(latestBefore([], null)).toBeNull();
  });

  it('takes the latest made before a saved assessment, never the assessment itself', () => {
    const current = { id: 'a-2', createdAt: second.createdAt };
    expect(latestBefore([third, second, first], current)).toBe(first);
    expect(latestBefore([third, second], current)).toBeNull();
  });
});
