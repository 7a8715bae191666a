import {
  CONDITIONS,
  FAMILY_HISTORY_CONDITIONS,
  GENDERS,
  LAST_DOCTOR_VISIT_OPTIONS,
  PRESCRIPTION_DURATION_OPTIONS,
  SEVERITIES,
  SYMPTOM_CATALOGUE as QUESTIONS,
  WEIGHT_CHANGES,
} from '../engine/index.ts';
import type { SymptomAnswer } from '../engine/index.ts';
import type { AssessmentInput } from '../shared/assessment-input.ts';
import { DEMOGRAPHIC_RANGES } from '../shared/assessment-input.ts';

type Demographics = NonNullable<AssessmentInput['demographics']>;
type RiskFactors = NonNullable<AssessmentInput['riskFactors']>;
type FamilyHistory = NonNullable<RiskFactors['familyHistory']>;
type Symptoms = NonNullable<AssessmentInput['symptoms']>;
type Management = NonNullable<AssessmentInput['management']>;
type ManagementAnswer = NonNullable<Management[keyof Management]>;

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const COMMA = 0x2c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_1 = 0x31;
const DIGIT_9 = 0x39;
const COLON = 0x3a;
const UPPER_E = 0x45;
const LOWER_E = 0x65;
const LOWER_F = 0x66;
const LOWER_T = 0x74;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/**
 * Strings the reader takes, each with the bytes it matches: the string's characters (ASCII) and
 * the closing quote, so that a longer string or one with an escape does not match.
 */
interface Strings<Value extends string> {
  readonly values: readonly Value[];
  readonly bytes: readonly Uint8Array[];
}

function strings<const Value extends string>(values: readonly Value[]): Strings<Value> {
  return {
    values,
    bytes: values.map((value) => Uint8Array.from(`${value}"`, (char) => char.charCodeAt(0))),
  };
}

const ASSESSMENT_KEYS = strings(['demographics', 'riskFactors', 'symptoms', 'management']);
const DEMOGRAPHIC_KEYS = strings(['age', 'gender', 'height', 'weight']);
const RISK_FACTOR_KEYS = strings(['smoking', 'familyHistory', 'householdTBExposure']);
const FAMILY_HISTORY_KEYS = strings(FAMILY_HISTORY_CONDITIONS);
const CONDITION_KEYS = strings(CONDITIONS);
const SYMPTOM_ANSWER_KEYS = strings(['present', 'severity']);
const MANAGEMENT_KEYS = strings(['diagnosed', 'lastDoctorVisit', 'prescriptionDuration']);
const GENDER_VALUES = strings(GENDERS);
const LAST_DOCTOR_VISIT_VALUES = strings(LAST_DOCTOR_VISIT_OPTIONS);
const PRESCRIPTION_DURATION_VALUES = strings(PRESCRIPTION_DURATION_OPTIONS);
const SEVERITY_VALUES = strings(SEVERITIES);
const WEIGHT_CHANGE_VALUES = strings(WEIGHT_CHANGES);

/** Per condition, in the order of CONDITIONS: its symptom keys and the severities each accepts. */
const SYMPTOM_CATALOGUE = CONDITIONS.map((condition) => {
  const symptoms: readonly { key: string; scale: string }[] = QUESTIONS[condition];
  return {
    keys: strings(symptoms.map((symptom) => symptom.key)),
    severities: symptoms.map((symptom): Strings<string> =>
      symptom.scale === 'weightChange' ? WEIGHT_CHANGE_VALUES : SEVERITY_VALUES,
    ),
  };
});

/** Powers of ten up to 10^22, the largest exact as a double. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, exponent) => Number(`1e${exponent}`));

const { age, height, weight } = DEMOGRAPHIC_RANGES;

/** Thrown at the first thing the reader does not take; caught before it returns. */
const UNRECOGNISED = new Error('not an assessment input the reader recognises');

/**
 * Reads assessment inputs straight from UTF-8 JSON, validating as it goes. It takes only what it
 * recognises: the keys of the schema without escapes, values of the right type and range, and
 * JSON whitespace. Anything else, valid or not, it leaves to JSON.parse and the schema.
 */
class AssessmentInputReader {
  #bytes: Uint8Array = new Uint8Array(0);
  #at = 0;
  #end = 0;

  read(bytes: Uint8Array, start: number, end: number): AssessmentInput | undefined {
    this.#bytes = bytes;
    this.#at = start;
    this.#end = end;
    try {
      const input = this.#assessment();
      return this.#next() === -1 ? input : undefined;
    } catch (error) {
      if (error === UNRECOGNISED) return undefined;
      throw error;
    }
  }

  #assessment(): AssessmentInput {
    const input: AssessmentInput = {};
    // JSON.parse keeps the last of repeated keys; assigning in turn does the same.
    if (this.#open()) {
      do {
        switch (this.#key(ASSESSMENT_KEYS)) {
          case 'demographics':
            input.demographics = this.#demographics();
            break;
          case 'riskFactors':
            input.riskFactors = this.#riskFactors();
            break;
          case 'symptoms':
            input.symptoms = this.#symptoms();
            break;
          case 'management':
            input.management = this.#management();
            break;
        }
      } while (this.#more());
    }
    return input;
  }

