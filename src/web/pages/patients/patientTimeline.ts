import { RISK_STATUS_LABELS, type Condition, type RiskStatus } from '../../../engine/index.ts';
import type { PatientAssessment } from '../../../shared/api/patients.ts';

/**
 * The risk statuses as heights on a chart: Low < Moderate < High < Diagnosed. Insufficient Data
 * is not on that scale; it has a row of its own below it.
 */
export const statusLevels = {
  FALSE: 1,
  MAYBE: 2,
  TRUE: 3,
  DIAGNOSED: 4,
} as const satisfies Record<Exclude<RiskStatus, 'UNKNOWN'>, number>;

/** The row of Insufficient Data, apart from the ordered statuses. */
export const unknownLevel = 0;

/** The status chart's y-axis ticks, bottom to top. */
export const statusAxisTicks = [unknownLevel, 1, 2, 3, 4] as const;

const levelLabels: Record<number, string> = {
  [unknownLevel]: RISK_STATUS_LABELS.UNKNOWN,
  [statusLevels.FALSE]: RISK_STATUS_LABELS.FALSE,
  [statusLevels.MAYBE]: RISK_STATUS_LABELS.MAYBE,
  [statusLevels.TRUE]: RISK_STATUS_LABELS.TRUE,
  [statusLevels.DIAGNOSED]: RISK_STATUS_LABELS.DIAGNOSED,
};

/** The y-axis label of a status chart's tick. */
export function statusAxisLabel(level: number): string {
  return levelLabels[level] ?? '';
}

/** A patient's assessments oldest first, as a chart reads left to right. */
export function chronological(items: readonly PatientAssessment[]): PatientAssessment[] {
  return items.toSorted(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
  );
}

export interface DateFormatters {
  /** The calendar day of an instant. */
  date: (iso: string) => string;
  /** The day and time of an instant, to the minute. */
  dateTime: (iso: string) => string;
  /** The day and time of an instant, to the second. */
  dateTimeSeconds: (iso: string) => string;
}

/** Whether `format` gives each of `items` a label of its own. */
function distinct(items: readonly PatientAssessment[], format: (iso: string) => string): boolean {
  return new Set(items.map((item) => format(item.createdAt))).size === items.length;
}

/**
 * The x-axis label of each assessment, by id, all to one precision: the day; the day and time
 * when two assessments share a day; to the second when two share a minute.
 */
export function axisLabels(
  items: readonly PatientAssessment[],
  format: DateFormatters,
): Map<string, string> {
  const precision = distinct(items, format.date)
    ? format.date
    : distinct(items, format.dateTime)
      ? format.dateTime
      : format.dateTimeSeconds;
  return new Map(items.map((item) => [item.id, precision(item.createdAt)]));
}

/** One assessment on a condition's status chart. */
export interface StatusPoint {
  /** The assessment's id: the x-axis category (labels may repeat; ids do not). */
  key: string;
  /** The status's height on the ordered scale; null for Insufficient Data or no result. */
  level: number | null;
  /** `unknownLevel` when the status is Insufficient Data, otherwise null. */
  unknown: number | null;
  /** Null when the assessment has no result for the condition. */
  status: RiskStatus | null;
}

/** A condition's risk status at each assessment, oldest first. */
export function statusPoints(
  items: readonly PatientAssessment[],
  condition: Condition,
): StatusPoint[] {
  return chronological(items).map((item) => {
    const status = item.results.find((result) => result.condition === condition)?.riskStatus;
    if (status === undefined) return { key: item.id, level: null, unknown: null, status: null };
    if (status === 'UNKNOWN') {
      return { key: item.id, level: null, unknown: unknownLevel, status };
    }
    return { key: item.id, level: statusLevels[status], unknown: null, status };
  });
}

/** One assessment on the BMI chart. */
export interface BmiPoint {
  key: string;
  /** Null when the assessment lacks a height or weight (the rules then count BMI as 0). */
  bmi: number | null;
}

/** The BMI measured at each assessment, oldest first; a gap where none was measured. */
export function bmiPoints(items: readonly PatientAssessment[]): BmiPoint[] {
  return chronological(items).map((item) => ({
    key: item.id,
    bmi: item.bmi > 0 ? item.bmi : null,
  }));
}

/**
 * The statuses of a condition's chart in words, oldest first, runs of one status counted
 * together: 'Low Risk at 2 assessments, then High Risk at 1'.
 */
