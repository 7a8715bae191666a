import { describe, expect, it } from 'vitest';
import {
  calendarDateIn,
  calendarDateRangeMessage,
  calendarDateSchema,
  earliestCalendarDate,
  latestCalendarDate,
} from './calendar-date.ts';

const problem = (text: string) => calendarDateSchema.safeParse(text).error?.issues[0]?.message;

describe('a calendar date', () => {
  it('takes real days in the range, leap days included', () => {
    for (const date of [earliestCalendarDate, '2024-02-29', '2026-11-22', latestCalendarDate]) {
      expect(calendarDateSchema.safeParse(date).success, date).toBe(true);
    }
  });

  it('refuses days that do not exist', () => {
    for (const date of ['2026-02-30', '2026-13-01', '0000-00-00', '2100-02-29', '2026-04-31']) {
      expect(problem(date), date).toBe('Invalid ISO date');
    }
  });

  it('refuses other spellings', () => {
    for (const date of [
      '2026-1-01',
      '20261122',
      ' 2026-11-22',
      '2026-11-22T00:00',
      '+10000-01-01',
    ]) {
      expect(problem(date), date).toBe('Invalid ISO date');
    }
  });

  it('refuses days outside the range the server can compute with', () => {
    for (const date of ['9999-12-31', '1899-12-31', '0001-01-01', '0099-12-31']) {
      expect(problem(date), date).toBe(calendarDateRangeMessage);
    }
  });
});

describe('calendarDateIn', () => {
  it("gives the instant's date on the zone's calendar, not the machine's", () => {
    // 22:30 UTC on 28 November is already 29 November in Johannesburg (UTC+2) and still the
    // 28th in New York.
    const instant = new Date('2026-11-28T22:30:00Z');
    expect(calendarDateIn(instant, 'Africa/Johannesburg')).toBe('2026-11-29');
    expect(calendarDateIn(instant, 'America/New_York')).toBe('2026-11-28');
    expect(calendarDateIn(instant, 'UTC')).toBe('2026-11-28');
  });
});
