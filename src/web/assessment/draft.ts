import type { AssessmentForm } from './form.ts';
import type { RecordLaunch } from './launch.ts';

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
  /**
   * A new assessment started from a record system (a SMART launch): the record's values, which
   * the fields' notes say, and whether the saved assessment goes back. Absent otherwise, as in
   * drafts stored before launches existed.
   */
  launch?: RecordLaunch;
}

export const draftStorageKey = 'triage.assessmentDraft';

/** Bumped when the stored shape changes; a draft of another format is dropped. */
export const draftFormat = 1;

export function serializeDraft(draft: AssessmentDraft): string {
  return JSON.stringify({ format: draftFormat, draft });
}

export function newDraft(
  userId: string,
  code: string,
  form: AssessmentForm,
  launch?: RecordLaunch,
): AssessmentDraft {
  return {
    userId,
    code,
    assessmentId: null,
    baseVersion: null,
    resultsCalculated: false,
    form,
    ...(launch === undefined ? {} : { launch }),
  };
}

export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

// Storage can throw (blocked, full); the draft is a safety net, not worth failing the page for.

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