  #demographics(): Demographics {
    const demographics: Demographics = {};
    if (this.#open()) {
      do {
        switch (this.#key(DEMOGRAPHIC_KEYS)) {
          case 'age': {
            const value = this.#number(age.min, age.max);
            if (!Number.isInteger(value)) throw UNRECOGNISED;
            demographics.age = value;
            break;
          }
          case 'gender':
            demographics.gender = this.#string(GENDER_VALUES);
            break;
          case 'height':
            demographics.height = this.#number(height.min, height.max);
            break;
          case 'weight':
            demographics.weight = this.#number(weight.min, weight.max);
            break;
        }
      } while (this.#more());
    }
    return demographics;
  }

  #riskFactors(): RiskFactors {
    const riskFactors: RiskFactors = {};
    if (this.#open()) {
      do {
        switch (this.#key(RISK_FACTOR_KEYS)) {
          case 'smoking':
            riskFactors.smoking = this.#boolean();
            break;
          case 'familyHistory':
            riskFactors.familyHistory = this.#familyHistory();
            break;
          case 'householdTBExposure':
            riskFactors.householdTBExposure = this.#boolean();
            break;
        }
      } while (this.#more());
    }
    return riskFactors;
  }

  #familyHistory(): FamilyHistory {
    const familyHistory: FamilyHistory = {};
    if (this.#open()) {
      do {
        familyHistory[this.#key(FAMILY_HISTORY_KEYS)] = this.#boolean();
      } while (this.#more());
    }
    return familyHistory;
  }

  #symptoms(): Symptoms {
    const symptoms: Partial<Record<string, Record<string, SymptomAnswer>>> = {};
    if (this.#open()) {
      do {
        const conditionIndex = this.#keyIndex(CONDITION_KEYS);
        const catalogue = SYMPTOM_CATALOGUE[conditionIndex];
        if (catalogue === undefined) throw UNRECOGNISED;
        const answers: Record<string, SymptomAnswer> = {};
        if (this.#open()) {
          do {
            const index = this.#keyIndex(catalogue.keys);
            const severities = catalogue.severities[index];
            if (severities === undefined) throw UNRECOGNISED;
            answers[catalogue.keys.values[index] ?? ''] = this.#symptomAnswer(severities);
          } while (this.#more());
        }
        symptoms[CONDITIONS[conditionIndex] ?? ''] = answers;
      } while (this.#more());
    }
    return symptoms;
  }

  #symptomAnswer(severities: Strings<string>): SymptomAnswer {
    let present: boolean | undefined;
    let severity: string | undefined;
    if (this.#open()) {
      do {
        if (this.#key(SYMPTOM_ANSWER_KEYS) === 'present') present = this.#boolean();
        else severity = this.#string(severities);
      } while (this.#more());
    }
    if (present === undefined) throw UNRECOGNISED;
    // As the schema gives it: no severity key when none was given.
    return (severity === undefined ? { present } : { present, severity }) as SymptomAnswer;
  }

  #management(): Management {
    const management: Management = {};
    if (this.#open()) {
      do {
        management[this.#key(CONDITION_KEYS)] = this.#managementAnswer();
      } while (this.#more());
    }
    return management;
  }

  #managementAnswer(): ManagementAnswer {
    const answer: Partial<ManagementAnswer> = {};
    if (this.#open()) {
      do {
        switch (this.#key(MANAGEMENT_KEYS)) {
          case 'diagnosed':
            answer.diagnosed = this.#boolean();
            break;
          case 'lastDoctorVisit':
            answer.lastDoctorVisit = this.#string(LAST_DOCTOR_VISIT_VALUES);
            break;
          case 'prescriptionDuration':
            answer.prescriptionDuration = this.#string(PRESCRIPTION_DURATION_VALUES);
            break;
        }
      } while (this.#more());
    }
    if (answer.diagnosed === undefined) throw UNRECOGNISED;
    return answer as ManagementAnswer;
  }

  /** The byte at `at`, or -1 past the end of the line. */
  #byteAt(at: number): number {
    return at < this.#end ? (this.#bytes[at] as number) : -1;
  }

  /** The next byte after any whitespace, not taken; -1 at the end of the line. */
  #next(): number {
    let code = this.#byteAt(this.#at);
    while (code === SPACE || code === TAB || code === CARRIAGE_RETURN || code === LINE_FEED) {
      code = this.#byteAt(++this.#at);
    }
    return code;
  }

  #take(code: number): void {
    if (this.#next() !== code) throw UNRECOGNISED;
    this.#at++;
  }

  /** Takes an object's opening brace; true when a member follows, false when it is empty. */
  #open(): boolean {
    this.#take(OPEN_BRACE);
    if (this.#next() !== CLOSE_BRACE) return true;
    this.#at++;
    return false;
  }

  /** Takes the comma after a member (true) or the object's closing brace (false). */
  #more(): boolean {
    const code = this.#next();
    this.#at++;
    if (code === COMMA) return true;
    if (code === CLOSE_BRACE) return false;
    throw UNRECOGNISED;
  }

  /** Takes one of the strings, quotes included; its index. */
  #stringIndex(strings: Strings<string>): number {
    this.#take(QUOTE);
    const bytes = this.#bytes;
    const start = this.#at;
    const candidates = strings.bytes;
    for (let index = 0; index < candidates.length; index++) {
      const candidate = candidates[index] as Uint8Array;
      const length = candidate.length;
      if (start + length > this.#end) continue;
      let same = 0;
      while (same < length && bytes[start + same] === candidate[same]) same++;
      if (same === length) {
        this.#at = start + length;
        return index;
      }
    }
    throw UNRECOGNISED;
  }

  #string<Value extends string>(strings: Strings<Value>): Value {
    return strings.values[this.#stringIndex(strings)] as Value;
  }

  /** Takes one of the keys and the colon after it; the key's index. */
  #keyIndex(keys: Strings<string>): number {
    const index = this.#stringIndex(keys);
    this.#take(COLON);
    return index;
  }

