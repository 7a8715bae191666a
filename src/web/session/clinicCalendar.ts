import { calendarDateIn } from '../../shared/api/calendar-date.ts';

const timeZoneKey = 'triage_clinic_time_zone';

/**
 * Keeps the clinic's time zone as the server gave it with the session, so that today, and a new
 * patient's age from the date of birth, are counted on the clinic's calendar (as the server counts
 * them) also offline and whatever the device's own zone.
 */
export function keepClinicTimeZone(timeZone: string): void {
  try {
    localStorage.setItem(timeZoneKey, timeZone);
  } catch {
    // Without storage the device's own calendar stands in.
  }
}

function keptTimeZone(): string | undefined {
  try {
    return localStorage.getItem(timeZoneKey) ?? undefined;
  } catch {
    return undefined;
  }
}

/** The clinic's calendar date (YYYY-MM-DD) of an instant; the device's before any session. */
export function clinicDay(instant: Date): string {
  const timeZone = keptTimeZone();
  if (timeZone !== undefined) {
    try {
      return calendarDateIn(instant, timeZone);
    } catch {
      // A zone this browser does not know: the device's own calendar stands in.
    }
  }
  const month = String(instant.getMonth() + 1).padStart(2, '0');
  const day = String(instant.getDate()).padStart(2, '0');
  return `${String(instant.getFullYear()).padStart(4, '0')}-${month}-${day}`;
}
