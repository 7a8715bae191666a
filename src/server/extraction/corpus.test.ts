import { describe, expect, it } from 'vitest';
import { measureExtractionThroughput } from './benchmark.ts';
import { CORPUS, type CorpusNote } from './fixtures/corpus.ts';
import { extractCodes } from './extract.ts';
import { BASE_CONFIDENCE } from './patterns.ts';
import { CODE_TYPES, type CodeMatch, type CodeType } from './types.ts';

interface TypeScore {
  expected: number;
  found: number;
  truePositives: number;
  falsePositives: string[];
  falseNegatives: string[];
  confidenceMismatches: string[];
}

function emptyScore(): TypeScore {
  return {
    expected: 0,
    found: 0,
    truePositives: 0,
    falsePositives: [],
    falseNegatives: [],
    confidenceMismatches: [],
  };
}

/** Matches a note's found codes against its expected ones as multisets of type + code. */
function scoreNote(note: CorpusNote, found: CodeMatch[], scores: Map<CodeType, TypeScore>): void {
  const unmatched = [...found];
  for (const expected of note.expected) {
    const score = scores.get(expected.type) ?? emptyScore();
    score.expected++;
    const index = unmatched.findIndex(
      (match) => match.type === expected.type && match.code === expected.code,
    );
    if (index === -1) {
      score.falseNegatives.push(`${expected.code} in "${note.text}"`);
      continue;
    }
    const [match] = unmatched.splice(index, 1);
    score.truePositives++;
    if (match !== undefined && match.confidence !== expected.confidence) {
      score.confidenceMismatches.push(`${expected.code}: ${match.confidence}, ${match.check}`);
    }
  }
  for (const match of found) scores.get(match.type)!.found++;
  for (const match of unmatched) {
    scores.get(match.type)!.falsePositives.push(`${match.code} in "${note.text}"`);
  }
}

function scoreCorpus(): Map<CodeType, TypeScore> {
  const scores = new Map(CODE_TYPES.map((type) => [type, emptyScore()]));
  for (const note of CORPUS) scoreNote(note, extractCodes(note.text), scores);
  return scores;
}

function ratio(numerator: number, denominator: number): number {
  return denominator === 0 ? 1 : numerator / denominator;
}

const HIGH_CONFIDENCE_TYPES = CODE_TYPES.filter((type) => BASE_CONFIDENCE[type] === 'high');
const REQUIRED_SCORE = 0.95;

describe('test corpus', () => {
  const scores = scoreCorpus();

  it('holds at least 200 notes, assessment notes and doctor comments both', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(200);
    expect(CORPUS.some((note) => note.kind === 'doctor_comment')).toBe(true);
    expect(CORPUS.filter((note) => note.expected.length === 0).length).toBeGreaterThan(30);
  });

  it('prints precision and recall per type', () => {
    const rows = CODE_TYPES.map((type) => {
      const score = scores.get(type)!;
      return {
        type,
        confidence: BASE_CONFIDENCE[type],
        expected: score.expected,
        found: score.found,
        tp: score.truePositives,
        fp: score.falsePositives.length,
        fn: score.falseNegatives.length,
        precision: ratio(score.truePositives, score.found).toFixed(3),
        recall: ratio(score.truePositives, score.expected).toFixed(3),
      };
    });
    console.log(`Extraction on ${CORPUS.length} corpus notes`);
    console.table(rows);
    for (const [type, score] of scores) {
      for (const miss of score.falseNegatives) console.log(`missed ${type}: ${miss}`);
      for (const extra of score.falsePositives) console.log(`extra ${type}: ${extra}`);
    }
    expect(rows).toHaveLength(CODE_TYPES.length);
  });

  it.each(HIGH_CONFIDENCE_TYPES)('finds %s with precision and recall of at least 0.95', (type) => {
    const score = scores.get(type)!;
    expect(score.expected).toBeGreaterThanOrEqual(10);
    expect(ratio(score.truePositives, score.found)).toBeGreaterThanOrEqual(REQUIRED_SCORE);
    expect(ratio(score.truePositives, score.expected)).toBeGreaterThanOrEqual(REQUIRED_SCORE);
  });

  it('gives every code found the confidence its annotation expects', () => {
    const mismatches = [...scores.values()].flatMap((score) => score.confidenceMismatches);
    expect(mismatches).toEqual([]);
  });

  it('reports nothing at high confidence in notes without codes', () => {
    const highInCodeFreeNotes = CORPUS.filter((note) => note.expected.length === 0).flatMap(
      (note) =>
        extractCodes(note.text)
          .filter((match) => match.confidence === 'high')
          .map((match) => `${match.code} in "${note.text}"`),
    );
    expect(highInCodeFreeNotes).toEqual([]);
  });

  it('scans the corpus at a useful rate', () => {
    const measurement = measureExtractionThroughput(
      CORPUS.map((note) => note.text),
      5,
    );
    console.log(
      `Throughput: ${measurement.megabytes.toFixed(1)} MB, ${measurement.notes} notes, ` +
        `${measurement.matches} matches in ${measurement.milliseconds.toFixed(0)} ms = ` +
        `${measurement.megabytesPerSecond.toFixed(1)} MB/s`,
    );
    // A loose floor so a slow CI machine does not fail; the report gives measured figures.
    expect(measurement.megabytesPerSecond).toBeGreaterThan(1);
  });
});
