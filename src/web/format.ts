import type { Role } from '../shared/api/users.ts';
import { formatBmi } from '../shared/display.ts';

export const roleLabels: Record<Role, string> = {
  nurse: 'Nurse',
  doctor: 'Doctor',
  admin: 'Administrator',
  manager: 'Manager',
};

/**
 * A date format of the browser's locale, made on first use: a page's first Intl.DateTimeFormat
 * loads the locale's date data, about 50 ms of CPU on a slow machine (200 ms on Lighthouse's
 * simulated phone), which a view that shows no date should not wait for.
 */
export function localDateTimeFormat(
  options: Intl.DateTimeFormatOptions,
): () => Intl.DateTimeFormat {
  let format: Intl.DateTimeFormat | undefined;
  return () => (format ??= new Intl.DateTimeFormat(undefined, options));
}

const dateTimeFormat = localDateTimeFormat({ dateStyle: 'medium', timeStyle: 'medium' });

/** An ISO-8601 instant in the browser's own time zone. */
export function formatLocalDateTime(iso: string): string {
  const instant = new Date(iso);
  return Number.isNaN(instant.getTime()) ? iso : dateTimeFormat().format(instant);
}

/** Words of audit actions that read as capitals: 'CDS call', 'API token create', 'FHIR read'. */
const acronyms = new Map([
  ['cds', 'CDS'],
  ['api', 'API'],
  ['fhir', 'FHIR'],
  ['oidc', 'OIDC'],
]);

/** `login_failed` reads 'Login failed'. */
export function auditActionLabel(action: string): string {
  const words = action
    .split('_')
    .map((word) => acronyms.get(word) ?? word)
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * BMI as the screens show it: '—' when it could not be computed (no height or weight), which
 * the rules count as 0 and the reports and CSV print as 0.0.
 */
export function screenBmi(bmi: number): string {
  return bmi > 0 ? formatBmi(bmi) : '—';
}
