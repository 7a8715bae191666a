import { z } from 'zod';
import { GENDERS } from '../../engine/index.ts';
import { patientReferenceSchema } from '../../shared/api/patients.ts';
import { smartLaunchSchema } from '../../shared/api/smart-launch.ts';
import { assessmentInputSchema } from '../../shared/assessment-input.ts';
import { draftFormat, draftStorageKey, type AssessmentDraft, type DraftStorage } from './draft.ts';
import { emptyPatientForm } from './form.ts';

// Reading a stored draft back, apart from draft.ts, which the app's first view imports (signing
// out clears the draft): the draft's schema builds the contract's assessment input schemas.

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
        // Drafts stored before a patient could be named by number alone have neither.
        byNumber: z.boolean().default(false),
        linkWhateverGender: z.boolean().default(false),
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
    // Drafts and outbox entries stored before step 1 asked for the unit have none.
    orgUnitId: z.string().min(1).nullable().default(null),
  }),
  // Drafts stored before launches from a record system, and those not started from one, have none.
  launch: smartLaunchSchema
    .pick({ id: true, values: true, unread: true, writeBack: true })
    .optional(),
});

const storedDraftSchema = z.object({ format: z.literal(draftFormat), draft: draftSchema });

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

export function readDraft(storage: DraftStorage = sessionStorage): AssessmentDraft | null {
  try {
    return parseDraft(storage.getItem(draftStorageKey));
  } catch {
    // Storage can throw (blocked); the draft is a safety net, not worth failing the page for.
    return null;
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
