import fc from 'fast-check';
import { Readable, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { PatientData } from '../../engine/index.ts';
import { score } from '../../engine/index.ts';
import { assessmentInputSchema, formatInputIssues } from '../../shared/assessment-input.ts';
import {
  editedLineArbitrary,
  mutatedLineArbitrary,
  validLineArbitrary,
} from '../testing/assessment-lines.ts';
import { runScoreCommand } from './score.ts';

/** A writable stream that keeps what it is given. */
class Collector extends Writable {
  readonly chunks: Buffer[] = [];
  get bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
  get text(): string {
    return this.bytes.toString('utf8');
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error) => void): void {
    this.chunks.push(chunk);
    done();
  }
}

async function runCollecting(chunks: (string | Buffer)[]) {
  const output = new Collector();
  const errors = new Collector();
  const exitCode = await runScoreCommand(Readable.from(chunks), output, errors);
  return { exitCode, output, errors };
}

async function run(chunks: (string | Buffer)[]) {
  const { exitCode, output, errors } = await runCollecting(chunks);
  return { exitCode, output: output.text, errors: errors.text };
}

/**
 * `triage score` as it was written first, line by line with JSON.parse, the schema and
 * JSON.stringify: the command must write the same bytes and the same errors.
 */
function reference(text: string) {
  let output = '';
  // Decoding the whole input, as it did, drops a byte order mark at the start.
  const decoded = text.startsWith('\uFEFF') ? text.slice(1) : text;
  for (const [index, line] of decoded.split('\n').entries()) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      const errors = `line ${index + 1}: invalid JSON: ${(error as Error).message}\n`;
      return { exitCode: 1, output, errors };
    }
    const validated = assessmentInputSchema.safeParse(parsed);
    if (!validated.success) {
      const problems = formatInputIssues(validated.error);
      const errors = problems.map((problem) => `line ${index + 1}: ${problem}\n`).join('');
      return { exitCode: 1, output, errors };
    }
    output += `${JSON.stringify(score(validated.data))}\n`;
  }
  return { exitCode: 0, output, errors: '' };
}

const inputs: PatientData[] = [
  {},
  {
    demographics: { age: 58, gender: 'Female', height: 165, weight: 80 },
    riskFactors: { familyHistory: { DM2: true } },
    symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
  },
  {
    demographics: { age: 30, gender: 'Male' },
    symptoms: { Asthma: { wheezing: { present: true, severity: 'severe' } } },
    management: { TB: { diagnosed: true, lastDoctorVisit: 'never' } },
  },
];
const lines = inputs.map((input) => JSON.stringify(input));
const expectedOutput = inputs.map((input) => `${JSON.stringify(score(input))}\n`).join('');