export function statusSummary(points: readonly StatusPoint[]): string {
  const runs: { label: string; count: number }[] = [];
  for (const point of points) {
    const label = point.status === null ? 'No result' : RISK_STATUS_LABELS[point.status];
    const last = runs.at(-1);
    if (last?.label === label) last.count += 1;
    else runs.push({ label, count: 1 });
  }
  if (runs.length === 0) return 'No assessments';
  return runs
    .map(({ label, count }) => `${label} at ${count} assessment${count === 1 ? '' : 's'}`)
    .join(', then ');
}

/**
 * A condition's chart in one short line: the latest status, and the one before it when it
 * changed: 'Latest: High Risk (was Low Risk)', 'Latest: Low Risk, at every assessment'.
 */
export function statusShortSummary(points: readonly StatusPoint[]): string {
  const labels = points.map((point) =>
    point.status === null ? 'No result' : RISK_STATUS_LABELS[point.status],
  );
  const latest = labels.at(-1);
  if (latest === undefined) return 'No assessments';
  const before = labels.findLast((label) => label !== latest);
  if (before !== undefined) return `Latest: ${latest} (was ${before})`;
  return labels.length === 1 ? `Latest: ${latest}` : `Latest: ${latest}, at every assessment`;
}

/** The caption under a condition's chart heading: its statuses over time. */
export function statusChartCaption(points: readonly StatusPoint[]): string {
  return `Oldest first: ${statusSummary(points)}.`;
}

/** 'Lowest 22.1, highest 29.4, latest 27.0' for the BMI chart's caption (1 decimal, spec 9.1). */
export function bmiSummary(points: readonly BmiPoint[]): string {
  const values = points.flatMap((point) => (point.bmi === null ? [] : [point.bmi]));
  const latest = values.at(-1);
  if (latest === undefined) return 'No BMI recorded';
  const lowest = Math.min(...values).toFixed(1);
  const highest = Math.max(...values).toFixed(1);
  const missing = points.length - values.length;
  const unmeasured =
    missing === 0 ? '' : `; not measured at ${missing} assessment${missing === 1 ? '' : 's'}`;
  return `Lowest ${lowest}, highest ${highest}, latest ${latest.toFixed(1)}${unmeasured}`;
}

/** The BMI chart in one short line: 'Latest BMI 27.0'. */
export function bmiShortSummary(points: readonly BmiPoint[]): string {
  const latest = points.findLast((point) => point.bmi !== null)?.bmi;
  return latest == null ? 'No BMI recorded' : `Latest BMI ${latest.toFixed(1)}`;
}

/** The BMI above which the rules count a risk factor (spec 2.6: 'BMI >25'). */
export const bmiThreshold = 25;

/**
 * The BMI chart's y-axis: round numbers from at most 20 to at least 30, so that the line at 25
 * is always inside, widened to hold every measured BMI; a tick every 5, or every 10 on a wide
 * range.
 */
export function bmiAxis(points: readonly BmiPoint[]): {
  domain: [number, number];
  ticks: number[];
} {
  const values = points.flatMap((point) => (point.bmi === null ? [] : [point.bmi]));
  const step = Math.max(...values, 0) - Math.min(...values, Infinity) > 30 ? 10 : 5;
  const low = Math.min(bmiThreshold - 5, ...values.map((v) => Math.floor(v / step) * step));
  const high = Math.max(bmiThreshold + 5, ...values.map((v) => Math.ceil(v / step) * step));
  const start = Math.floor(low / step) * step;
  const end = Math.ceil(high / step) * step;
  const ticks: number[] = [];
  for (let tick = start; tick <= end; tick += step) ticks.push(tick);
  return { domain: [start, end], ticks };
}

/** Whole years of age as a person reads them: '58 years', '1 year'. */
export function ageText(age: number): string {
  return `${age} ${age === 1 ? 'year' : 'years'}`;
}

/**
 * A date of birth (a calendar day, YYYY-MM-DD) as a medium date. It is a day, not an instant, so
 * it is read and written in UTC and never moves with the browser's time zone.
 */
export function formatBirthDate(birthDate: string, locale?: string): string {
  const day = new Date(`${birthDate}T00:00:00Z`);
  if (Number.isNaN(day.getTime())) return birthDate;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(day);
}
