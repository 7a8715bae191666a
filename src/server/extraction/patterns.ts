/**
 * The patterns the extractor searches for (spec 9.4), compiled once. One combined token
 * pattern finds every candidate in a single left-to-right pass; extract.ts then decides
 * from shape, nearby labels and checks whether a candidate is a code.
 */
import type { CodeType, Confidence, KindSearched } from './types.ts';

/** Labels that say which code system the numbers after (or just before) them belong to. */
export type LabelSystem = 'ICD-10' | 'ICD-9' | 'CPT' | 'LOINC' | 'SNOMED CT' | 'NDC' | 'Dx';

export type TokenKind =
  'assessment' | 'label' | 'patientLabel' | 'prefixed' | 'letterCode' | 'number';

interface TokenAlternative {
  kind: TokenKind;
  system?: LabelSystem;
  source: string;
}

/** 'icd' -> '[Ii][Cc][Dd]': case-insensitive words inside an otherwise case-sensitive pattern. */
function anyCase(word: string): string {
  return word.replace(/[a-z]/g, (letter) => `[${letter.toUpperCase()}${letter}]`);
}

const LABEL_SOURCES: readonly (readonly [LabelSystem, string])[] = [
  ['ICD-10', `${anyCase('icd')}[- ]?10(?:[- ]?${anyCase('cm')})?`],
  ['ICD-9', `${anyCase('icd')}[- ]?9(?:[- ]?${anyCase('cm')})?`],
  ['CPT', anyCase('cpt')],
  ['LOINC', anyCase('loinc')],
  [
    'SNOMED CT',
    `${anyCase('snomed')}(?:[- ]?${anyCase('ct')})?|${anyCase('sctid')}|${anyCase('sct')}`,
  ],
  ['NDC', anyCase('ndc')],
  [
    'Dx',
    `(?:${anyCase('dx')}|${anyCase('diagnosis')}|${anyCase('diagnoses')})(?:\\s+${anyCase('code')}s?)?|${anyCase('coded')}(?:\\s+${anyCase('as')})?`,
  ],
];

const PATIENT_LABEL_SOURCE = [
  anyCase('mrn'),
  anyCase('pid'),
  `${anyCase('patient')}\\s+${anyCase('id')}`,
  `${anyCase('pt')}\\.?\\s+${anyCase('id')}`,
  `${anyCase('hosp')}(?:${anyCase('ital')})?\\.?\\s+${anyCase('no')}\\.?`,
].join('|');

const NOT_ALPHANUMERIC_NEXT = '(?![A-Za-z0-9])';

/** Word-led alternatives, tried in this order at each word start. */
const WORD_ALTERNATIVES: readonly TokenAlternative[] = [
  // A longer random part falls through to 'prefixed', which reports it as malformed.
  { kind: 'assessment', source: `ASS-[0-9A-Z]{4,12}-[0-9A-Z]{4}${NOT_ALPHANUMERIC_NEXT}` },
  ...LABEL_SOURCES.map(([system, source]) => ({
    kind: 'label' as const,
    system,
    source: `(?:${source})${NOT_ALPHANUMERIC_NEXT}`,
  })),
  {
    kind: 'patientLabel',
    source: `(?:${PATIENT_LABEL_SOURCE})\\s*[:#]?\\s*[A-Z]{0,3}\\d{4,12}${NOT_ALPHANUMERIC_NEXT}`,
  },
  { kind: 'prefixed', source: '[A-Z]{2,6}-[A-Z0-9]+(?:-[A-Z0-9]+)*' },
  { kind: 'letterCode', source: '[A-Z]\\d[0-9A-Z](?:\\d?\\.[0-9A-Z]{1,4}|[0-9A-Z]{1,4})?' },
];

/**
 * A whole run of digits with its inner separators, so that 2024-03-15, 120/80, 011-555-0123
 * and 10,000 are each one token and never yield a code-shaped piece.
 */