  #key<Key extends string>(keys: Strings<Key>): Key {
    return keys.values[this.#keyIndex(keys)] as Key;
  }

  #boolean(): boolean {
    const code = this.#next();
    const at = this.#at;
    const bytes = this.#bytes;
    if (
      code === LOWER_T &&
      at + 4 <= this.#end &&
      bytes[at + 1] === 0x72 &&
      bytes[at + 2] === 0x75 &&
      bytes[at + 3] === 0x65
    ) {
      this.#at = at + 4;
      return true;
    }
    if (
      code === LOWER_F &&
      at + 5 <= this.#end &&
      bytes[at + 1] === 0x61 &&
      bytes[at + 2] === 0x6c &&
      bytes[at + 3] === 0x73 &&
      bytes[at + 4] === 0x65
    ) {
      this.#at = at + 5;
      return false;
    }
    throw UNRECOGNISED;
  }

  /**
   * Takes a number in JSON's grammar from `min` to `max`, with the value JSON.parse gives it:
   * up to 15 digits and no exponent, the digits as a whole number divided by a power of ten
   * (both exact, so the one rounding is the correctly rounded value); otherwise Number of the text.
   */
  #number(min: number, max: number): number {
    const first = this.#next();
    const start = this.#at;
    let at = first === MINUS ? start + 1 : start;
    let digits = 0;
    let mantissa = 0;
    let code = this.#byteAt(at);
    if (code === DIGIT_0) {
      code = this.#byteAt(++at);
    } else {
      if (code < DIGIT_1 || code > DIGIT_9) throw UNRECOGNISED;
      do {
        mantissa = mantissa * 10 + (code - DIGIT_0);
        digits++;
        code = this.#byteAt(++at);
      } while (code >= DIGIT_0 && code <= DIGIT_9);
    }
    let places = 0;
    if (code === DOT) {
      code = this.#byteAt(++at);
      if (code < DIGIT_0 || code > DIGIT_9) throw UNRECOGNISED;
      do {
        mantissa = mantissa * 10 + (code - DIGIT_0);
        digits++;
        places++;
        code = this.#byteAt(++at);
      } while (code >= DIGIT_0 && code <= DIGIT_9);
    }
    let value: number;
    if (code === LOWER_E || code === UPPER_E) {
      code = this.#byteAt(++at);
      if (code === PLUS || code === MINUS) code = this.#byteAt(++at);
      if (code < DIGIT_0 || code > DIGIT_9) throw UNRECOGNISED;
      do code = this.#byteAt(++at);
      while (code >= DIGIT_0 && code <= DIGIT_9);
      value = this.#numberText(start, at);
    } else if (digits <= 15) {
      value = mantissa / (POWERS_OF_TEN[places] as number);
      if (first === MINUS) value = -value;
    } else {
      value = this.#numberText(start, at);
    }
    this.#at = at;
    if (!(value >= min && value <= max)) throw UNRECOGNISED;
    return value;
  }

  /** Number of the text from `start` to `end`, which is ASCII: it passed the grammar above. */
  #numberText(start: number, end: number): number {
    let text = '';
    for (let at = start; at < end; at++) text += String.fromCharCode(this.#bytes[at] as number);
    return Number(text);
  }
}

const reader = new AssessmentInputReader();

/**
 * The assessment input in `bytes` from `start` to `end` (one line of UTF-8 JSON), as
 * `assessmentInputSchema.parse(JSON.parse(line))` gives it, when the line has the common shape;
 * otherwise undefined, and the caller parses the line with JSON.parse and the schema, which also
 * word the error of an invalid line. About twice as fast as those two; `triage score` reads its
 * lines with it.
 */
export function readAssessmentInput(
  bytes: Uint8Array,
  start = 0,
  end = bytes.length,
): AssessmentInput | undefined {
  return reader.read(bytes, start, end);
}
