/**
 * One CSV cell per RFC 4180, made inert for spreadsheets: a cell that starts with =, +, - or @
 * (or a tab or carriage return, which some spreadsheets skip before a formula) gets a leading
 * apostrophe so that it is read as text, never as a formula.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  // A number or boolean prints with none of the characters that need quoting.
  if (typeof value !== 'string') return value === null || value === undefined ? '' : String(value);
  const text = startsLikeFormula(value.charCodeAt(0)) ? `'${value}` : value;
  return needsQuotes.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const needsQuotes = /[",\r\n]/;

/** =, +, -, @, tab or carriage return; compared by code, as a bulk export does this per cell. */
function startsLikeFormula(code: number): boolean {
  return code === 61 || code === 43 || code === 45 || code === 64 || code === 9 || code === 13;
}

/** One CSV record, CRLF-terminated as RFC 4180 prescribes. */
export function csvRow(
  values: ReadonlyArray<string | number | boolean | null | undefined>,
): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
