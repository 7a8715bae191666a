/** Shared types of the nurse-notes code extractor (spec 2.5, 3.6, 9.4). */
import { CONDITIONS, type Condition } from '../../engine/index.ts';
import { CODE_TYPES } from '../../shared/api/code-extraction.ts';

export { CODE_TYPES, CONDITIONS, type Condition };

export type CodeType = (typeof CODE_TYPES)[number];

export type Confidence = 'high' | 'medium' | 'low';

/** 'none' where the code system has no check to run (CPT, RX/MED codes, ids). */
export type CheckOutcome = 'passed' | 'none' | `failed: ${string}`;

export interface CodeMatch {
  code: string;
  type: CodeType;
  confidence: Confidence;
  /** About 50 characters either side of the code, whitespace collapsed. */
  context: string;
  /** UTF-16 offsets of the code (with its label, for 'MRN 1234567' forms) in the text. */
  start: number;
  end: number;
  check: CheckOutcome;
}

export type NoteKind = 'assessment_note' | 'doctor_comment';

export interface NoteInput {
  kind: NoteKind;
  assessmentId: string;
  assessmentCode: string | null;
  reviewId?: string;
  /** The condition a doctor comment was written for. */
  condition?: string;
  text: string;
  /** What the assessment says per condition; a missing entry means not known. */
  diagnosed: Partial<Record<Condition, boolean>>;
}

export interface MatchSource {
  kind: NoteKind;
  assessmentId: string;
  assessmentCode: string | null;
  reviewId?: string;
  condition?: string;
}

export interface ExtractedMatch {
  code: string;
  type: CodeType;
  context: string;
  source: MatchSource;
  confidence: Confidence;
  check: CheckOutcome;
}

/** A condition code in a note whose assessment records that condition as not diagnosed. */
export interface Inconsistency {
  assessmentId: string;
  assessmentCode: string | null;
  condition: Condition;
  code: string;
  context: string;
}

export interface KindSearched {
  type: CodeType;
  confidence: Confidence;
  description: string;
}

export interface ExtractionTotals {
  totalNotes: number;
  notesWithCodes: number;
  uniqueCodes: number;
  totalMatches: number;
}

export interface ExtractionResult {
  totals: ExtractionTotals;
  countsByType: Record<CodeType, number>;
  matches: ExtractedMatch[];
  inconsistencies: Inconsistency[];
  kindsSearched: KindSearched[];
  /** What the checks changed, e.g. '3 LOINC candidates dropped: check digit failed'. */
  notes: string[];
}
