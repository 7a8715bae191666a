import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { linesPerFile, PageLines } from './bulk-export.ts';

describe("a bulk export page's chunks", () => {
  it('fill each file up to its last line and go on in the next, gzipped', async () => {
    const page = new PageLines();
    for (let index = 0; index < linesPerFile + 2; index++) {
      page.add('Patient', { resourceType: 'Patient', id: String(index) });
    }
    page.add('Organization', { resourceType: 'Organization', id: 'u' });
    // The Patient file has room for one more line; the Organizations start their first.
    const files = new Map([['Patient', { fileIndex: 1, lines: linesPerFile - 1, chunks: 3 }]]);
    const chunks = await page.chunks(files);
    expect(
      chunks.map((chunk) => [
        chunk.resource_type,
        chunk.file_index,
        chunk.chunk_index,
        chunk.line_count,
      ]),
    ).toEqual([
      ['Patient', 1, 3, 1],
      ['Patient', 2, 0, linesPerFile],
      ['Patient', 3, 0, 1],
      ['Organization', 1, 0, 1],
    ]);
    expect(files.get('Patient')).toEqual({ fileIndex: 3, lines: 1, chunks: 1 });
    expect(page.count).toBe(linesPerFile + 3);
    const text = (index: number) =>
      zlib.gunzipSync(chunks[index]?.ndjson_gzip ?? new Uint8Array()).toString('utf8');
    expect(text(0)).toBe('{"resourceType":"Patient","id":"0"}\n');
    expect(text(2)).toBe(`{"resourceType":"Patient","id":"${linesPerFile + 1}"}\n`);
    expect(text(1).split('\n')).toHaveLength(linesPerFile + 1);
  });
});
