import { afterEach, describe, expect, it, vi } from 'vitest';
import { onSignedOut } from './client.ts';
import { attachmentFileName, downloadAttachment } from './reports.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('attachmentFileName', () => {
  const fallback = 'report.txt';

  it("reads the server's quoted file name", () => {
    expect(
      attachmentFileName(
        'attachment; filename="comprehensive-assessment-ASS-M3X9K2-AB12-2025-01-31.txt"',
        fallback,
      ),
    ).toBe('comprehensive-assessment-ASS-M3X9K2-AB12-2025-01-31.txt');
  });

  it('reads an unquoted name and prefers the RFC 5987 form', () => {
    expect(attachmentFileName('attachment; filename=matches.csv; size=10', fallback)).toBe(
      'matches.csv',
    );
    expect(
      attachmentFileName(
        `attachment; filename="plain.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20notes.txt`,
        fallback,
      ),
    ).toBe('résumé notes.txt');
  });

  it('unescapes quoted characters', () => {
    expect(attachmentFileName('attachment; filename="say \\"hi\\".txt"', fallback)).toBe(
      'say "hi".txt',
    );
  });

  it('falls back when there is no usable name', () => {
    expect(attachmentFileName(null, fallback)).toBe(fallback);
    expect(attachmentFileName('attachment', fallback)).toBe(fallback);
    expect(attachmentFileName('attachment; filename=""', fallback)).toBe(fallback);
    expect(attachmentFileName('attachment; filename=".."', fallback)).toBe(fallback);
  });

  it('never keeps a folder part', () => {
    expect(attachmentFileName('attachment; filename="../../etc/passwd"', fallback)).toBe('passwd');
    expect(attachmentFileName('attachment; filename="C:\\\\temp\\\\x.txt"', fallback)).toBe(
      'x.txt',
    );
  });

  it('uses the plain name when the encoded one is malformed', () => {
    expect(
      attachmentFileName(`attachment; filename="ok.txt"; filename*=UTF-8''bad%E0%A4.txt`, fallback),
    ).toBe('ok.txt');
  });
});

describe('downloadAttachment', () => {
  it('tells the app the session ended when a download answers 401', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response(
            JSON.stringify({ error: { code: 'unauthenticated', message: 'Please sign in.' } }),
            { status: 401, headers: { 'content-type': 'application/json' } },
          ),
        ),
      ),
    );
    const signedOut = vi.fn();
    const stop = onSignedOut(signedOut);
    try {
      await expect(
        downloadAttachment('/api/code-extraction/report.txt', 'r.txt'),
      ).rejects.toMatchObject({ status: 401, code: 'unauthenticated' });
      expect(signedOut).toHaveBeenCalledTimes(1);
    } finally {
      stop();
    }
  });
});