describe('triage score (runScoreCommand)', () => {
  it('writes one result per input line, in order, and exits 0', async () => {
    const result = await run([`${lines.join('\n')}\n`]);
    expect(result).toEqual({ exitCode: 0, output: expectedOutput, errors: '' });
  });

  it('reads lines split anywhere across chunks, multi-byte characters included', async () => {
    const text = Buffer.from(`${lines.join('\n')}\n`);
    for (const size of [1, 7, 64]) {
      const chunks: Buffer[] = [];
      for (let start = 0; start < text.length; start += size)
        chunks.push(text.subarray(start, start + size));
      expect((await run(chunks)).output, `chunks of ${size} bytes`).toBe(expectedOutput);
    }
    // A character split between two chunks still decodes: 'é' is two bytes in UTF-8, and the
    // JSON error quotes it back.
    const accented = Buffer.from('é\n');
    const refused = await run([accented.subarray(0, 1), accented.subarray(1)]);
    expect(refused.errors).toMatch(/^line 1: invalid JSON: .*é/);
    expect(refused.errors).not.toContain('\uFFFD');
  });

  it('scores a last line without a newline, and skips blank lines and carriage returns', async () => {
    const result = await run([`\n${lines[0]}\r\n\r\n  \n${lines[1]}\n${lines[2]}`]);
    expect(result).toEqual({ exitCode: 0, output: expectedOutput, errors: '' });
  });

  it('writes nothing for no input', async () => {
    expect(await run([])).toEqual({ exitCode: 0, output: '', errors: '' });
  });

  it('stops at invalid JSON with the line number, after the results of the lines before', async () => {
    const result = await run([`${lines[0]}\n${lines[1]}\n{"demographics":\n${lines[2]}\n`]);
    expect(result.exitCode).toBe(1);
    expect(result.output).toBe(
      inputs
        .slice(0, 2)
        .map((input) => `${JSON.stringify(score(input))}\n`)
        .join(''),
    );
    expect(result.errors).toMatch(/^line 3: invalid JSON: .+\n$/);
  });

  it('stops at an input the schema refuses, naming the line and the field', async () => {
    const result = await run([`${lines[0]}\n{"demographics":{"age":130}}\n${lines[1]}\n`]);
    expect(result).toEqual({
      exitCode: 1,
      output: `${JSON.stringify(score(inputs[0] ?? {}))}\n`,
      errors: 'line 2: demographics.age: Too big: expected number to be <=120\n',
    });
  });

  it('reports every problem of the refused line, one per line', async () => {
    const result = await run([
      '{"symptoms":{"HIV":{"weightLoss":{"present":true,"severity":"mild"}}},"management":{"COPD":{"diagnosed":true}}}\n',
    ]);
    expect(result.errors).toBe(
      [
        'line 1: symptoms.HIV.weightLoss.severity: Invalid option: expected one of "loss"|"gain"',
        'line 1: management: Unknown condition "COPD"',
        '',
      ].join('\n'),
    );
  });

  it('counts blank lines in the line numbers', async () => {
    const result = await run([`${lines[0]}\n\n[]\n`]);
    expect(result.errors).toBe('line 3: Invalid input: expected object, received array\n');
  });

  it('writes in batches and waits for a slow output to drain', async () => {
    const count = 2000;
    let writes = 0;
    let mostBuffered = 0;
    const slowOutput = new Writable({
      highWaterMark: 1024,
      write(_chunk, _encoding, done) {
        writes++;
        mostBuffered = Math.max(mostBuffered, this.writableLength);
        setImmediate(done);
      },
    });
    const text = `${Array.from({ length: count }, (_, index) => lines[index % lines.length]).join('\n')}\n`;
    const exitCode = await runScoreCommand(Readable.from([text]), slowOutput, new Collector());
    expect(exitCode).toBe(0);
    expect(writes).toBeGreaterThan(1);
    expect(writes).toBeLessThan(count / 10);
    // Without waiting for 'drain', every result would be buffered at once (about 5 MB).
    expect(mostBuffered).toBeLessThan(2 * 64 * 1024 + 4096);
  });

  it('writes what JSON.parse, the schema and JSON.stringify give, for any lines in any chunks', async () => {
    const lineArbitrary = fc.oneof(
      { weight: 6, arbitrary: validLineArbitrary() },
      validLineArbitrary().map((line) => `${line}\r`),
      fc.constantFrom('', ' ', '\t\r', '\u00a0', '\uFEFF{}'),
      mutatedLineArbitrary,
      editedLineArbitrary,
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineArbitrary, { maxLength: 30 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 4096 }),
        async (lines, finalNewline, chunkBytes) => {
          const text = lines.join('\n') + (finalNewline ? '\n' : '');
          const bytes = Buffer.from(text);
          const chunks: Buffer[] = [];
          for (let start = 0; start < bytes.length; start += chunkBytes) {
            chunks.push(bytes.subarray(start, start + chunkBytes));
          }
          const { exitCode, output, errors } = await runCollecting(chunks);
          const expected = reference(text);
          expect({ exitCode, output: output.text, errors: errors.text }).toEqual(expected);
          expect(output.bytes.equals(Buffer.from(expected.output))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('skips a byte order mark at the start only, as a decoder of the whole input does', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const result = await run([
      bom.subarray(0, 1),
      Buffer.concat([bom.subarray(1), Buffer.from(`${lines[0]}\n`)]),
    ]);
    expect(result).toEqual({ exitCode: 0, output: `${JSON.stringify(score({}))}\n`, errors: '' });
    const later = await run([
      Buffer.concat([Buffer.from(`${lines[0]}\n`), bom, Buffer.from('{}\n')]),
    ]);
    expect(later.exitCode).toBe(1);
    expect(later.errors).toMatch(/^line 2: invalid JSON: /);
  });

  it('rejects instead of hanging when the output is closed', async () => {
    const closed = new Collector();
    closed.destroy();
    await expect(
      runScoreCommand(Readable.from([`${lines[0]}\n`]), closed, new Collector()),
    ).rejects.toThrow('closed');
  });
});
