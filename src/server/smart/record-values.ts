import type { RecordValue } from '../../shared/api/smart-launch.ts';
import { readRecord, type Dated, type PrefetchData } from '../cds/prefetch-mapping.ts';

/**
 * What the wizard gets from the record at a SMART launch (issue 39): each value the CDS Hooks
 * mapping reads (docs/INTEROP.md), with its date. Pure: no I/O, `today` on the clinic's calendar.
 *
 * A measurement or smoking status older than `maxAgeDays`, or undated, is shown beside its field
 * but not put in it: a weight of years ago, or of no known day, is not the patient's weight now.
 * Age and gender, and conditions the record holds as active, are filled as they stand.
 */
export function recordValues(
  data: PrefetchData,
  patientId: string,
  today: string,
  maxAgeDays: number,
): RecordValue[] {
  const { used } = readRecord(data, patientId, today);
  const oldest = Date.parse(`${today}T00:00:00Z`) - maxAgeDays * 86_400_000;
  const recent = (date: string | undefined): boolean => {
    const time = date === undefined ? Number.NaN : Date.parse(date);
    return !Number.isNaN(time) && time >= oldest;
  };
  const dated = <T>(value: Dated<T>) => ({
    value: value.value,
    date: value.date ?? null,
    filled: recent(value.date),
  });
  const values: RecordValue[] = [];
  if (used.age !== undefined) {
    // Worked out today from the date of birth: as of no earlier day.
    values.push({ field: 'age', value: used.age, date: null, filled: true });
  }
  if (used.gender !== undefined) {
    values.push({ field: 'gender', value: used.gender, date: null, filled: true });
  }
  if (used.height !== undefined) values.push({ field: 'height', ...dated(used.height) });
  if (used.weight !== undefined) values.push({ field: 'weight', ...dated(used.weight) });
  if (used.smoking !== undefined) values.push({ field: 'smoking', ...dated(used.smoking) });
  for (const condition of used.familyHistory) {
    values.push({ field: 'familyHistory', condition, value: true, date: null, filled: true });
  }
  for (const condition of used.diagnosed) {
    values.push({ field: 'diagnosed', condition, value: true, date: null, filled: true });
  }
  return values;
}
