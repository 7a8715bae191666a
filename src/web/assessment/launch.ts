import type { Condition, FamilyHistoryCondition } from '../../engine/index.ts';
import type { Patient } from '../../shared/api/patients.ts';
import type { RecordValue, SmartLaunch } from '../../shared/api/smart-launch.ts';
import { emptyForm, type AssessmentForm } from './form.ts';
import { withChosenPatient } from './patient.ts';

/**
 * What the wizard keeps of a launch from a record system (in the draft, so that a reload keeps
 * it): the record's values, what could not be read, and whether the result goes back.
 */
export type RecordLaunch = Pick<SmartLaunch, 'id' | 'values' | 'unread' | 'writeBack'>;

export function recordLaunchOf({ id, values, unread, writeBack }: SmartLaunch): RecordLaunch {
  return { id, values, unread, writeBack };
}

/** One field per value: a second value for the same field (or condition) is left out. */
function valueKey(value: RecordValue): string {
  return 'condition' in value ? `${value.field}:${value.condition}` : value.field;
}

function firstPerField(values: readonly RecordValue[]): RecordValue[] {
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = valueKey(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The form with the record's values put in: only those filled (a value older than the clinic's
 * limit is shown beside its field, not put in it). A value replaces what the field held, such as
 * the patient record's height.
 */
export function formWithRecordValues(
  form: AssessmentForm,
  values: readonly RecordValue[],
): AssessmentForm {
  let next = form;
  for (const value of firstPerField(values)) {
    if (!value.filled) continue;
    const { demographics, riskFactors, management } = next;
    switch (value.field) {
      case 'age':
      case 'height':
      case 'weight':
        next = { ...next, demographics: { ...demographics, [value.field]: String(value.value) } };
        break;
      case 'gender':
        next = { ...next, demographics: { ...demographics, gender: value.value } };
        break;
      case 'smoking':
        next = { ...next, riskFactors: { ...riskFactors, smoking: value.value } };
        break;
      case 'familyHistory':
        next = {
          ...next,
          riskFactors: {
            ...riskFactors,
            familyHistory: { ...riskFactors.familyHistory, [value.condition]: true },
          },
        };
        break;
      case 'diagnosed':
        next = {
          ...next,
          management: {
            ...management,
            [value.condition]: { ...management[value.condition], diagnosed: true },
          },
        };
        break;
    }
  }
  return next;
}

/**
 * A new assessment's form from a launch: the launch's patient record chosen (as `?patient=`
 * chooses one), then the record's values put in over what the patient record filled.
 */
export function formFromLaunch(launch: RecordLaunch, patient: Patient | null): AssessmentForm {
  // A new assessment is made today: the age the server gives for today.
  const base = patient === null ? emptyForm : withChosenPatient(emptyForm, patient, patient.age);
  return formWithRecordValues(base, launch.values);
}

const months = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

/**
 * A record's date as '2 Oct 2026' (day, short month, year, in English whatever the browser's
 * language: the notes are English). 'YYYY-MM' reads 'Oct 2026', 'YYYY' '2026'; anything else is
 * shown as written. Read from the text, not as an instant, so no time zone moves the day.
 */
export function formatRecordDate(date: string): string {
  const match = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:$|T)/.exec(date);
  if (match === null) return date;
  const [, year, month, day] = match;
  if (month === undefined) return year ?? date;
  const monthName = months[Number(month) - 1];
  if (monthName === undefined) return date;
  if (day === undefined) return `${monthName} ${year}`;
  const dayNumber = Number(day);
  if (dayNumber < 1 || dayNumber > 31) return date;
  return `${dayNumber} ${monthName} ${year}`;
}

/** The value as the step shows it, with its unit. */
export function recordValueText(value: RecordValue): string {
  switch (value.field) {
    case 'age':
      return `${value.value} years`;
    case 'gender':
      return value.value;
    case 'height':
      return `${value.value} cm`;
    case 'weight':
      return `${value.value} kg`;
    case 'smoking':
      return value.value ? 'smokes' : 'does not smoke';
    case 'familyHistory':
      return 'family history';
    case 'diagnosed':
      return 'diagnosed';
  }
}

/** Whether the form still holds the record's value (the nurse has not changed it away). */
export function holdsRecordValue(form: AssessmentForm, value: RecordValue): boolean {
  switch (value.field) {
    case 'age':
    case 'height':
    case 'weight': {
      // '162.0' typed over '162' still says what the record says.
      const text = form.demographics[value.field].trim();
      return text !== '' && Number(text) === value.value;
    }
    case 'gender':
      return form.demographics.gender === value.value;
    case 'smoking':
      return form.riskFactors.smoking === value.value;
    case 'familyHistory':
      return form.riskFactors.familyHistory?.[value.condition] === true;
    case 'diagnosed':
      return form.management[value.condition]?.diagnosed === true;
  }
}

/**
 * What a field says of the record: where a filled value came from while the field still holds it
 * ('from the record, 2 Oct 2026'), or the value too old to fill in, with its date. Null: nothing
 * to say (the nurse changed the value).
 */
export function recordNote(value: RecordValue, form: AssessmentForm): string | null {
  if (value.filled) {
    if (!holdsRecordValue(form, value)) return null;
    return value.date === null
      ? 'from the record'
      : `from the record, ${formatRecordDate(value.date)}`;
  }
  const text = recordValueText(value);
  return value.date === null
    ? `In the record: ${text}, undated (not filled in)`
    : `In the record: ${text}, ${formatRecordDate(value.date)} (too old to fill in)`;
}

/**
 * The notes of the record's values, by the field they belong to: null for a field the record
 * filled whose value the nurse has changed (the field keeps its layout, without a note), absent
 * for a field the record says nothing of.
 */
export interface RecordNotes {
  age?: string | null;
  gender?: string | null;
  height?: string | null;
  weight?: string | null;
  smoking?: string | null;
  familyHistory: Partial<Record<FamilyHistoryCondition, string | null>>;
  diagnosed: Partial<Record<Condition, string | null>>;
}

export const noRecordNotes: RecordNotes = { familyHistory: {}, diagnosed: {} };

export function recordNotes(launch: RecordLaunch | null, form: AssessmentForm): RecordNotes {
  if (launch === null) return noRecordNotes;
  const notes: RecordNotes = { familyHistory: {}, diagnosed: {} };
  for (const value of firstPerField(launch.values)) {
    const note = recordNote(value, form);
    if (value.field === 'familyHistory') notes.familyHistory[value.condition] = note;
    else if (value.field === 'diagnosed') notes.diagnosed[value.condition] = note;
    else notes[value.field] = note;
  }
  return notes;
}

/** Step 1's list of what the record could not be asked: 'Condition: Not granted by …'. */
export function unreadLines(launch: RecordLaunch | null): string[] {
  return launch === null
    ? []
    : launch.unread.map(({ resource, reason }) => `${resource}: ${reason}`);
}
