import { describe, expect, it } from 'vitest';
import { timeOrderedId } from './ids.ts';

const version7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedId', () => {
  it('is a version 7 UUID whose first 48 bits are the time in milliseconds', () => {
    const at = Date.parse('2026-11-22T10:00:00.123Z');
    const id = timeOrderedId(at);
    expect(id).toMatch(version7);
    expect(Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16)).toBe(at);
  });

  it('sets the version and variant bits whatever the random bytes are', () => {
    expect(timeOrderedId(0, (size) => new Uint8Array(size).fill(0xff))).toBe(
      '00000000-0000-7fff-bfff-ffffffffffff',
    );
    expect(timeOrderedId(0, (size) => new Uint8Array(size))).toBe(
      '00000000-0000-7000-8000-000000000000',
    );
  });

  it('sorts ids made later after ids made earlier, as text', () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    const ids = Array.from({ length: 200 }, (_, index) => timeOrderedId(start + index * 997));
    expect([...ids].sort()).toEqual(ids);
  });

  it('draws fresh random bits for ids of the same millisecond', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => timeOrderedId(1_700_000_000_000)));
    expect(ids.size).toBe(1000);
  });
});
