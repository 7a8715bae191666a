import { afterEach, describe, expect, it, vi } from 'vitest';
import { clinicDay, keepClinicTimeZone } from './clinicCalendar.ts';

function storage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('clinicDay', () => {
  it("counts the day on the clinic's calendar once the session gave it", () => {
    vi.stubGlobal('localStorage', storage());
    const instant = new Date('2026-11-28T22:30:00Z');
    keepClinicTimeZone('Africa/Johannesburg');
    expect(clinicDay(instant)).toBe('2026-11-29');
    keepClinicTimeZone('America/New_York');
    expect(clinicDay(instant)).toBe('2026-11-28');
  });

  it("falls back to the device's calendar with no zone kept, or one it does not know", () => {
    vi.stubGlobal('localStorage', storage());
    const instant = new Date(2026, 0, 5, 23, 59);
    expect(clinicDay(instant)).toBe('2026-01-05');
    keepClinicTimeZone('Not/AZone');
    expect(clinicDay(instant)).toBe('2026-01-05');
    expect(clinicDay(new Date(987, 11, 31))).toBe('0987-12-31');
  });

  it('falls back without storage at all', () => {
    vi.stubGlobal('localStorage', undefined);
    keepClinicTimeZone('Africa/Johannesburg');
    expect(clinicDay(new Date(2026, 0, 5, 12))).toBe('2026-01-05');
  });
});
