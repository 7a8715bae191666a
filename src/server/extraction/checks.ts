/**
 * Checks a matched code against its code system's own rules, so that a number that merely
 * looks like a code can be dropped or lowered in confidence.
 */
import type { Condition } from './types.ts';

export type CheckResult = { passed: true } | { passed: false; rule: string; detail: string };

const PASSED: CheckResult = { passed: true };

function failed(rule: string, detail: string): CheckResult {
  return { passed: false, rule, detail };
}

/** LOINC's mod 10 check digit (the Luhn scheme) over the digits before the hyphen. */
export function loincCheckDigit(body: string): number {
  let sum = 0;
  for (let index = 0; index < body.length; index++) {
    let digit = body.charCodeAt(body.length - 1 - index) - 48;
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}

export function checkLoinc(code: string): CheckResult {
  const [body = '', given = ''] = code.split('-');
  const expected = loincCheckDigit(body);
  return Number(given) === expected
    ? PASSED
    : failed('check digit', `${code} should end in -${expected}`);
}

const VERHOEFF_MULTIPLICATION = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
/** Position i permutes a digit by the i-th power of this permutation (i mod 8). */
const VERHOEFF_STEP = [1, 5, 7, 6, 2, 8, 3, 0, 9, 4];
const VERHOEFF_PERMUTATION: number[][] = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]];
for (let power = 1; power < 8; power++) {
  const previous = VERHOEFF_PERMUTATION[power - 1] ?? [];
  VERHOEFF_PERMUTATION.push(previous.map((digit) => VERHOEFF_STEP[digit] ?? 0));
}
/** inverse[j] is the k with j * k = 0 in the dihedral group. */
const VERHOEFF_INVERSE = VERHOEFF_MULTIPLICATION.map((row) => row.indexOf(0));

/** Runs the Verhoeff scheme over `digits`; `offset` 1 computes a check digit, 0 validates. */
function verhoeffState(digits: string, offset: 0 | 1): number {
  let state = 0;
  for (let index = 0; index < digits.length; index++) {
    const digit = digits.charCodeAt(digits.length - 1 - index) - 48;
    const permuted = VERHOEFF_PERMUTATION[(index + offset) % 8]?.[digit] ?? 0;
    state = VERHOEFF_MULTIPLICATION[state]?.[permuted] ?? 0;
  }
  return state;
}

export function verhoeffCheckDigit(digitsWithoutCheck: string): number {
  return VERHOEFF_INVERSE[verhoeffState(digitsWithoutCheck, 1)] ?? 0;
}

export function isVerhoeffValid(digits: string): boolean {
  return verhoeffState(digits, 0) === 0;
}

/**
 * SNOMED CT identifiers: 6 to 18 digits ending in a Verhoeff check digit, preceded by a
 * partition identifier (00/01/02 international concept, description, relationship; 10/11/12
 * the same in an extension, which also carries a 7-digit namespace).
 */
export function checkSnomedCt(id: string): CheckResult {
  if (id.length < 6 || id.length > 18) {
    return failed('length', `${id} has ${id.length} digits; SNOMED CT ids have 6 to 18`);
  }
  if (!isVerhoeffValid(id)) {
    const expected = verhoeffCheckDigit(id.slice(0, -1));
    return failed('check digit', `Verhoeff check digit of ${id} should be ${expected}`);
  }
  const partition = id.slice(-3, -1);
  const international = partition === '00' || partition === '01' || partition === '02';
  const extension = partition === '10' || partition === '11' || partition === '12';
  if (!international && !extension) {
    return failed('partition identifier', `${partition} is not a SNOMED CT partition`);
  }
  if (extension && id.length < 11) {
    return failed('partition identifier', `extension id ${id} is too short for a namespace`);
  }
  return PASSED;
}

/**
 * ICD-10 chapter ranges by three-character category, the union of WHO ICD-10 and ICD-10-CM
 * so that codes from either edition pass. Plain string comparison orders 'O9A' after 'O99'.
 */
const ICD10_CHAPTERS: readonly (readonly [string, string])[] = [
  ['A00', 'B99'],
  ['C00', 'D49'],
  ['D50', 'D89'],
  ['E00', 'E90'],
  ['F00', 'F99'],
  ['G00', 'G99'],
  ['H00', 'H95'],
  ['I00', 'I99'],
  ['J00', 'J99'],
  ['K00', 'K95'],
  ['L00', 'L99'],
  ['M00', 'M99'],
  ['N00', 'N99'],
  ['O00', 'O9A'],
  ['P00', 'P96'],
  ['Q00', 'Q99'],
  ['R00', 'R99'],
  ['S00', 'T98'],
  ['U00', 'U85'],
  ['V00', 'Y99'],
  ['Z00', 'Z99'],
];

