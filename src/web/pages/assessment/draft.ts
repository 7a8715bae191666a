import { z } from 'zod';
import { GENDERS } from '../../../engine/index.ts';
import { patientReferenceSchema } from '../../../shared/api/patients.ts';
import { assessmentInputSchema } from '../../../shared/assessment-input.ts';
import { emptyPatientForm, type AssessmentForm } from './form.ts';

/**
 * The assessment in progress, kept in the tab's session storage so that an accidental reload
 * loses nothing: a new assessment, or unsaved changes to a saved one.
 */
export interface AssessmentDraft {
  /** Whose draft it is: after a session timeout only the same person gets it back. */
  userId: string;
  code: string;
  /** Null until the first save. */
  assessmentId: string | null;
  /** The version of the saved assessment the changes are based on (sent as If-Match). */
  baseVersion: number | null;
  /** Step 4 was finished, so results exist (spec 4). */
  resultsCalculated: boolean;
  form: AssessmentForm;
}

export const draftStorageKey = 'triage.assessmentDraft';

/** Bumped when the stored shape changes; a draft of another format is dropped. */
const draftFormat = 1;

const draftSchema = z.object({
  userId: z.string().min(1),
  code: z.string().min(1),
  assessmentId: z.string().min(1).nullable(),
  baseVersion: z.number().int().nullable(),
  resultsCalculated: z.boolean(),
  form: z.object({
    // Drafts stored before assessments named patients have none.
    patient: z
      .object({
        number: z.string(),
        chosen: patientReferenceSchema.nullable(),
        isNew: z.boolean(),
        name: z.string(),
        birthDate: z.string(),
      })
      .default(emptyPatientForm),
    demographics: z.object({
      age: z.string(),
      gender: z.enum(GENDERS).nullable(),
      height: z.string(),
      weight: z.string(),
    }),
    riskFactors: assessmentInputSchema.shape.riskFactors.unwrap(),
    symptoms: assessmentInputSchema.shape.symptoms.unwrap(),
    management: assessmentInputSchema.shape.management.unwrap(),
    notes: z.string(),
  }),
});

const storedDraftSchema = z.object({ format: z.literal(draftFormat), draft: draftSchema });

export function serializeDraft(draft: AssessmentDraft): string {
  return JSON.stringify({ format: draftFormat, draft });
}

/** The draft stored as text, or null when there is none or it is not a valid draft. */
export function parseDraft(text: string | null): AssessmentDraft | null {
  if (text === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = storedDraftSchema.safeParse(json);
  return parsed.success ? parsed.data.draft : null;
}

export function newDraft(userId: string, code: string, form: AssessmentForm): AssessmentDraft {
  return { userId, code, assessmentId: null, baseVersion: null, resultsCalculated: false, form };
}

type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

// Storage can throw (blocked, full); the draft is a safety net, not worth failing the page for.

export function readDraft(storage: DraftStorage = sessionStorage): AssessmentDraft | null {
  try {
    return parseDraft(storage.getItem(draftStorageKey));
  } catch {
    return null;
  }
}

export function writeDraft(draft: AssessmentDraft, storage: DraftStorage = sessionStorage): void {
  try {
    storage.setItem(draftStorageKey, serializeDraft(draft));
  } catch {
    // See above.
  }
}

export function clearAssessmentDraft(storage: DraftStorage = sessionStorage): void {
  try {
    storage.removeItem(draftStorageKey);
  } catch {
    // See above.
  }
}

/** The stored draft of this user for this assessment (null: a new one), if there is one. */
export function readDraftFor(
  userId: string,
  assessmentId: string | null,
  storage: DraftStorage = sessionStorage,
): AssessmentDraft | null {
  const draft = readDraft(storage);
  return draft !== null && draft.userId === userId && draft.assessmentId === assessmentId
    ? draft
    : null;
}
