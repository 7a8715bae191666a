import type { Role } from '../shared/api/users.ts';

export const roleLabels: Record<Role, string> = {
  nurse: 'Nurse',
  doctor: 'Doctor',
  admin: 'Administrator',
};

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'medium',
});

/** An ISO-8601 instant in the browser's own time zone. */
export function formatLocalDateTime(iso: string): string {
  const instant = new Date(iso);
  return Number.isNaN(instant.getTime()) ? iso : dateTimeFormat.format(instant);
}

/** `login_failed` reads 'Login failed'. */
export function auditActionLabel(action: string): string {
  const words = action.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
