import { z } from 'zod';
import { score } from '../../engine/index.ts';
import { assessmentInputSchema, formatInputIssues } from '../../shared/assessment-input.ts';

/**
 * The shared schema with zod's generated fast path, which validates in about half the time; it
 * falls back to the plain parser on failure, so error messages are the same. Compiled here rather
 * than in src/shared because the fast path needs `new Function`, which a browser may forbid.
 */
const inputSchema = z.compile(assessmentInputSchema);

/** Results are written in chunks of about this many characters, not one write per line. */
const OUTPUT_CHUNK_CHARS = 64 * 1024;

type LineOutcome =
  | { readonly ok: true; readonly json: string }
  | { readonly ok: false; readonly problems: string[] };

/**
 * `triage score`: reads one assessment input (spec 3.2) per line of JSON, writes one result per
 * line in the same order. Blank lines are skipped. At the first invalid line it writes the results
 * of the lines before, reports the line number and the fields at fault, and returns exit code 1.
 */
export async function runScoreCommand(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  errors: NodeJS.WritableStream,
): Promise<number> {
  const decoder = new TextDecoder();
  let pending = '';
  let lineNumber = 0;
  let batch = '';

  const handleLine = (line: string): string[] | undefined => {
    lineNumber++;
    if (line.trim() === '') return undefined;
    const outcome = scoreLine(line);
    if (!outcome.ok) return outcome.problems.map((problem) => `line ${lineNumber}: ${problem}`);
    batch += outcome.json;
    return undefined;
  };

  const fail = async (problems: string[]): Promise<number> => {
    await writeChunk(output, batch);
    await writeChunk(errors, problems.map((problem) => `${problem}\n`).join(''));
    return 1;
  };

  for await (const chunk of input) {
    const text =
      pending + (typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true }));
    let lineStart = 0;
    let lineEnd = text.indexOf('\n');
    while (lineEnd !== -1) {
      const problems = handleLine(text.slice(lineStart, lineEnd));
      if (problems !== undefined) return fail(problems);
      if (batch.length >= OUTPUT_CHUNK_CHARS) {
        await writeChunk(output, batch);
        batch = '';
      }
      lineStart = lineEnd + 1;
      lineEnd = text.indexOf('\n', lineStart);
    }
    pending = text.slice(lineStart);
  }
  // The last line may lack its newline.
  const problems = handleLine(pending + decoder.decode());
  if (problems !== undefined) return fail(problems);
  await writeChunk(output, batch);
  return 0;
}

function scoreLine(line: string): LineOutcome {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    return { ok: false, problems: [`invalid JSON: ${(error as Error).message}`] };
  }
  const validated = inputSchema.safeParse(parsed);
  if (!validated.success) return { ok: false, problems: formatInputIssues(validated.error) };
  return { ok: true, json: `${JSON.stringify(score(validated.data))}\n` };
}

const closedMessage = 'the stream closed before everything was written';

/** Writes a chunk and, when the stream asks for it, waits until it drains (backpressure). */
function writeChunk(stream: NodeJS.WritableStream, chunk: string): Promise<void> {
  if (chunk === '') return Promise.resolve();
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