/** The only ICD-10-CM categories whose third character is a letter. */
export const ICD10_LETTER_CATEGORIES: ReadonlySet<string> = new Set([
  'C4A',
  'C7A',
  'C7B',
  'D3A',
  'M1A',
  'O9A',
  'Z3A',
]);

/** Billing exports drop the dot (E119 for E11.9), so it is optional here. */
const ICD10_STRUCTURE = /^[A-Z]\d[0-9A-Z](?:\.?[0-9A-Z]{1,4})?$/;

export function checkIcd10(code: string): CheckResult {
  if (!ICD10_STRUCTURE.test(code)) {
    return failed('structure', `${code} is not a letter, 2 characters and up to 4 more`);
  }
  const category = code.slice(0, 3);
  if (/[A-Z]$/.test(category) && !ICD10_LETTER_CATEGORIES.has(category)) {
    return failed('structure', `${category} has a letter third character`);
  }
  const inChapter = ICD10_CHAPTERS.some(([first, last]) => category >= first && category <= last);
  return inChapter ? PASSED : failed('chapter range', `${category} is outside every chapter`);
}

/** ICD-9-CM: 001-999 with up to two decimals, V01-V91 supplementary, E000-E030 and E800-E999. */
export function checkIcd9(code: string): CheckResult {
  if (/^\d{3}(?:\.\d{1,2})?$/.test(code)) {
    return code.startsWith('000') ? failed('category range', '000 is not a category') : PASSED;
  }
  if (/^V\d{2}(?:\.\d{1,2})?$/.test(code)) {
    const category = Number(code.slice(1, 3));
    return category >= 1 && category <= 91
      ? PASSED
      : failed('category range', `${code.slice(0, 3)} is outside V01-V91`);
  }
  if (/^E\d{3}(?:\.\d)?$/.test(code)) {
    const category = Number(code.slice(1, 4));
    return category <= 30 || category >= 800
      ? PASSED
      : failed('category range', `${code.slice(0, 4)} is outside E000-E030 and E800-E999`);
  }
  return failed('structure', `${code} is not an ICD-9-CM shape`);
}

/** The 11-digit 5-4-2 form is how billing systems pad every 10-digit NDC, so it passes too. */
const NDC_SHAPES: ReadonlySet<string> = new Set(['4-4-2', '5-3-2', '5-4-1', '5-4-2']);

export function checkNdc(code: string): CheckResult {
  if (/^\d{10,11}$/.test(code)) return PASSED;
  const shape = code
    .split('-')
    .map((part) => part.length)
    .join('-');
  return NDC_SHAPES.has(shape)
    ? PASSED
    : failed('shape', `${shape} is not 4-4-2, 5-3-2, 5-4-1 (or 11-digit 5-4-2)`);
}

const EARLIEST_ASSESSMENT_MS = Date.UTC(2000, 0, 1);
const LATEST_ASSESSMENT_MS = Date.UTC(2100, 0, 1);

/** ASS-{creation time in ms, base 36}-{4 random}: the time part must decode to a real date. */
export function checkAssessmentCode(code: string): CheckResult {
  if (!/^ASS-[0-9A-Z]{4,12}-[0-9A-Z]{4}$/.test(code)) {
    return failed('structure', `${code} is not ASS-{time}-{4 characters}`);
  }
  const timePart = code.split('-')[1] ?? '';
  const createdMs = parseInt(timePart, 36);
  return createdMs >= EARLIEST_ASSESSMENT_MS && createdMs < LATEST_ASSESSMENT_MS
    ? PASSED
    : failed('creation time', `${timePart} is not a time between 2000 and 2100`);
}

/** The six conditions' ICD-10 categories (spec 9.2 conditions; issue cross-check list). */
export function conditionOfIcd10(code: string): Condition | null {
  const letter = code[0];
  const number = Number(code.slice(1, 3));
  if (Number.isNaN(number)) return null;
  switch (letter) {
    case 'E':
      return number === 11 ? 'DM2' : number === 78 ? 'Hyperlipidaemia' : null;
    case 'B':
      return number >= 20 && number <= 24 ? 'HIV' : null;
    case 'A':
      return number >= 15 && number <= 19 ? 'TB' : null;
    case 'J':
      return number === 45 ? 'Asthma' : null;
    case 'I':
      return number >= 10 && number <= 15 ? 'Hypertension' : null;
    default:
      return null;
  }
}
