/**
 * Finds codes in one note. A single pass of TOKEN_PATTERN yields labels and code-shaped
 * tokens in order; each token is then classified by its shape, the labels around it and its
 * code system's check. Candidates that need a label ('ICD-9 250.00', 'CPT 83036') only count
 * when one is in reach, which is what keeps doses, dates, phone numbers and vitals out.
 */
import {
  checkAssessmentCode,
  checkIcd10,
  checkIcd9,
  checkLoinc,
  checkNdc,
  checkSnomedCt,
  ICD10_LETTER_CATEGORIES,
  type CheckResult,
} from './checks.ts';
import {
  BASE_CONFIDENCE,
  CONTEXT_CHARS,
  ICD10_LOOKALIKE_CATEGORIES,
  ICD10_LOOKALIKE_FILLERS,
  ICD10_LOOKALIKE_WORDS,
  LABEL_SCOPE_CHARS,
  MEASUREMENT_FILLERS,
  MEASUREMENT_WORDS,
  MEDICATION_PREFIXES,
  NOT_CODE_PREFIXES,
  PATIENT_ID_PREFIXES,
  PATIENT_LABEL_PARTS,
  SNOMED_TERM_AFTER,
  TOKEN_ALTERNATIVES,
  TOKEN_PATTERN,
  TRAILING_LABEL,
  TRAILING_LABEL_SYSTEMS,
  UNIT_AFTER,
  type LabelSystem,
} from './patterns.ts';
import type { CodeMatch, CodeType } from './types.ts';

/** A candidate whose check failed: lowered to low confidence, or dropped if already low. */
export interface CheckFailure {
  type: CodeType;
  code: string;
  rule: string;
  action: 'lowered' | 'dropped';
}

export interface ScanResult {
  matches: CodeMatch[];
  checkFailures: CheckFailure[];
}

interface Candidate {
  type: CodeType;
  code: string;
  start: number;
  end: number;
  /** null where the code system has no check. */
  check: CheckResult | null;
}

const NO_LABEL = Number.NEGATIVE_INFINITY;

/** The label that governs each labelled type, so a list after one label stays in its reach. */
const LABEL_OF_TYPE: Partial<Record<CodeType, LabelSystem>> = {
  'ICD-10': 'ICD-10',
  'ICD-9': 'ICD-9',
  CPT: 'CPT',
  LOINC: 'LOINC',
  'SNOMED CT': 'SNOMED CT',
  NDC: 'NDC',
};

interface ScanState {
  text: string;
  /** Where the latest label of each system ended, or moved on to the last code it covered. */
  labelEnds: Record<LabelSystem, number>;
  lastCodeEnd: number;
}

