import { describe, expect, it } from 'vitest';
import { CONDITIONS, type RiskStatus } from '../../../engine/index.ts';
import type { PatientAssessment } from '../../../shared/api/patients.ts';
import {
  ageText,
  axisLabels,
  bmiAxis,
  bmiPoints,
  bmiShortSummary,
  bmiSummary,
  chronological,
  formatBirthDate,
  statusAxisLabel,
  statusAxisTicks,
  statusChartCaption,
  statusShortSummary,
  statusPoints,
  statusSummary,
} from './patientTimeline.ts';

function assessment(
  id: string,
  createdAt: string,
  dm2: RiskStatus | undefined,
  bmi = 24,
): PatientAssessment {
  return {
    id,
    code: `ASS-${id}`,
    createdAt,
    totalScore: 1.5,
    bmi,
    signedOff: false,
    reviewLocked: false,
    ruleSetVersion: '2.0',
    results: CONDITIONS.filter((condition) => condition !== 'DM2' || dm2 !== undefined).map(
      (condition) => ({
        condition,
        riskStatus: condition === 'DM2' && dm2 !== undefined ? dm2 : 'FALSE',
        totalScore: 0,
      }),
    ),
  };
}

// The server answers newest first.
const newestFirst = [
  assessment('c', '2026-03-02T09:00:00.000Z', 'DIAGNOSED', 27.04),
  assessment('b', '2026-02-01T09:00:00.000Z', 'UNKNOWN', 29.4),
  assessment('a', '2026-01-05T09:00:00.000Z', 'MAYBE', 22.13),
];

describe('the status scale', () => {
  it('orders Low < Moderate < High < Diagnosed, with Insufficient Data on a row below', () => {
    expect(statusAxisTicks.map(statusAxisLabel)).toEqual([
      'Insufficient Data',
      'Low Risk',
      'Moderate Risk',
      'High Risk',
      'Diagnosed',
    ]);
    expect(statusAxisLabel(0.5)).toBe('');
  });
});

describe('a condition over time', () => {
  it('reads oldest first, whatever order the assessments came in', () => {
    expect(chronological(newestFirst).map((item) => item.id)).toEqual(['a', 'b', 'c']);
    const sameInstant = [
      assessment('y', '2026-01-05T09:00:00.000Z', 'FALSE'),
      assessment('x', '2026-01-05T09:00:00.000Z', 'FALSE'),
    ];
    expect(chronological(sameInstant).map((item) => item.id)).toEqual(['x', 'y']);
  });

  it('puts each status at its height, and Insufficient Data on its own row off the line', () => {
    expect(statusPoints(newestFirst, 'DM2')).toEqual([
      { key: 'a', level: 2, unknown: null, status: 'MAYBE' },
      { key: 'b', level: null, unknown: 0, status: 'UNKNOWN' },
      { key: 'c', level: 4, unknown: null, status: 'DIAGNOSED' },
    ]);
    expect(statusPoints(newestFirst, 'HIV').map((point) => point.level)).toEqual([1, 1, 1]);
  });

  it('leaves a gap where an assessment has no result for the condition', () => {
    const items = [assessment('a', '2026-01-05T09:00:00.000Z', undefined)];
    expect(statusPoints(items, 'DM2')).toEqual([
      { key: 'a', level: null, unknown: null, status: null },
    ]);
  });

  it('says the statuses in words, counting runs of one status together', () => {
    const points = statusPoints(
      [
        assessment('d', '2026-04-01T09:00:00.000Z', 'TRUE'),
        assessment('c', '2026-03-01T09:00:00.000Z', 'FALSE'),
        assessment('b', '2026-02-01T09:00:00.000Z', 'FALSE'),
        assessment('a', '2026-01-01T09:00:00.000Z', undefined),
      ],
      'DM2',
    );
    expect(statusSummary(points)).toBe(
      'No result at 1 assessment, then Low Risk at 2 assessments, then High Risk at 1 assessment',
    );
    expect(statusChartCaption(points)).toMatch(/^Oldest first: No result at 1 assessment, then/);
    expect(statusSummary([])).toBe('No assessments');
    // The one line shown: the latest, and what it was before it changed.
    expect(statusShortSummary(points)).toBe('Latest: High Risk (was Low Risk)');
    expect(statusShortSummary(points.slice(1, 3))).toBe('Latest: Low Risk, at every assessment');
    expect(statusShortSummary(points.slice(0, 1))).toBe('Latest: No result');
    expect(statusShortSummary([])).toBe('No assessments');
  });
});

