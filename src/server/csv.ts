/**
 * One CSV cell per RFC 4180, made inert for spreadsheets: a cell that starts with =, +, - or @
 * (or a tab or carriage return, which some spreadsheets skip before a formula) gets a leading
 * apostrophe so that it is read as text, never as a formula.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record, CRLF-terminated as RFC 4180 prescribes. */
export function csvRow(
  values: ReadonlyArray<string | number | boolean | null | undefined>,
): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
