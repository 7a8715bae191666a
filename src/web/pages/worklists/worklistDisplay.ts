/** How long ago an instant was, in the largest whole unit: '3 days ago', 'just now'. */
export function timeAgo(iso: string, now: Date): string {
  const minutes = Math.floor((now.getTime() - Date.parse(iso)) / 60_000);
  if (Number.isNaN(minutes) || minutes < 1) return 'just now';
  const units: Array<[number, string]> = [
    [60 * 24, 'day'],
    [60, 'hour'],
    [1, 'minute'],
  ];
  for (const [size, unit] of units) {
    const count = Math.floor(minutes / size);
    if (count >= 1) return `${count} ${unit}${count === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}

/** A follow-up's due date read against today: '12 days overdue', 'due today', 'due in 5 days'. */
export function dueText(daysOverdue: number): string {
  const plural = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
  if (daysOverdue > 0) return `${plural(daysOverdue)} overdue`;
  if (daysOverdue === 0) return 'due today';
  return `due in ${plural(-daysOverdue)}`;
}

/** YYYY-MM-DD as the browser writes a date, read as a calendar date (not an instant). */
export function formatCalendarDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(Date.UTC(year, month - 1, day)),
  );
}