describe('the x-axis labels', () => {
  const format = {
    date: (iso: string) => iso.slice(0, 10),
    dateTime: (iso: string) => iso.slice(0, 16),
    dateTimeSeconds: (iso: string) => iso.slice(0, 19),
  };

  it('name the day when every assessment has a day of its own', () => {
    const labels = axisLabels(
      [
        assessment('a', '2026-01-05T09:00:00.000Z', 'FALSE'),
        assessment('b', '2026-02-01T09:00:00.000Z', 'FALSE'),
      ],
      format,
    );
    expect([...labels]).toEqual([
      ['a', '2026-01-05'],
      ['b', '2026-02-01'],
    ]);
  });

  it('name the time of every assessment when two share a day', () => {
    const labels = axisLabels(
      [
        assessment('a', '2026-01-05T09:00:00.000Z', 'FALSE'),
        assessment('b', '2026-01-05T15:30:00.000Z', 'FALSE'),
        assessment('c', '2026-02-01T09:00:00.000Z', 'FALSE'),
      ],
      format,
    );
    expect([...labels]).toEqual([
      ['a', '2026-01-05T09:00'],
      ['b', '2026-01-05T15:30'],
      ['c', '2026-02-01T09:00'],
    ]);
  });

  it('name the second when two assessments share a minute', () => {
    const labels = axisLabels(
      [
        assessment('a', '2026-01-05T09:00:05.000Z', 'FALSE'),
        assessment('b', '2026-01-05T09:00:40.000Z', 'FALSE'),
        assessment('c', '2026-01-05T15:30:00.000Z', 'FALSE'),
      ],
      format,
    );
    expect([...labels.values()]).toEqual([
      '2026-01-05T09:00:05',
      '2026-01-05T09:00:40',
      '2026-01-05T15:30:00',
    ]);
  });
});

describe('BMI over time', () => {
  it('reads oldest first, and is summed up to 1 decimal', () => {
    const points = bmiPoints(newestFirst);
    expect(points).toEqual([
      { key: 'a', bmi: 22.13 },
      { key: 'b', bmi: 29.4 },
      { key: 'c', bmi: 27.04 },
    ]);
    expect(bmiSummary(points)).toBe('Lowest 22.1, highest 29.4, latest 27.0');
    expect(bmiSummary([])).toBe('No BMI recorded');
    expect(bmiShortSummary([...points, { key: 'd', bmi: null }])).toBe('Latest BMI 27.0');
    expect(bmiShortSummary([{ key: 'a', bmi: null }])).toBe('No BMI recorded');
  });

  it('has round ticks from at most 20 to at least 30, widened to hold every BMI', () => {
    const at = (...bmis: Array<number | null>) => bmis.map((bmi, i) => ({ key: String(i), bmi }));
    expect(bmiAxis(at(28.9))).toEqual({ domain: [20, 30], ticks: [20, 25, 30] });
    expect(bmiAxis(at(20.9, 28.7, null))).toEqual({ domain: [20, 30], ticks: [20, 25, 30] });
    expect(bmiAxis(at(17.2, 36.4))).toEqual({
      domain: [15, 40],
      ticks: [15, 20, 25, 30, 35, 40],
    });
    expect(bmiAxis(at(16, 52.5))).toEqual({ domain: [10, 60], ticks: [10, 20, 30, 40, 50, 60] });
    expect(bmiAxis(at(null))).toEqual({ domain: [20, 30], ticks: [20, 25, 30] });
  });

  it('leaves a gap where no height or weight was measured', () => {
    const points = bmiPoints([
      assessment('b', '2026-02-01T09:00:00.000Z', 'FALSE', 0),
      assessment('a', '2026-01-05T09:00:00.000Z', 'FALSE', 31.64),
    ]);
    expect(points).toEqual([
      { key: 'a', bmi: 31.64 },
      { key: 'b', bmi: null },
    ]);
    expect(bmiSummary(points)).toBe(
      'Lowest 31.6, highest 31.6, latest 31.6; not measured at 1 assessment',
    );
    expect(bmiSummary(points.slice(1))).toBe('No BMI recorded');
  });
});

describe('the patient facts', () => {
  it('reads the age in years', () => {
    expect(ageText(58)).toBe('58 years');
    expect(ageText(1)).toBe('1 year');
    expect(ageText(0)).toBe('0 years');
  });

  it('shows the date of birth as the day it is, in any time zone', () => {
    expect(formatBirthDate('1968-02-29', 'en-GB')).toBe('29 Feb 1968');
    expect(formatBirthDate('2000-01-01', 'en-US')).toBe('Jan 1, 2000');
    expect(formatBirthDate('not a date', 'en-GB')).toBe('not a date');
  });
});
