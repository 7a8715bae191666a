import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assessmentInputSchema } from '../shared/assessment-input.ts';
import { readAssessmentInput } from './score-input-reader.ts';
import {
  editedLineArbitrary,
  mutatedLineArbitrary,
  validLineArbitrary,
} from './testing/assessment-lines.ts';

const encoder = new TextEncoder();

function read(line: string) {
  return readAssessmentInput(encoder.encode(line));
}

/**
 * The reader's promise: whatever it takes, JSON.parse and the schema take too, and give the same
 * input (Object.is on every value, so -0 stays -0). Returns whether the reader took the line.
 */
function expectReadAsTheSchemaReads(line: string): boolean {
  const fast = read(line);
  if (fast === undefined) return false;
  const slow = assessmentInputSchema.safeParse(JSON.parse(line));
  expect(slow.success, line).toBe(true);
  expect(fast, line).toStrictEqual(slow.data);
  return true;
}

describe('readAssessmentInput', () => {
  it('reads every valid input as JSON.parse and the schema read it, whatever the whitespace', () => {
    fc.assert(
      fc.property(validLineArbitrary([undefined, 1, 2, '\t', ' \r']), (line) => {
        expect(expectReadAsTheSchemaReads(line)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('takes nothing the schema refuses, and reads what it takes as the schema does: changed inputs', () => {
    let taken = 0;
    fc.assert(
      fc.property(mutatedLineArbitrary, (line) => {
        if (expectReadAsTheSchemaReads(line)) taken++;
      }),
      { numRuns: 3000 },
    );
    // Many changes leave a valid input (a key removed, a value replaced by a valid one).
    expect(taken).toBeGreaterThan(100);
  });

  it('takes nothing that is not JSON or that the schema refuses: edited text', () => {
    let taken = 0;
    fc.assert(
      fc.property(editedLineArbitrary, (line) => {
        if (expectReadAsTheSchemaReads(line)) taken++;
      }),
      { numRuns: 3000 },
    );
    // Most edits break the JSON; some (whitespace, a digit) leave it valid: about 1 in 150.
    expect(taken).toBeGreaterThan(0);
  });

  it('takes a value only as JSON.parse and the schema do: any short text in its place', () => {
    const tokenArbitrary = fc.string({
      unit: fc.constantFrom(...'-+.eE0123456789 "truefalsMl\\'.split('')),
      maxLength: 8,
    });
    const places = [
      (token: string) => `{"demographics":{"age":${token}}}`,
      (token: string) => `{"demographics":{"height":${token}}}`,
      (token: string) => `{"demographics":{"gender":${token}}}`,
      (token: string) => `{"riskFactors":{"smoking":${token}}}`,
      (token: string) => `{"symptoms":{"TB":{"fever":{"present":true,"severity":${token}}}}}`,
    ];
    let taken = 0;
    fc.assert(
      fc.property(tokenArbitrary, fc.constantFrom(...places), (token, place) => {
        if (expectReadAsTheSchemaReads(place(token))) taken++;
      }),
      { numRuns: 5000 },
    );
    expect(taken).toBeGreaterThan(20);
  });

  it('keeps the last of repeated keys, as JSON.parse does', () => {
    for (const line of [
      '{"demographics":{"age":30},"demographics":{"gender":"Male"}}',
      '{"demographics":{"age":30,"age":40}}',
      '{"symptoms":{"TB":{"fever":{"present":true,"present":false}}}}',
    ]) {
      expect(expectReadAsTheSchemaReads(line), line).toBe(true);
    }
  });

  it('reads numbers as JSON.parse does', () => {
    for (const height of ['-0', '50', '1e2', '1.7E+2', '175.25', '170.00000000000001', '2.5e2']) {
      const line = `{"demographics":{"age":${height === '-0' ? '-0' : '40'},"height":${height === '-0' ? '100' : height}}}`;
      expect(expectReadAsTheSchemaReads(line), line).toBe(true);
    }
    expect(Object.is(read('{"demographics":{"age":-0}}')?.demographics?.age, -0)).toBe(true);
  });

  it('leaves to the schema what it does not recognise, valid or not', () => {
    for (const line of [
      '',
      '   ',
      '[]',
      'null',
      '{"demographics":{"gender":"Fem\\u0061le"}}',
      '{"demographics":{"age":40.5}}',
      '{"demographics":{"age":"40"}}',
      '{"demographics":{"age":01}}',
      '{"demographics":{"age":1.}}',
      '{"demographics":{"age":121}}',
      '{"demographics":{"age":40}} x',
      '{"demographics":{"age":40}',
      '{"demographics":null}',
      '{"symptoms":{"HIV":{"weightLoss":{"present":true,"severity":"mild"}}}}',
      '{"symptoms":{"DM2":{"fatigue":{"severity":"mild"}}}}',
      '{"management":{"TB":{"lastDoctorVisit":"never"}}}',
      '{"notes":"x"}',
      '{"__proto__":{}}',
      '\u00a0{}',
      '{"demographics":{"gender":"Männlich"}}',
    ]) {
      expect(read(line), line).toBeUndefined();
    }
  });

  it('reads only the line it is given', () => {
    const bytes = encoder.encode('{"demographics":{"age":40}}\n{"x":1}');
    expect(readAssessmentInput(bytes, 0, 27)).toEqual({ demographics: { age: 40 } });
    expect(readAssessmentInput(bytes, 0, 26)).toBeUndefined();
    expect(readAssessmentInput(encoder.encode('{"demographics":{"age":4}}0'), 0, 26)).toEqual({
      demographics: { age: 4 },
    });
  });
});