/** Between 'Dx' and its code only separators may stand ('Dx: 250.00', 'dx code 401.9'). */
const DX_GAP = /^[\s:#=-]*$/;
/** 'Dx 250.00, 401.9 and 272.4': a list continues a Dx label. */
const LIST_GAP = /^[\s,/&()]*(?:(?:and|or)[\s,/&()]*)?$/;
const LIST_GAP_MAX_CHARS = 12;

const ICD9_E_CODE = /^E\d{3}(?:\.\d)?$/;
const ICD9_V_CODE = /^V\d{2}(?:\.\d{1,2})?$/;
const ICD9_NUMERIC = /^\d{3}(?:\.\d{1,2})?$/;
const CPT_CATEGORY_II = /^\d{4}F$/;
const CPT_CATEGORY_III = /^\d{4}T$/;
const NDC_HYPHENATED = /^\d{4,5}-\d{3,4}-\d{1,2}$/;
const LOINC_SHAPE = /^\d{1,5}-\d$/;
const LONG_DIGITS = /^\d{6,18}$/;

/** E/M office and hospital visit codes are distinctive enough to need no CPT label. */
const EVALUATION_AND_MANAGEMENT = { first: 99201, last: 99499 };
const UNLABELLED_LOINC_MIN_DIGITS = 3;
const MIN_PREFIXED_VALUE_DIGITS = 2;
const MIN_PREFIXED_VALUE_CHARS = 3;

function isWordCharacter(charCode: number): boolean {
  return (
    (charCode >= 48 && charCode <= 57) ||
    (charCode >= 65 && charCode <= 90) ||
    (charCode >= 97 && charCode <= 122) ||
    charCode === 95
  );
}

function isWhitespace(char: string | undefined): boolean {
  return char === ' ' || char === '\t' || char === '\n' || char === '\r';
}

/** A label's reach ends at a line break, a semicolon or the end of a sentence. */
function hasTerminator(text: string, from: number, to: number): boolean {
  for (let index = from; index < to; index++) {
    const char = text[index];
    if (char === '\n' || char === ';') return true;
    if ((char === '.' || char === '!' || char === '?') && isWhitespace(text[index + 1])) {
      return true;
    }
  }
  return false;
}

const WORD_SEPARATORS: ReadonlySet<string> = new Set(' \t\r\n:=~#.');

/** The lower-cased word before `position`, looking past separators and one filler word. */
function wordBefore(text: string, position: number, fillers: ReadonlySet<string>): string {
  let index = position;
  let word = '';
  for (let words = 0; words < 2; words++) {
    while (index > 0 && WORD_SEPARATORS.has(text[index - 1] ?? '')) index--;
    const wordEnd = index;
    while (index > 0 && isWordCharacter(text.charCodeAt(index - 1))) index--;
    word = text.slice(index, wordEnd).toLowerCase();
    if (!fillers.has(word)) break;
  }
  return word;
}

function inScope(state: ScanState, system: LabelSystem, start: number): boolean {
  const labelEnd = state.labelEnds[system];
  return start - labelEnd <= LABEL_SCOPE_CHARS && !hasTerminator(state.text, labelEnd, start);
}

/** The number of the capture group that matched, in a pattern of alternative groups. */
function firstGroup(match: RegExpExecArray): number {
  let group = 1;
  while (group < match.length && match[group] === undefined) group++;
  return group;
}

function trailingLabel(text: string, end: number): LabelSystem | null {
  TRAILING_LABEL.lastIndex = end;
  const label = TRAILING_LABEL.exec(text);
  if (label === null) return null;
  return TRAILING_LABEL_SYSTEMS[firstGroup(label) - 1] ?? null;
}

/** Looks up labels lazily: most tokens never need them. */
class TokenContext {
  readonly state: ScanState;
  readonly start: number;
  readonly end: number;
  private trailing: LabelSystem | null | undefined;

  constructor(state: ScanState, start: number, end: number) {
    this.state = state;
    this.start = start;
    this.end = end;
  }

  private trailingSystem(): LabelSystem | null {
    if (this.trailing === undefined) this.trailing = trailingLabel(this.state.text, this.end);
    return this.trailing;
  }

  labelled(system: LabelSystem): boolean {
    return this.trailingSystem() === system || inScope(this.state, system, this.start);
  }

  /** Of two systems that could claim the token, the one whose label is nearest. */
  nearer(first: LabelSystem, second: LabelSystem): LabelSystem | null {
    const trailing = this.trailingSystem();
    if (trailing === first || trailing === second) return trailing;
    const firstInScope = inScope(this.state, first, this.start);
    const secondInScope = inScope(this.state, second, this.start);
    if (firstInScope && secondInScope) {
      return this.state.labelEnds[first] >= this.state.labelEnds[second] ? first : second;
    }
    return firstInScope ? first : secondInScope ? second : null;
  }

  afterDx(): boolean {
    const { text, labelEnds, lastCodeEnd } = this.state;
    const labelEnd = labelEnds.Dx;
    if (labelEnd === NO_LABEL) return false;
    if (
      this.start - labelEnd <= LABEL_SCOPE_CHARS &&
      DX_GAP.test(text.slice(labelEnd, this.start))
    ) {
      return true;
    }
    return (
      lastCodeEnd >= labelEnd &&
      this.start - lastCodeEnd <= LIST_GAP_MAX_CHARS &&
      LIST_GAP.test(text.slice(lastCodeEnd, this.start))
    );
  }

  unitFollows(): boolean {
    UNIT_AFTER.lastIndex = this.end;
    return UNIT_AFTER.test(this.state.text);
  }

  followsMeasurementWord(): boolean {
    return MEASUREMENT_WORDS.has(wordBefore(this.state.text, this.start, MEASUREMENT_FILLERS));
  }

  candidate(type: CodeType, code: string, check: CheckResult | null): Candidate {
    return { type, code, start: this.start, end: this.end, check };
  }
}

function countDigits(value: string): number {
  let digits = 0;
  for (let index = 0; index < value.length; index++) {
    const charCode = value.charCodeAt(index);
    if (charCode >= 48 && charCode <= 57) digits++;
  }
  return digits;
}

function classifyPatientLabel(token: TokenContext, text: string): Candidate | null {
  const parts = PATIENT_LABEL_PARTS.exec(text);
  const label = parts?.[1]?.toLowerCase();
  const value = parts?.[2];
  if (label === undefined || value === undefined) return null;
  const canonical = label.startsWith('mrn')
    ? 'MRN'
    : label.startsWith('pid')
      ? 'PID'
      : label.startsWith('hosp')
        ? 'Hospital No'
        : 'Patient ID';
  return token.candidate('Patient ID', `${canonical} ${value}`, null);
}

function classifyPrefixed(token: TokenContext, text: string): Candidate | null {
  const hyphen = text.indexOf('-');
  const prefix = text.slice(0, hyphen);
  const value = text.slice(hyphen + 1);
  // A malformed assessment code is still worth showing, lowered, to whoever checks the notes.
  if (prefix === 'ASS') return token.candidate('Assessment Code', text, checkAssessmentCode(text));
  if (NOT_CODE_PREFIXES.has(prefix)) return null;
  if (value.length < MIN_PREFIXED_VALUE_CHARS || countDigits(value) < MIN_PREFIXED_VALUE_DIGITS)
    return null;
  if (PATIENT_ID_PREFIXES.has(prefix)) return token.candidate('Patient ID', text, null);
  if (MEDICATION_PREFIXES.has(prefix)) return token.candidate('Medication Code', text, null);
  if (prefix === 'LAB') return token.candidate('Lab Code', text, null);
  return token.candidate('Custom Code', text, null);
}

function isIcd10LookAlike(token: TokenContext, category: string): boolean {
  if (ICD10_LOOKALIKE_CATEGORIES.has(category)) return true;
  const word = wordBefore(token.state.text, token.start, ICD10_LOOKALIKE_FILLERS);
  return ICD10_LOOKALIKE_WORDS.has(word);
}

function classifyLetterCode(token: TokenContext, text: string): Candidate | null {
  const dotted = text.includes('.');
  // E849.0 is an ICD-9 external cause, E119 an ICD-10 code without its dot: the label decides.
  if (ICD9_E_CODE.test(text) && (token.afterDx() || token.nearer('ICD-9', 'ICD-10') === 'ICD-9')) {
    return token.candidate('ICD-9', text, checkIcd9(text));
  }
  // V01.x-V91.x read as ICD-9 supplementary codes (V58.67 long-term insulin) unless an ICD-10
  // label is nearer: ICD-10 transport-accident codes are rare in chronic-care notes.
  if (ICD9_V_CODE.test(text) && token.nearer('ICD-10', 'ICD-9') !== 'ICD-10') {
    return token.candidate('ICD-9', text, checkIcd9(text));
  }
  if (dotted && text.indexOf('.') !== 3) return null;
  const category = text.slice(0, 3);
  if (/[A-Z]$/.test(category) && !ICD10_LETTER_CATEGORIES.has(category)) return null;
  if (text.length > 3 && !dotted) {
    return token.labelled('ICD-10') ? token.candidate('ICD-10', text, checkIcd10(text)) : null;
  }
  if (!dotted && !token.labelled('ICD-10') && isIcd10LookAlike(token, category)) return null;
  return token.candidate('ICD-10', text, checkIcd10(text));
}

const SHORTEST_NUMERIC_CODE = 3;

/**
 * Most numbers in notes are vitals and doses: too short to be a code, or carrying a slash,
 * colon or thousands comma (BP, fractions, times, amounts), which no code has.
 */
function mayBeNumericCode(text: string): boolean {
  return (
    text.length >= SHORTEST_NUMERIC_CODE &&
    !text.includes('/') &&
    !text.includes(':') &&
    !text.includes(',')
  );
}

/** Shapes and labels first: the measurement guards only run for code-shaped numbers. */
function classifyNumber(token: TokenContext, text: string): Candidate | null {
  const candidate = numberCandidate(token, text);
  if (candidate === null || token.unitFollows()) return null;
  // LOINC codes name measurements ('LOINC body weight 29463-7'), so a labelled one may
  // follow a measurement word.
  const labelledLoinc = candidate.type === 'LOINC' && token.labelled('LOINC');
  return !labelledLoinc && token.followsMeasurementWord() ? null : candidate;
}

function numberCandidate(token: TokenContext, text: string): Candidate | null {
  const last = text[text.length - 1];
  if (last === 'F') return CPT_CATEGORY_II.test(text) ? token.candidate('CPT', text, null) : null;
  if (last === 'T') {
    return CPT_CATEGORY_III.test(text) && (text.startsWith('0') || token.labelled('CPT'))
      ? token.candidate('CPT', text, null)
      : null;
  }
  if (text.includes('-')) return hyphenatedCandidate(token, text);
  if (text.includes('.') || text.length === 3) {
    return ICD9_NUMERIC.test(text) ? icd9Candidate(token, text) : null;
  }
  if (text.length === 5) {
    const value = Number(text);
    const visitCode =
      value >= EVALUATION_AND_MANAGEMENT.first && value <= EVALUATION_AND_MANAGEMENT.last;
    return visitCode || token.labelled('CPT') ? token.candidate('CPT', text, null) : null;
  }
  return LONG_DIGITS.test(text) ? longNumberCandidate(token, text) : null;
}

function hyphenatedCandidate(token: TokenContext, text: string): Candidate | null {
  if (NDC_HYPHENATED.test(text)) {
    const check = checkNdc(text);
    return check.passed || token.labelled('NDC') ? token.candidate('NDC', text, check) : null;
  }
  if (LOINC_SHAPE.test(text)) {
    const check = checkLoinc(text);
    const unlabelledOk = check.passed && text.indexOf('-') >= UNLABELLED_LOINC_MIN_DIGITS;
    return unlabelledOk || token.labelled('LOINC') ? token.candidate('LOINC', text, check) : null;
  }
  return null;
}

/** Bare 250.00 is as often a glucose as a code: ICD-9 needs its label or a Dx just before. */
function icd9Candidate(token: TokenContext, text: string): Candidate | null {
  const afterDx = text.includes('.') && token.afterDx();
  return afterDx || token.labelled('ICD-9')
    ? token.candidate('ICD-9', text, checkIcd9(text))
    : null;
}

function longNumberCandidate(token: TokenContext, text: string): Candidate | null {
  const ndcLength = text.length === 10 || text.length === 11;
  const system = token.nearer('NDC', 'SNOMED CT');
  if (ndcLength && system === 'NDC') return token.candidate('NDC', text, checkNdc(text));
  SNOMED_TERM_AFTER.lastIndex = token.end;
  if (system === 'SNOMED CT' || SNOMED_TERM_AFTER.test(token.state.text)) {
    return token.candidate('SNOMED CT', text, checkSnomedCt(text));
  }
  return null;
}

function classifyToken(state: ScanState, token: RegExpExecArray, end: number): Candidate | null {
  const text = token[0];
  const start = token.index;
  const alternative = TOKEN_ALTERNATIVES[firstGroup(token) - 1];
  if (alternative === undefined) return null;
  if (alternative.kind === 'number' && !mayBeNumericCode(text)) return null;
  if (alternative.kind === 'label') {
    if (alternative.system !== undefined) state.labelEnds[alternative.system] = end;
    return null;
  }
  // 'E11.9x', '250.00mg', '1000Tabs': a code-shaped head glued to more text is not a code.
  if (alternative.kind !== 'patientLabel' && isWordCharacter(state.text.charCodeAt(end))) {
    return null;
  }
  const context = new TokenContext(state, start, end);
  switch (alternative.kind) {
    case 'assessment':
      return context.candidate('Assessment Code', text, checkAssessmentCode(text));
    case 'patientLabel':
      return classifyPatientLabel(context, text);
    case 'prefixed':
      return classifyPrefixed(context, text);
    case 'letterCode':
      return classifyLetterCode(context, text);
    case 'number':
      return classifyNumber(context, text);
  }
}

function isLowSurrogate(charCode: number): boolean {
  return charCode >= 0xdc00 && charCode <= 0xdfff;
}

const WHITESPACE = /\s/;

/** Whether `excerpt` has a whitespace run or whitespace other than a plain space. */
function hasWhitespaceToCollapse(excerpt: string): boolean {
  for (let index = 0; index < excerpt.length; index++) {
    const charCode = excerpt.charCodeAt(index);
    if (charCode === 32) {
      if (excerpt.charCodeAt(index + 1) === 32) return true;
    } else if (charCode < 32 || (charCode > 127 && WHITESPACE.test(excerpt[index] ?? ''))) {
      return true;
    }
  }
  return false;
}

/**
 * A copy of `value` that shares no memory with the note it was cut from. V8 keeps substrings
 * (and regex replacements) as views of their parent, so a kept code or context would keep the
 * whole note alive; a concatenation is flattened into a fresh string when sliced.
 */
function detached(value: string): string {
  return ` ${value}`.slice(1);
}

/** About CONTEXT_CHARS either side, whitespace collapsed, '…' where the text goes on. */
export function contextAround(text: string, start: number, end: number): string {
  let from = Math.max(0, start - CONTEXT_CHARS);
  let to = Math.min(text.length, end + CONTEXT_CHARS);
  if (from > 0 && isLowSurrogate(text.charCodeAt(from))) from++;
  if (to < text.length && isLowSurrogate(text.charCodeAt(to))) to--;
  let excerpt = text.slice(from, to);
  if (hasWhitespaceToCollapse(excerpt)) excerpt = excerpt.replace(/\s+/g, ' ');
  excerpt = excerpt.trim();
  return detached(`${from > 0 ? '…' : ''}${excerpt}${to < text.length ? '…' : ''}`);
}

function freshLabelEnds(): Record<LabelSystem, number> {
  return {
    'ICD-10': NO_LABEL,
    'ICD-9': NO_LABEL,
    CPT: NO_LABEL,
    LOINC: NO_LABEL,
    'SNOMED CT': NO_LABEL,
    NDC: NO_LABEL,
    Dx: NO_LABEL,
  };
}

/** Every code in `text`, plus the candidates whose checks failed (for the run's notes). */
export function scanText(text: string): ScanResult {
  const state: ScanState = { text, labelEnds: freshLabelEnds(), lastCodeEnd: NO_LABEL };
  const matches: CodeMatch[] = [];
  const checkFailures: CheckFailure[] = [];
  TOKEN_PATTERN.lastIndex = 0;
  for (let token = TOKEN_PATTERN.exec(text); token !== null; token = TOKEN_PATTERN.exec(text)) {
    const end = TOKEN_PATTERN.lastIndex;
    const candidate = classifyToken(state, token, end);
    if (candidate === null) continue;

    const labelSystem = LABEL_OF_TYPE[candidate.type];
    if (labelSystem !== undefined && inScope(state, labelSystem, candidate.start)) {
      state.labelEnds[labelSystem] = candidate.end;
    }
    state.lastCodeEnd = candidate.end;

    const { type, code, check } = candidate;
    const baseConfidence = BASE_CONFIDENCE[type];
    if (check !== null && !check.passed) {
      const action = baseConfidence === 'low' ? 'dropped' : 'lowered';
      checkFailures.push({ type, code, rule: check.rule, action });
      if (action === 'dropped') continue;
    }
    matches.push({
      code: detached(code),
      type,
      confidence: check === null || check.passed ? baseConfidence : 'low',
      context: contextAround(text, candidate.start, candidate.end),
      start: candidate.start,
      end: candidate.end,
      check:
        check === null
          ? 'none'
          : check.passed
            ? 'passed'
            : `failed: ${check.rule} (${detached(check.detail)})`,
    });
  }
  return { matches, checkFailures };
}

/** Every code found in one note or comment, in order of position. */
export function extractCodes(text: string): CodeMatch[] {
  return scanText(text).matches;
}
