import { afterEach, describe, expect, it, vi } from 'vitest';
import { CODE_TYPES, type ExtractionResult } from '../../shared/api/code-extraction.ts';
import { ApiError, onSignedOut } from './client.ts';
import { extractCodes, parseExtractionLine, splitLines } from './code-extraction.ts';
import { failureOf, planFetch } from './planned-fetch.ts';

const result: ExtractionResult = {
  totals: { totalNotes: 2, notesWithCodes: 1, uniqueCodes: 1, totalMatches: 1 },
  countsByType: {
    ...(Object.fromEntries(
      CODE_TYPES.map((type) => [type, 0]),
    ) as ExtractionResult['countsByType']),
    'ICD-10': 1,
  },
  matches: [
    {
      code: 'E11.9',
      type: 'ICD-10',
      context: 'DM2 confirmed, E11.9.',
      source: { kind: 'assessment_note', assessmentId: 'a1', assessmentCode: null },
      confidence: 'high',
      check: 'passed',
    },
  ],
  inconsistencies: [],
  kindsSearched: [{ type: 'ICD-10', confidence: 'high', description: 'ICD-10 diagnosis codes' }],
  notes: [],
};

const progressLine = (scanned: number, total: number) =>
  `${JSON.stringify({ type: 'progress', scanned, total })}\n`;
const resultLine = `${JSON.stringify({ type: 'result', result })}\n`;

/** A streamed 200 answer that arrives in exactly these chunks. */
function streamedAnswer(chunks: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/x-ndjson' } });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('splitLines', () => {
  it('keeps an unfinished line for the next chunk', () => {
    expect(splitLines('', '{"a":1}\n{"b"')).toEqual({ lines: ['{"a":1}'], rest: '{"b"' });
    expect(splitLines('{"b"', ':2}\n')).toEqual({ lines: ['{"b":2}'], rest: '' });
  });

  it('handles CRLF and skips blank lines', () => {
    expect(splitLines('', '{"a":1}\r\n\r\n{"b":2}\n')).toEqual({
      lines: ['{"a":1}', '{"b":2}'],
      rest: '',
    });
  });
});

describe('parseExtractionLine', () => {
  it('reads progress, result and error lines', () => {
    expect(parseExtractionLine('{"type":"progress","scanned":2000,"total":5000}')).toEqual({
      type: 'progress',
      scanned: 2000,
      total: 5000,
    });
    expect(parseExtractionLine(resultLine)).toEqual({ type: 'result', result });
    expect(parseExtractionLine('{"type":"error"}')).toEqual({ type: 'error' });
  });

  it('refuses a line that is not JSON or not one of the kinds', () => {
    expect(() => parseExtractionLine('{"type":"progress"')).toThrow(ApiError);
    expect(() => parseExtractionLine('{"type":"progress","scanned":"1"}')).toThrow(ApiError);
  });
});

describe('extractCodes', () => {
  it('asks for the stream, reports progress and returns the result, across split chunks', async () => {
    const whole = progressLine(2000, 4000) + progressLine(4000, 4000) + resultLine;
    // Chunk boundaries inside lines and inside a multi-byte character of the context.
    const withAccent = whole.replace('DM2 confirmed', 'DM2 confirmé');
    const cut = withAccent.indexOf('é') + 1;
    const fetchMock = planFetch(
      streamedAnswer([withAccent.slice(0, 30), withAccent.slice(30, cut), withAccent.slice(cut)]),
    );
    const progress = vi.fn();

    const extracted = await extractCodes(progress);

    expect(extracted.matches[0]?.context).toBe('DM2 confirmé, E11.9.');
    expect(extracted.totals).toEqual(result.totals);
    expect(progress.mock.calls).toEqual([
      [{ scanned: 2000, total: 4000 }],
      [{ scanned: 4000, total: 4000 }],
    ]);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/code-extraction');
    expect(init?.method).toBe('POST');
    expect(init?.headers).toEqual({ accept: 'application/x-ndjson' });
  });

  it('reads a last line that has no newline', async () => {
    planFetch(streamedAnswer([progressLine(1, 1), resultLine.trimEnd()]));
    expect((await extractCodes(() => undefined)).totals.totalMatches).toBe(1);
  });

  it('fails when the server reports an error or the stream ends without a result', async () => {
    planFetch(streamedAnswer([progressLine(1, 2), '{"type":"error"}\n']));
    expect((await failureOf(extractCodes(() => undefined))).code).toBe('internal');

    planFetch(streamedAnswer([progressLine(1, 2)]));
    expect((await failureOf(extractCodes(() => undefined))).code).toBe('internal');
  });

  it("fails with the server's error for a refused call", async () => {
    planFetch(
      new Response(JSON.stringify({ error: { code: 'forbidden', message: 'Not allowed.' } }), {
        status: 403,
        headers: { 'content-type': 'application/json' },
      }),
    );
    const error = await failureOf(extractCodes(() => undefined));
    expect([error.status, error.code, error.message]).toEqual([403, 'forbidden', 'Not allowed.']);
  });

  it('tells the app the session ended when the call answers 401', async () => {
    planFetch(
      new Response(JSON.stringify({ error: { code: 'unauthenticated', message: 'Sign in.' } }), {
        status: 401,
        headers: { 'content-type': 'application/json' },
      }),
    );
    const signedOut = vi.fn();
    const stop = onSignedOut(signedOut);
    try {
      expect((await failureOf(extractCodes(() => undefined))).status).toBe(401);
      expect(signedOut).toHaveBeenCalledTimes(1);
    } finally {
      stop();
    }
  });
});