const NUMBER_ALTERNATIVE: TokenAlternative = {
  kind: 'number',
  source: '(?<![A-Za-z0-9_.])\\d+(?:[.\\-/:]\\d+|,\\d{3}(?!\\d))*[FT]?',
};

/**
 * Alternative i is capture group i + 1 of TOKEN_PATTERN. Numbers, the most frequent tokens,
 * come first so that finding which group matched is quick; they cannot start where a word
 * alternative does.
 */
export const TOKEN_ALTERNATIVES: readonly TokenAlternative[] = [
  NUMBER_ALTERNATIVE,
  ...WORD_ALTERNATIVES,
];

export const TOKEN_PATTERN = new RegExp(
  `(${NUMBER_ALTERNATIVE.source})|\\b(?:${WORD_ALTERNATIVES.map((alternative) => `(${alternative.source})`).join('|')})`,
  'g',
);

/** A label right after a code, as in '250.00 (ICD-9)'; group i + 1 is LABEL_SOURCES[i]. */
export const TRAILING_LABEL = new RegExp(
  `\\s*[([]?\\s*(?:${LABEL_SOURCES.map(([, source]) => `(${source})`).join('|')})${NOT_ALPHANUMERIC_NEXT}`,
  'y',
);
export const TRAILING_LABEL_SYSTEMS: readonly LabelSystem[] = LABEL_SOURCES.map(
  ([system]) => system,
);

export const PATIENT_LABEL_PARTS = new RegExp(
  `^(${PATIENT_LABEL_SOURCE})\\s*[:#]?\\s*([A-Z]{0,3}\\d{4,12})$`,
);

/** SNOMED CT compositional grammar writes a concept as 44054006 |Diabetes mellitus type 2|. */
export const SNOMED_TERM_AFTER = /\s*\|[^|\n]{1,200}\|/y;

/** A number followed by a unit is a measurement, not a code ('250.00 mg/dL', '500mg'). */
export const UNIT_AFTER =
  /\s?(?:mg|mcg|µg|ug|g|kg|lbs?|ml|mL|L|dL|dl|mmol|µmol|umol|nmol|pmol|mEq|meq|mmHg|mm|cm|bpm|%|°|IU|iu|units?|U|times|days?|weeks?|wks?|months?|years?|yrs?|y\/o|hrs?|hours?|mins?|minutes?|secs?|F|C|cells|copies|puffs?|tabs?|tablets?|caps?|capsules?|steps|kcal|cal|ng|pg|mL\/min|L\/min)(?![A-Za-z])/y;

/**
 * A number right after one of these words (lower case; 'glucose 250.00', 'wt: 101.5',
 * 'lot 2345-7', 'tel 55501234') is a value, not a code. Filler words may stand between.
 */
export const MEASUREMENT_WORDS: ReadonlySet<string> = new Set(
  (
    'glucose sugar sugars bg bs rbs fbs fbg hgt chol cholesterol ldl hdl tg trig ' +
    'trigs triglyceride triglycerides hb hgb hba1c a1c cr creat creatinine egfr gfr ' +
    'na k urea wt weight ht height temp temperature t hr pulse rr resp respirations ' +
    'spo2 sat sats o2 bp sbp dbp map cd4 vl load count dose bmi pefr flow fev1 fvc ' +
    'age aged score platelet platelets plt wbc alt ast tsh inr lot batch tel phone ' +
    'cell mobile fax ext extension room rm bed ward bay'
  ).split(' '),
);

/** Words allowed between a measurement word and its value ('glucose was 250.00'). */
export const MEASUREMENT_FILLERS: ReadonlySet<string> = new Set(['of', 'was', 'is', 'at', 'now']);

/**
 * Three-character ICD-10 categories that, written without a label or decimal, are far more
 * often something else in nursing notes.
 */
