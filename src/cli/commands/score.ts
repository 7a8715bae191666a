import { z } from 'zod';
import { score } from '../../engine/index.ts';
import { readAssessmentInput } from '../score-input-reader.ts';
import { ResultJsonWriter } from '../score-result-json.ts';
import type { AssessmentInput } from '../../shared/assessment-input.ts';
import { assessmentInputSchema, formatInputIssues } from '../../shared/assessment-input.ts';

/**
 * The shared schema with zod's generated fast path, which validates in about half the time; it
 * falls back to the plain parser on failure, so error messages are the same. Compiled here rather
 * than in src/shared because the fast path needs `new Function`, which a browser may forbid.
 */
const inputSchema = z.compile(assessmentInputSchema);

export const usage = `Usage: triage score < inputs.jsonl > results.jsonl

Reads one assessment input (JSON) per line from standard input and writes one result per line,
in the same order, to standard output. At the first invalid line it reports the line number and
the fields at fault, and exits 1.
`;

/** Results are written in chunks of about this many characters, not one write per line. */
const OUTPUT_CHUNK_CHARS = 64 * 1024;

const NEWLINE = 0x0a;

/**
 * Decodes, one by one, the lines the fast reader leaves. It keeps a byte order mark: only the one
 * at the start of the input is dropped, as decoding the input as a whole did.
 */
const lineDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * `triage score`: reads one assessment input (spec 3.2) per line of JSON, writes one result per
 * line in the same order. Blank lines are skipped. At the first invalid line it writes the results
 * of the lines before, reports the line number and the fields at fault, and returns exit code 1.
 *
 * Lines are split and read as bytes: `readAssessmentInput` takes the common shape straight from
 * them, and anything else goes through JSON.parse and the schema, as every line once did, so the
 * errors are the same. Results are written by `ResultJsonWriter`, the text JSON.stringify would
 * give. A byte order mark at the start is skipped, as TextDecoder skips it; text chunks are read
 * as their UTF-8 bytes.
 */
export async function runScoreCommand(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  errors: NodeJS.WritableStream,
): Promise<number> {
  const writer = new ResultJsonWriter();
  /** The start of a line whose end has not come yet. */
  let pending: Uint8Array[] = [];
  let lineNumber = 0;

  const handleLine = (bytes: Uint8Array, start: number, end: number): string[] | undefined => {
    lineNumber++;
    if (lineNumber === 1 && startsWithByteOrderMark(bytes, start, end)) start += 3;
    const assessment = readAssessmentInput(bytes, start, end) ?? parseLine(bytes, start, end);
    if (assessment === undefined) return undefined;
    if ('problems' in assessment) {
      return assessment.problems.map((problem) => `line ${lineNumber}: ${problem}`);
    }
    writer.write(score(assessment));
    return undefined;
  };

  const fail = async (problems: string[]): Promise<number> => {
    await writeChunk(output, writer.take());
    await writeChunk(errors, problems.map((problem) => `${problem}\n`).join(''));
    return 1;
  };

  for await (const chunk of input) {
    const read: Uint8Array = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    // A line longer than a chunk is joined once, when its end has come: no copying per chunk.
    if (read.indexOf(NEWLINE) === -1) {
      pending.push(read);
      continue;
    }
    const bytes = pending.length === 0 ? read : Buffer.concat([...pending, read]);
    pending = [];
    let lineStart = 0;
    let lineEnd = bytes.indexOf(NEWLINE);
    while (lineEnd !== -1) {
      const problems = handleLine(bytes, lineStart, lineEnd);
      if (problems !== undefined) return fail(problems);
      if (writer.length >= OUTPUT_CHUNK_CHARS) await writeChunk(output, writer.take());
      lineStart = lineEnd + 1;
      lineEnd = bytes.indexOf(NEWLINE, lineStart);
    }
    pending.push(bytes.subarray(lineStart));
  }
  // The last line may lack its newline.
  const last = Buffer.concat(pending);
  const problems = handleLine(last, 0, last.length);
  if (problems !== undefined) return fail(problems);
  await writeChunk(output, writer.take());
  return 0;
}

/**
 * The slow path, for a line the reader did not take: undefined for a blank line, the input, or
 * the problems that refuse it.
 */
function parseLine(
  bytes: Uint8Array,
  start: number,
  end: number,
): AssessmentInput | { problems: string[] } | undefined {
  const line = lineDecoder.decode(bytes.subarray(start, end));
  if (line.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    return { problems: [`invalid JSON: ${(error as Error).message}`] };
  }
  const validated = inputSchema.safeParse(parsed);
  if (!validated.success) return { problems: formatInputIssues(validated.error) };
  return validated.data;
}

function startsWithByteOrderMark(bytes: Uint8Array, start: number, end: number): boolean {
  return (
    end - start >= 3 &&
    bytes[start] === 0xef &&
    bytes[start + 1] === 0xbb &&
    bytes[start + 2] === 0xbf
  );
}

const closedMessage = 'the stream closed before everything was written';

/** Writes a chunk and, when the stream asks for it, waits until it drains (backpressure). */
function writeChunk(stream: NodeJS.WritableStream, chunk: string): Promise<void> {
  if (chunk.length === 0) return Promise.resolve();
  // A destroyed stream takes writes without a word and never drains: waiting would hang.
  if (!stream.writable) return Promise.reject(new Error(closedMessage));
  if (stream.write(chunk)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      stream.off('drain', onDrain);
      stream.off('error', onError);
      stream.off('close', onClose);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onDrain = () => settle();
    const onError = (error: Error) => settle(error);
    const onClose = () => settle(new Error(closedMessage));
    stream.on('drain', onDrain);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}
