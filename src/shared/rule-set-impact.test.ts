import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CONDITIONS, RISK_STATUSES, type RiskStatus } from '../engine/index.ts';
import {
  impactCsv,
  impactCsvFileName,
  impactCsvHeader,
  impactRequestSchema,
  impactResultSchema,
  type ConditionImpact,
  type ImpactResult,
} from './rule-set-impact.ts';

function statusCounts(cells: Partial<Record<RiskStatus, number>> = {}) {
  return Object.fromEntries(RISK_STATUSES.map((status) => [status, cells[status] ?? 0])) as Record<
    RiskStatus,
    number
  >;
}

const quietCondition: ConditionImpact = {
  changed: 0,
  matrix: Object.fromEntries(
    RISK_STATUSES.map((status) => [status, statusCounts()]),
  ) as ConditionImpact['matrix'],
  scoreChanged: 0,
  scoreChangeMean: null,
  agreement: {
    stored: { reviews: 0, agreed: 0, share: null, kappa: null, kappaReviews: 0 },
    new: { reviews: 0, agreed: 0, share: null, kappa: null, kappaReviews: 0 },
  },
};

const result: ImpactResult = {
  version: '2.0-dm2-bmi-0.25',
  title: 'Trial',
  from: '2026-01-01',
  to: null,
  assessments: 10,
  conditions: {
    ...(Object.fromEntries(
      CONDITIONS.map((c) => [c, quietCondition]),
    ) as ImpactResult['conditions']),
    DM2: {
      changed: 3,
      matrix: {
        ...quietCondition.matrix,
        FALSE: statusCounts({ FALSE: 4, MAYBE: 1 }),
        MAYBE: statusCounts({ MAYBE: 3, TRUE: 2 }),
      },
      scoreChanged: 6,
      scoreChangeMean: -0.49999999999999994,
      agreement: {
        stored: { reviews: 12, agreed: 9, share: 0.75, kappa: -0.123456, kappaReviews: 11 },
        new: { reviews: 11, agreed: 10, share: 10 / 11, kappa: null, kappaReviews: 9 },
      },
    },
  },
};

describe('impactCsv', () => {
  it('writes one row per condition and stored status: the counts per new status, the changed, the score changes and the agreement figures', () => {
    expect(impactResultSchema.parse(result)).toEqual(result);
    const csv = impactCsv(result);
    expect(csv.endsWith('\r\n')).toBe(true);
    const rows = parse<Record<string, string>>(csv, { columns: true });
    expect(Object.keys(rows[0] ?? {})).toEqual(impactCsvHeader);
    expect(rows).toHaveLength(CONDITIONS.length * RISK_STATUSES.length);
    expect(rows.map((row) => `${row.condition} ${row.stored_status}`).slice(0, 6)).toEqual([
      'DM2 FALSE',
      'DM2 MAYBE',
      'DM2 TRUE',
      'DM2 DIAGNOSED',
      'DM2 UNKNOWN',
      'HIV FALSE',
    ]);
    expect(rows[1]).toEqual({
      version: '2.0-dm2-bmi-0.25',
      from: '2026-01-01',
      to: '',
      condition: 'DM2',
      stored_status: 'MAYBE',
      new_FALSE: '0',
      new_MAYBE: '3',
      new_TRUE: '2',
      new_DIAGNOSED: '0',
      new_UNKNOWN: '0',
      changed: '2',
      score_changed: '6',
      score_change_mean: '-0.5',
      stored_reviews: '12',
      stored_agreed: '9',
      stored_share: '0.75',
      // A negative number, not text made inert with an apostrophe.
      stored_kappa: '-0.1235',
      stored_kappa_reviews: '11',
      new_reviews: '11',
      new_agreed: '10',
      new_share: '0.9091',
      new_kappa: '',
      new_kappa_reviews: '9',
    });
    // The rows' changed add up to the condition's.
    const dm2Changed = rows
      .filter((row) => row.condition === 'DM2')
      .reduce((sum, row) => sum + Number(row.changed), 0);
    expect(dm2Changed).toBe(result.conditions.DM2.changed);
    expect(rows.find((row) => row.condition === 'TB')).toMatchObject({
      score_changed: '0',
      score_change_mean: '',
      stored_share: '',
      stored_kappa: '',
    });
  });

  it('names the file by version and range', () => {
    expect(impactCsvFileName(result)).toBe('rule-set-impact-2.0-dm2-bmi-0.25-2026-01-01_end.csv');
    expect(impactCsvFileName({ version: 'a/b', from: null, to: '2026-02-01' })).toBe(
      'rule-set-impact-a_b-start_2026-02-01.csv',
    );
  });
});

describe('impactRequestSchema', () => {
  it('takes whole days, either left out, and refuses a start after the end on the end date', () => {
    expect(impactRequestSchema.parse({})).toEqual({});
    expect(impactRequestSchema.parse({ from: '2026-11-22', to: '2026-11-22' })).toEqual({
      from: '2026-11-22',
      to: '2026-11-22',
    });
    const reversed = impactRequestSchema.safeParse({ from: '2026-11-23', to: '2026-11-22' });
    expect(reversed.success).toBe(false);
    expect(reversed.error?.issues[0]?.path).toEqual(['to']);
    expect(impactRequestSchema.safeParse({ from: '2026-13-01' }).success).toBe(false);
    expect(impactRequestSchema.safeParse({ version: '2.0' }).success).toBe(false);
  });
});
