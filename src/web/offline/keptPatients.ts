import { z } from 'zod';
import { ageOn, patientSchema, type Patient } from '../../shared/api/patients.ts';
import { clinicDay } from '../session/clinicCalendar.ts';
import { seal, unseal } from './outboxCrypto.ts';
import type { PatientStore } from './outbox.ts';

/**
 * Patient records the user opened or found, kept on the device so that step 1 offers them while
 * offline: sealed together under the user's outbox key, each for 30 days from when it was last
 * seen. A copy of what the server showed, never a source of truth: a save names the record by id
 * and the server decides.
 */
export const keptPatientDays = 30;

const keptSchema = z.array(z.object({ patient: patientSchema, seenAt: z.string() }));
type Kept = z.infer<typeof keptSchema>;

const dayMs = 24 * 60 * 60 * 1000;

async function readKept(
  store: PatientStore,
  key: CryptoKey,
  userId: string,
  now: Date,
): Promise<Kept> {
  const sealed = await store.patients(userId);
  if (sealed === undefined) return [];
  let value: unknown;
  try {
    value = await unseal(key, sealed);
  } catch {
    // Changed on disk or under another key: a copy of the server's records, made again as seen.
    return [];
  }
  const parsed = keptSchema.safeParse(value);
  if (!parsed.success) return [];
  const oldest = now.getTime() - keptPatientDays * dayMs;
  return parsed.data.filter((kept) => Date.parse(kept.seenAt) >= oldest);
}

// One change at a time, so that two searches answering together both stay kept.
let writing: Promise<unknown> = Promise.resolve();

/** Keeps these records as seen now, replacing older copies; drops those not seen for 30 days. */
export function keepPatients(
  store: PatientStore,
  key: CryptoKey,
  userId: string,
  patients: readonly Patient[],
  now: Date,
): Promise<void> {
  const write = writing.then(async () => {
    const seenAt = now.toISOString();
    const ids = new Set(patients.map((patient) => patient.id));
    const kept = (await readKept(store, key, userId, now)).filter(
      (entry) => !ids.has(entry.patient.id),
    );
    for (const patient of patients) kept.push({ patient, seenAt });
    await store.savePatients(userId, await seal(key, kept));
  });
  writing = write.catch(() => undefined);
  return write;
}

/** Whether the record's number, or a word of its name, starts with the text (without case). */
function matches(patient: Patient, words: string[]): boolean {
  const number = patient.number.toLowerCase();
  const nameWords = (patient.name ?? '').toLowerCase().split(/\s+/);
  if (words.length === 1 && number.startsWith(words[0] ?? '')) return true;
  return words.every((word) => nameWords.some((nameWord) => nameWord.startsWith(word)));
}

/**
 * The kept records whose number or name starts with the text, as the server's search finds them,
 * by number; each age counted again for the clinic's day from the date of birth, when known.
 */
export async function searchKeptPatients(
  store: PatientStore,
  key: CryptoKey,
  userId: string,
  text: string,
  now: Date,
): Promise<Patient[]> {
  const today = clinicDay(now);
  const words = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  return (await readKept(store, key, userId, now))
    .map((kept) => kept.patient)
    .filter((patient) => matches(patient, words))
    .sort((a, b) => a.number.localeCompare(b.number))
    .map((patient) =>
      patient.birthDate === null ? patient : { ...patient, age: ageOn(patient.birthDate, today) },
    );
}
