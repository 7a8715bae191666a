import { z } from 'zod';

/**
 * The first and last calendar dates a date filter takes. The server turns a date into the instant
 * its day begins in the clinic's time zone (server/time.ts), and an end date into the start of the
 * following day. That following day must still have a four-digit year: 9999-12-31 would need
 * 10000-01-01, which ISO text writes as +010000-01-01 and which neither parses back nor sorts
 * against stored timestamps. At the other end Date.UTC reads years below 100 as 19xx, and no
 * record is older than 1900, so the range starts there.
 */
export const earliestCalendarDate = '1900-01-01';
export const latestCalendarDate = '9999-12-30';

export const calendarDateRangeMessage = `Must be a date from ${earliestCalendarDate} to ${latestCalendarDate}`;

/** Whether a YYYY-MM-DD date is in the range above (four-digit years sort as text). */
export function inCalendarDateRange(date: string): boolean {
  return date >= earliestCalendarDate && date <= latestCalendarDate;
}

/**
 * A whole day written YYYY-MM-DD that exists (no 2026-02-30 or 2026-13-01) and that every date
 * computation of the server can handle. Every date a request takes is this schema.
 */
export const calendarDateSchema = z.iso
  .date()
  .refine(inCalendarDateRange, { message: calendarDateRangeMessage });

/** What a form says of a date the API would refuse (`Start Date must be ...`), or null. */
export function calendarDateError(label: string, date: string): string | null {
  return calendarDateSchema.safeParse(date).success
    ? null
    : `${label} must be a date from ${earliestCalendarDate} to ${latestCalendarDate}`;
}

/** Building an Intl formatter costs far more than using one, and a save formats a date. */
const calendarDateFormats = new Map<string, Intl.DateTimeFormat>();

/** The calendar date (YYYY-MM-DD) of an instant in a time zone: the clinic's day of it. */
export function calendarDateIn(instant: Date, timeZone: string): string {
  let format = calendarDateFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    calendarDateFormats.set(timeZone, format);
  }
  return format.format(instant);
}
