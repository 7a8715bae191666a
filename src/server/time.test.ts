import { describe, expect, it } from 'vitest';
import { earliestCalendarDate, latestCalendarDate } from '../shared/api/calendar-date.ts';
import { endOfDayExclusive, localDate, startOfDay } from './time.ts';

describe('clinic days', () => {
  it('begin at local midnight in the clinic time zone', () => {
    expect(startOfDay('2026-11-22', 'UTC').toISOString()).toBe('2026-11-22T00:00:00.000Z');
    expect(startOfDay('2026-11-22', 'Africa/Johannesburg').toISOString()).toBe(
      '2026-11-21T22:00:00.000Z',
    );
    expect(startOfDay('2026-11-22', 'America/New_York').toISOString()).toBe(
      '2026-11-22T05:00:00.000Z',
    );
  });

  it('follow daylight-saving changes', () => {
    // London moves to summer time on 2026-03-29 at 01:00 UTC.
    expect(startOfDay('2026-03-29', 'Europe/London').toISOString()).toBe(
      '2026-03-29T00:00:00.000Z',
    );
    expect(startOfDay('2026-03-30', 'Europe/London').toISOString()).toBe(
      '2026-03-29T23:00:00.000Z',
    );
  });

  it('include the whole end day', () => {
    expect(endOfDayExclusive('2026-12-31', 'UTC').toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(endOfDayExclusive('2026-11-22', 'Africa/Johannesburg').toISOString()).toBe(
      '2026-11-22T22:00:00.000Z',
    );
  });

  it('name the local date of an instant', () => {
    expect(localDate(new Date('2026-11-22T23:30:00Z'), 'Africa/Johannesburg')).toBe('2026-11-23');
    expect(localDate(new Date('2026-11-22T23:30:00Z'), 'UTC')).toBe('2026-11-22');
  });

  it('can be computed for the first and last dates a filter takes, in every time zone', () => {
    const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
    for (const zone of ['UTC', ...Intl.supportedValuesOf('timeZone')]) {
      expect(startOfDay(earliestCalendarDate, zone).toISOString(), zone).toMatch(isoInstant);
      expect(endOfDayExclusive(latestCalendarDate, zone).toISOString(), zone).toMatch(isoInstant);
    }
  });
});
