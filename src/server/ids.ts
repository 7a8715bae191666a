import crypto from 'node:crypto';

const hexDigits = '0123456789abcdef';

/**
 * A version 7 UUID (RFC 9562): the Unix time in milliseconds in the first 48 bits, then 74
 * random bits. Ids made later sort later, so the rows of a record sit beside those of the records
 * made around it in every index keyed by id: a save appends to those indexes instead of writing
 * to a random page of each, and reading records in the history's order (newest first) reads
 * neighbouring pages rather than one page per row. The time in an id is no secret: every record
 * shows when it was made.
 */
export function timeOrderedId(
  atMs: number,
  randomBytes: (size: number) => Uint8Array = crypto.randomBytes,
): string {
  const bytes = randomBytes(16);
  let time = Math.floor(atMs);
  for (let index = 5; index >= 0; index--) {
    bytes[index] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = 0x70 | ((bytes[6] ?? 0) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
  let text = '';
  for (let index = 0; index < 16; index++) {
    if (index === 4 || index === 6 || index === 8 || index === 10) text += '-';
    const byte = bytes[index] ?? 0;
    text += (hexDigits[byte >> 4] ?? '') + (hexDigits[byte & 0x0f] ?? '');
  }
  return text;
}
