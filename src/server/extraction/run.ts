/**
 * A whole extraction scan, fed one note at a time. It keeps the matches and counters, never
 * the notes' text, so a server can stream every note in the database through it.
 */
import { conditionOfIcd10 } from './checks.ts';
import { scanText, type CheckFailure } from './extract.ts';
import { KINDS_SEARCHED } from './patterns.ts';
import {
  CODE_TYPES,
  type CodeType,
  type ExtractedMatch,
  type ExtractionResult,
  type Inconsistency,
  type MatchSource,
  type NoteInput,
} from './types.ts';

export interface ExtractionRun {
  add(note: NoteInput): void;
  /** Ends the run; `add` afterwards throws, since the result shares the run's arrays. */
  finish(): ExtractionResult;
}

interface FailureTally {
  type: CodeType;
  rule: string;
  action: CheckFailure['action'];
  count: number;
}

function sourceOf(note: NoteInput): MatchSource {
  const source: MatchSource = {
    kind: note.kind,
    assessmentId: note.assessmentId,
    assessmentCode: note.assessmentCode,
  };
  if (note.reviewId !== undefined) source.reviewId = note.reviewId;
  if (note.condition !== undefined) source.condition = note.condition;
  return source;
}

function describeFailures({ type, rule, action, count }: FailureTally): string {
  return action === 'lowered'
    ? `${count} ${type} ${count === 1 ? 'match' : 'matches'} lowered to low confidence: ${rule} failed`
    : `${count} ${type} ${count === 1 ? 'candidate' : 'candidates'} dropped: ${rule} failed`;
}

export function createExtractionRun(): ExtractionRun {
  let totalNotes = 0;
  let notesWithCodes = 0;
  let finished = false;
  const uniqueCodes = new Set<string>();
  const countsByType = Object.fromEntries(CODE_TYPES.map((type) => [type, 0])) as Record<
    CodeType,
    number
  >;
  const matches: ExtractedMatch[] = [];
  const inconsistencies: Inconsistency[] = [];
  const inconsistencyKeys = new Set<string>();
  const failureTallies = new Map<string, FailureTally>();

  function tally(failure: CheckFailure): void {
    const key = `${failure.type}\u0000${failure.action}\u0000${failure.rule}`;
    const existing = failureTallies.get(key);
    if (existing === undefined) {
      failureTallies.set(key, {
        type: failure.type,
        rule: failure.rule,
        action: failure.action,
        count: 1,
      });
    } else {
      existing.count++;
    }
  }

  function crossCheck(note: NoteInput, match: ExtractedMatch): void {
    if (match.type !== 'ICD-10' || match.check !== 'passed') return;
    const condition = conditionOfIcd10(match.code);
    if (condition === null || note.diagnosed[condition] !== false) return;
    const key = `${note.assessmentId}\u0000${condition}\u0000${match.code}`;
    if (inconsistencyKeys.has(key)) return;
    inconsistencyKeys.add(key);
    inconsistencies.push({
      assessmentId: note.assessmentId,
      assessmentCode: note.assessmentCode,
      condition,
      code: match.code,
      context: match.context,
    });
  }

  return {
    add(note) {
      if (finished) throw new Error('This extraction run has finished; start a new one.');
      totalNotes++;
      const { matches: found, checkFailures } = scanText(note.text);
      checkFailures.forEach(tally);
      if (found.length === 0) return;
      notesWithCodes++;
      const source = sourceOf(note);
      for (const { code, type, context, confidence, check } of found) {
        const match: ExtractedMatch = { code, type, context, source, confidence, check };
        matches.push(match);
        countsByType[type]++;
        uniqueCodes.add(`${type}\u0000${code}`);
        crossCheck(note, match);
      }
    },

    finish() {
      finished = true;
      return {
        totals: {
          totalNotes,
          notesWithCodes,
          uniqueCodes: uniqueCodes.size,
          totalMatches: matches.length,
        },
        countsByType,
        matches,
        inconsistencies,
        kindsSearched: [...KINDS_SEARCHED],
        notes: [...failureTallies.values()].map(describeFailures),
      };
    },
  };
}
