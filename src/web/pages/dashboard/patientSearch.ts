import type { Patient } from '../../../shared/api/patients.ts';
import { ageText } from '../patients/patientTimeline.ts';

/** How many patients the dashboard's search lists at once; more words narrow it. */
export const patientSearchLimit = 8;

/** What the search has found, for the line screen readers announce as it changes. */
export function patientSearchStatus(query: string, shown: number, total: number): string {
  if (total === 0) return `No patients match '${query}'`;
  if (shown < total) {
    return `Showing ${shown} of ${total} patients; type more of the number or name to narrow them`;
  }
  return total === 1 ? '1 patient matches' : `${total} patients match`;
}

/** A result's second line: the name and age, or what is not recorded. */
export function patientSearchDetails(patient: Pick<Patient, 'name' | 'age'>): string {
  const name = patient.name ?? 'Name not recorded';
  const age = patient.age === null ? 'age not recorded' : ageText(patient.age);
  return `${name} · ${age}`;
}
