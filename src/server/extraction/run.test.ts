import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { createExtractionRun } from './run.ts';
import type { NoteInput } from './types.ts';

function note(overrides: Partial<NoteInput> & Pick<NoteInput, 'text'>): NoteInput {
  return {
    kind: 'assessment_note',
    assessmentId: 'a-1',
    assessmentCode: 'ASS-LTSGK4W0-3M8P',
    diagnosed: {},
    ...overrides,
  };
}

describe('createExtractionRun', () => {
  it('counts notes, notes with codes, unique codes and matches', () => {
    const run = createExtractionRun();
    run.add(note({ text: 'Dx E11.9 and I10.' }));
    run.add(note({ text: 'E11.9 again; CPT 99213.' }));
    run.add(note({ text: 'BP 120/80, no codes here.' }));
    const result = run.finish();
    expect(result.totals).toEqual({
      totalNotes: 3,
      notesWithCodes: 2,
      uniqueCodes: 3,
      totalMatches: 4,
    });
    expect(result.countsByType).toMatchObject({ 'ICD-10': 3, CPT: 1, LOINC: 0 });
    expect(Object.keys(result.countsByType)).toHaveLength(11);
  });

  it('gives each match its source, with review id and condition for doctor comments', () => {
    const run = createExtractionRun();
    run.add(note({ text: 'E11.9', assessmentCode: null }));
    run.add(
      note({ kind: 'doctor_comment', reviewId: 'r-7', condition: 'DM2', text: 'Agree, E11.9.' }),
    );
    const [fromNote, fromComment] = run.finish().matches;
    expect(fromNote).toEqual({
      code: 'E11.9',
      type: 'ICD-10',
      context: 'E11.9',
      source: { kind: 'assessment_note', assessmentId: 'a-1', assessmentCode: null },
      confidence: 'high',
      check: 'passed',
    });
    expect(fromComment?.source).toEqual({
      kind: 'doctor_comment',
      assessmentId: 'a-1',
      assessmentCode: 'ASS-LTSGK4W0-3M8P',
      reviewId: 'r-7',
      condition: 'DM2',
    });
  });

  it('lists every kind of code searched with its confidence', () => {
    const { kindsSearched } = createExtractionRun().finish();
    expect(kindsSearched.map((kind) => `${kind.type}:${kind.confidence}`)).toEqual([
      'Assessment Code:high',
      'ICD-10:high',
      'ICD-9:high',
      'NDC:medium',
      'Medication Code:medium',
      'CPT:medium',
      'LOINC:low',
      'SNOMED CT:low',
      'Patient ID:low',
      'Lab Code:low',
      'Custom Code:low',
    ]);
  });

  it('says how many matches were lowered or dropped and why', () => {
    const run = createExtractionRun();
    run.add(note({ text: 'LOINC 4548-5, LOINC 2345-8 and ICD-10 K99.8.' }));
    run.add(note({ text: 'SNOMED CT 44054007.' }));
    expect(run.finish().notes).toEqual([
      '2 LOINC candidates dropped: check digit failed',
      '1 ICD-10 match lowered to low confidence: chapter range failed',
      '1 SNOMED CT candidate dropped: check digit failed',
    ]);
  });

  it('refuses notes after it has finished', () => {
    const run = createExtractionRun();
    run.finish();
    expect(() => run.add(note({ text: 'E11.9' }))).toThrow(/finished/);
  });
});

describe('cross-check against the assessment', () => {
  it.each([
    ['E11.65', 'DM2'],
    ['B20', 'HIV'],
    ['A15.0', 'TB'],
    ['J45.909', 'Asthma'],
    ['I12.9', 'Hypertension'],
    ['E78.5', 'Hyperlipidaemia'],
  ] as const)('flags %s when %s is recorded as not diagnosed', (code, condition) => {
    const run = createExtractionRun();
    run.add(note({ text: `Coded ${code} today.`, diagnosed: { [condition]: false } }));
    expect(run.finish().inconsistencies).toEqual([
      {
        assessmentId: 'a-1',
        assessmentCode: 'ASS-LTSGK4W0-3M8P',
        condition,
        code,
        context: `Coded ${code} today.`,
      },
    ]);
  });

  it('does not flag a condition that is diagnosed or not recorded', () => {
    const run = createExtractionRun();
    run.add(note({ text: 'E11.9', diagnosed: { DM2: true } }));
    run.add(note({ text: 'I10', diagnosed: { DM2: false } }));
    expect(run.finish().inconsistencies).toEqual([]);
  });

  it('flags doctor comments too, once per assessment, condition and code', () => {
    const run = createExtractionRun();
    const diagnosed = { DM2: false };
    run.add(note({ text: 'E11.9 and E11.9', diagnosed }));
    run.add(note({ kind: 'doctor_comment', reviewId: 'r-1', text: 'E11.9, E11.65', diagnosed }));
    run.add(note({ assessmentId: 'a-2', text: 'E11.9', diagnosed }));
    expect(run.finish().inconsistencies.map((item) => `${item.assessmentId} ${item.code}`)).toEqual(
      ['a-1 E11.9', 'a-1 E11.65', 'a-2 E11.9'],
    );
  });

  it('ignores ICD-9 codes and codes that failed their check', () => {
    const run = createExtractionRun();
    run.add(note({ text: 'ICD-9 250.00', diagnosed: { DM2: false } }));
    expect(run.finish().inconsistencies).toEqual([]);
  });
});

describe('memory', () => {
  it("keeps the matches but not the notes' text", () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const run = createExtractionRun();
    const heapBefore = (): number => {
      collectGarbage();
      return process.memoryUsage().heapUsed;
    };
    const baseline = heapBefore();
    const megabyte = 1024 * 1024;
    for (let index = 0; index < 5; index++) {
      // Each note is 4 MB of fresh text with long codes near its middle.
      const filler = `${index}`.padEnd(2 * megabyte, 'x');
      run.add(
        note({
          text: `${filler} LAB-20240315-0042 ASS-LTSGK4W0-3M8P ICD-10 K99.8 ${filler}`,
        }),
      );
    }
    // V8's legacy RegExp.input holds the last string a regex ran on (one string, so no leak);
    // a last small note moves it off the big ones.
    run.add(note({ text: 'Dx E11.9' }));
    const retained = heapBefore() - baseline;
    expect(run.finish().totals.totalMatches).toBe(16);
    expect(retained).toBeLessThan(2 * megabyte);
  });
});
