/** One record of a CSV file and the line of the file it starts on (1 for the first). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/**
 * Reads CSV text as RFC 4180 writes it: cells separated by commas, records by CRLF or LF, a cell
 * in double quotes may hold commas, line breaks and doubled quotes. A byte order mark at the
 * start and blank lines are skipped. A quote left open is refused, naming the line it opened on.
 */
export function parseCsvRecords(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let recordLine = 1;
  let index = text.startsWith('\uFEFF') ? 1 : 0;
  let quoted = false;
  let quoteLine = 0;
  const endRecord = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0] !== '') records.push({ line: recordLine, cells });
    cells = [];
    cell = '';
  };
  while (index < text.length) {
    const char = text[index] ?? '';
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else {
        if (char === '\n') line++;
        cell += char;
      }
      index++;
      continue;
    }
    if (char === '"' && cell === '') {
      quoted = true;
      quoteLine = line;
    } else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || (char === '\r' && text[index + 1] === '\n')) {
      endRecord();
      if (char === '\r') index++;
      line++;
      recordLine = line;
    } else {
      cell += char;
    }
    index++;
  }
  if (quoted) throw new Error(`line ${quoteLine}: a quoted cell is not closed`);
  endRecord();
  return records;
}
