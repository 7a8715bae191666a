/**
 * Writes the app's install icons (src/web/public/icon-*.png): a white cross on the theme's blue,
 * drawn inside the middle 80% so that a masked (round) crop keeps it whole. Run once after a
 * change of design: `node scripts/make-icons.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const background = [0x22, 0x8b, 0xe6];
const foreground = [0xff, 0xff, 0xff];

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

function png(size: number): Buffer {
  const arm = size * 0.12; // half the width of the cross's bars
  const reach = size * 0.3; // from the centre to a bar's end
  const centre = size / 2;
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3); // filter byte 0, then RGB
    for (let x = 0; x < size; x++) {
      const dx = Math.abs(x + 0.5 - centre);
      const dy = Math.abs(y + 0.5 - centre);
      const inCross = (dx <= arm && dy <= reach) || (dy <= arm && dx <= reach);
      const colour = inCross ? foreground : background;
      row.set(colour, 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const folder = path.join(import.meta.dirname, '..', 'src', 'web', 'public');
fs.mkdirSync(folder, { recursive: true });
for (const size of [192, 512]) fs.writeFileSync(path.join(folder, `icon-${size}.png`), png(size));
fs.writeFileSync(path.join(folder, 'apple-touch-icon.png'), png(180));
