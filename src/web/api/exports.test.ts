import { afterEach, describe, expect, it, vi } from 'vitest';
import { friendlyMessages } from '../../shared/texts.ts';
import { ApiError, onSignedOut } from './client.ts';
import { fetchBulkExport, fileNameFromDisposition } from './exports.ts';
import { planFetch } from './planned-fetch.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A response whose body arrives in the given pieces. */
function streamed(pieces: string[], headers: Record<string, string>): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers });
}

describe('fileNameFromDisposition', () => {
  it.each([
    ['attachment; filename="assessments-2026-11-22.csv"', 'assessments-2026-11-22.csv'],
    ['attachment; filename=report.txt', 'report.txt'],
    ["attachment; filename*=UTF-8''assessment%20reports.txt", 'assessment reports.txt'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment', 'fallback.txt'],
    [null, 'fallback.txt'],
  ])('reads %s', (header, expected) => {
    expect(fileNameFromDisposition(header, 'fallback.txt')).toBe(expected);
  });
});

describe('fetchBulkExport', () => {
  it('asks for the export narrowed like the history and reports bytes as they arrive', async () => {
    const fetchMock = planFetch(
      streamed(['assessment_id,', 'assessment_code\n', 'a1,ASS-1\n'], {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="assessments-2026-11-22.csv"',
      }),
    );
    const progress: number[] = [];
    const file = await fetchBulkExport(
      'csv',
      { q: 'signed off', from: '2026-11-01', to: undefined },
      (bytes) => progress.push(bytes),
    );
    expect(fetchMock.mock.calls[0]?.[0]).toBe(
      '/api/exports/assessments.csv?q=signed+off&from=2026-11-01',
    );
    expect(progress).toEqual([0, 14, 30, 39]);
    expect(file.fileName).toBe('assessments-2026-11-22.csv');
    expect(file.blob.type).toBe('text/csv; charset=utf-8');
    expect(await file.blob.text()).toBe('assessment_id,assessment_code\na1,ASS-1\n');
  });

  it("throws the server's error for a refused export", async () => {
    planFetch(
      new Response(
        JSON.stringify({ error: { code: 'forbidden', message: 'You do not have permission.' } }),
        { status: 403, headers: { 'content-type': 'application/json' } },
      ),
    );
    const failure: unknown = await fetchBulkExport('txt', {}, () => undefined).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ status: 403, code: 'forbidden' });
  });

  it('tells the app the session ended when the export answers 401', async () => {
    const fetchMock = planFetch(
      new Response(JSON.stringify({ error: { code: 'unauthenticated', message: 'Sign in' } }), {
        status: 401,
      }),
    );
    const signedOut = vi.fn();
    const stop = onSignedOut(signedOut);
    try {
      await expect(fetchBulkExport('txt', {}, () => undefined)).rejects.toMatchObject({
        status: 401,
        code: 'unauthenticated',
      });
      expect(signedOut).toHaveBeenCalledTimes(1);
      // Told directly: no second call to find out.
      expect(fetchMock).toHaveBeenCalledTimes(1);
    } finally {
      stop();
    }
  });

  it('turns a failed connection into the network message', async () => {
    planFetch(new TypeError('Failed to fetch'));
    await expect(fetchBulkExport('txt', {}, () => undefined)).rejects.toMatchObject({
      status: 0,
      code: 'network',
      message: friendlyMessages.network,
    });
  });
});
