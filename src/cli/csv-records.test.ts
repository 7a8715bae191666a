import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsvRecords } from './csv-records.ts';

const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);

describe('parseCsvRecords', () => {
  it('reads cells, quotes, line breaks in quotes, and the line each record starts on', () => {
    const text =
      '\uFEFFcode,name,parent_code\r\nD1,"North, upper",\n\nF1,"Line one\nline two",D1\nQ,"say ""hi""",\n';
    expect(parseCsvRecords(text)).toEqual([
      { line: 1, cells: ['code', 'name', 'parent_code'] },
      { line: 2, cells: ['D1', 'North, upper', ''] },
      { line: 4, cells: ['F1', 'Line one\nline two', 'D1'] },
      { line: 6, cells: ['Q', 'say "hi"', ''] },
    ]);
  });

  it('refuses a quote left open, naming its line', () => {
    expect(() => parseCsvRecords('a,b\nc,"d\ne')).toThrow('line 2: a quoted cell is not closed');
  });

  it('reads what an RFC 4180 writer writes, as csv-parse does', () => {
    const cell = fc.string({
      unit: fc.constantFrom('a', 'B', '1', ',', '"', '\n', '\r\n', ' ', 'é'),
    });
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 6 }),
        (rows) => {
          const text = rows.map((row) => row.map(quote).join(',')).join('\r\n');
          const parsed = parseCsvRecords(text).map((record) => record.cells);
          expect(parsed).toEqual(rows);
          expect(parsed).toEqual(parse(text, { relax_column_count: true, skip_empty_lines: true }));
        },
      ),
    );
  });
});
