import { describe, expect, it } from 'vitest';
import { csvCell, csvRow } from './csv.ts';

describe('csvCell', () => {
  it('writes nothing for a missing value, and numbers and booleans as JavaScript prints them', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(0)).toBe('0');
    expect(csvCell(-0)).toBe('0');
    expect(csvCell(-1.5)).toBe('-1.5');
    expect(csvCell(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(csvCell(1e-7)).toBe('1e-7');
    expect(csvCell(1e21)).toBe('1e+21');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(false)).toBe('false');
  });

  it('leaves plain text as it is', () => {
    expect(csvCell('')).toBe('');
    expect(csvCell('ASS-MWR64QL8-AKRP')).toBe('ASS-MWR64QL8-AKRP');
    expect(csvCell("it's 2 o'clock")).toBe("it's 2 o'clock");
    expect(csvCell('a-b+c=d@e')).toBe('a-b+c=d@e');
  });

  it('quotes text holding a comma, a quote or a line break, doubling the quotes', () => {
    expect(csvCell('one, two')).toBe('"one, two"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell('line\r\nbreak')).toBe('"line\r\nbreak"');
    expect(csvCell('"')).toBe('""""');
  });

  it('makes text that a spreadsheet would read as a formula inert', () => {
    for (const first of ['=', '+', '-', '@', '\t', '\r']) {
      expect(csvCell(`${first}1`), JSON.stringify(first)).toBe(
        first === '\r' ? `"'\r1"` : `'${first}1`,
      );
    }
    expect(csvCell('=HYPERLINK("http://evil.example","click")')).toBe(
      `"'=HYPERLINK(""http://evil.example"",""click"")"`,
    );
    // A number is a value, never a formula, even when negative.
    expect(csvCell(-2)).toBe('-2');
    expect(csvCell('-')).toBe("'-");
  });
});

describe('csvRow', () => {
  it('joins the cells with commas and ends the record with CRLF', () => {
    expect(csvRow(['a', 1, true, null, undefined, 'b,c'])).toBe('a,1,true,,,"b,c"\r\n');
    expect(csvRow([])).toBe('\r\n');
  });
});