export const ICD10_LOOKALIKE_CATEGORIES: ReadonlySet<string> = new Set([
  'B12', // vitamin B12
  'Q10', // coenzyme Q10
  'N95', // N95 respirator
  'K10', // Kessler K10 distress score
  'T10', // thoracic vertebrae T10-T12
  'T11',
  'T12',
]);

/** 'Bed A12', 'vitamin D25': a place or supplement word right before a bare category. */
export const ICD10_LOOKALIKE_WORDS: ReadonlySet<string> = new Set(
  (
    'bed room rm ward bay cubicle unit floor level wing block seat gate locker suite vit ' +
    'vitamin'
  ).split(' '),
);

/** Words allowed between a place word and its number ('bed no. A12', 'room number B14'). */
export const ICD10_LOOKALIKE_FILLERS: ReadonlySet<string> = new Set(['no', 'number']);

/** Prefixes of PREFIX-123 tokens that are not codes (months, organisms, scores, drug classes). */
export const NOT_CODE_PREFIXES: ReadonlySet<string> = new Set(
  (
    'JAN FEB MAR APR MAY JUN JUL AUG SEP SEPT OCT NOV DEC COVID SARS MERS HIV HPV HBV ' +
    'HCV HSV HLA GLP SGLT DPP PHQ GAD CKD NYHA'
  ).split(' '),
);

export const PATIENT_ID_PREFIXES: ReadonlySet<string> = new Set(['PID', 'MRN', 'PT']);
export const MEDICATION_PREFIXES: ReadonlySet<string> = new Set(['RX', 'MED']);

/** A label's reach: how far after it a number still counts as labelled (within one sentence). */
export const LABEL_SCOPE_CHARS = 60;

export const CONTEXT_CHARS = 50;

export const KINDS_SEARCHED: readonly KindSearched[] = [
  {
    type: 'Assessment Code',
    confidence: 'high',
    description:
      'Assessment codes ASS-{creation time in base 36}-{4 characters}, e.g. ASS-LTSGK4W0-7F2A; the time must decode to a date from 2000 to 2100',
  },
  {
    type: 'ICD-10',
    confidence: 'high',
    description:
      'ICD-10 / ICD-10-CM codes such as E11.9, I10, J45.909; checked against the code structure and chapter ranges',
  },
  {
    type: 'ICD-9',
    confidence: 'high',
    description:
      'ICD-9-CM codes such as 250.00, 401.9, V58.67 when labelled ICD-9 or written straight after Dx',
  },
  {
    type: 'NDC',
    confidence: 'medium',
    description:
      'National Drug Codes in 4-4-2, 5-3-2 or 5-4-1 form (or the 11-digit 5-4-2 billing form)',
  },
  {
    type: 'Medication Code',
    confidence: 'medium',
    description: 'Prescription and medication codes RX-… and MED-…',
  },
  {
    type: 'CPT',
    confidence: 'medium',
    description:
      'CPT procedure codes: 5 digits after a CPT label, E/M visit codes 99201-99499, category II/III codes such as 3046F or 0042T',
  },
  {
    type: 'LOINC',
    confidence: 'low',
    description: 'LOINC codes such as 4548-4; the mod 10 check digit must be right',
  },
  {
    type: 'SNOMED CT',
    confidence: 'low',
    description:
      'SNOMED CT ids after a SNOMED/SCT label or written as id |term|; Verhoeff check digit and partition identifier must be right',
  },
  {
    type: 'Patient ID',
    confidence: 'low',
    description: 'Patient identifiers PID-…, MRN …, patient ID … and hospital numbers',
  },
  { type: 'Lab Code', confidence: 'low', description: 'Laboratory codes LAB-…' },
  {
    type: 'Custom Code',
    confidence: 'low',
    description: 'Other PREFIX-123 style codes (2-6 capital letters, a hyphen, at least 2 digits)',
  },
];

export const BASE_CONFIDENCE = Object.fromEntries(
  KINDS_SEARCHED.map((kind) => [kind.type, kind.confidence]),
) as Record<CodeType, Confidence>;
