/** Throughput of extractCodes, for the server's budget of streaming every note through it. */
import { extractCodes } from './extract.ts';

export interface ThroughputMeasurement {
  megabytes: number;
  notes: number;
  matches: number;
  milliseconds: number;
  megabytesPerSecond: number;
}

const BYTES_PER_MEGABYTE = 1024 * 1024;

/** Runs `sampleTexts` over and over until about `targetMegabytes` of UTF-8 have been scanned. */
export function measureExtractionThroughput(
  sampleTexts: readonly string[],
  targetMegabytes: number,
): ThroughputMeasurement {
  const encoder = new TextEncoder();
  const samples = sampleTexts.map((text) => ({ text, bytes: encoder.encode(text).length }));
  const sampleBytes = samples.reduce((sum, sample) => sum + sample.bytes, 0);
  if (sampleBytes === 0) throw new Error('Throughput needs at least one non-empty text.');
  // Untimed passes over about 2 MB first, so that the JIT has optimised the hot paths.
  const warmUpPasses = Math.ceil((2 * BYTES_PER_MEGABYTE) / sampleBytes);
  for (let pass = 0; pass < warmUpPasses; pass++) {
    for (const sample of samples) extractCodes(sample.text);
  }

  const targetBytes = targetMegabytes * BYTES_PER_MEGABYTE;
  let bytes = 0;
  let notes = 0;
  let matches = 0;
  const startedAt = performance.now();
  while (bytes < targetBytes) {
    for (const sample of samples) {
      matches += extractCodes(sample.text).length;
      bytes += sample.bytes;
      notes++;
    }
  }
  const milliseconds = performance.now() - startedAt;
  const megabytes = bytes / BYTES_PER_MEGABYTE;
  return {
    megabytes,
    notes,
    matches,
    milliseconds,
    megabytesPerSecond: megabytes / (milliseconds / 1000),
  };
}
