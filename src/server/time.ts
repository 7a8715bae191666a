import { calendarDateIn } from '../shared/api/calendar-date.ts';

/** Building an Intl formatter costs far more than using one, and a save formats a date. */
function cachedFormatter(
  make: (timeZone: string) => Intl.DateTimeFormat,
): (timeZone: string) => Intl.DateTimeFormat {
  const cache = new Map<string, Intl.DateTimeFormat>();
  return (timeZone) => {
    let formatter = cache.get(timeZone);
    if (formatter === undefined) {
      formatter = make(timeZone);
      cache.set(timeZone, formatter);
    }
    return formatter;
  };
}

const dateTimeParts = cachedFormatter(
  (timeZone) =>
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }),
);

/** Minutes the zone is ahead of UTC at a given instant. */
function offsetMinutes(instant: Date, timeZone: string): number {
  const parts = dateTimeParts(timeZone).formatToParts(instant);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return Math.round((asUtc - instant.getTime()) / 60_000);
}

/**
 * The instant a calendar day (YYYY-MM-DD) begins in the clinic's time zone, so that a date filter
 * covers whole local days whatever the server's own zone.
 */
export function startOfDay(date: string, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const localMidnightAsUtc = Date.UTC(year, month - 1, day);
  // Two passes settle the offset across a daylight-saving change near midnight.
  let instant = new Date(
    localMidnightAsUtc - offsetMinutes(new Date(localMidnightAsUtc), timeZone) * 60_000,
  );
  instant = new Date(localMidnightAsUtc - offsetMinutes(instant, timeZone) * 60_000);
  return instant;
}

/** The instant the following day begins: an end date includes its whole day (to 23:59:59.999). */
export function endOfDayExclusive(date: string, timeZone: string): Date {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
  return startOfDay(next, timeZone);
}

/** The calendar date (YYYY-MM-DD) of an instant in the clinic's time zone. */
export function localDate(instant: Date, timeZone: string): string {
  return calendarDateIn(instant, timeZone);
}
