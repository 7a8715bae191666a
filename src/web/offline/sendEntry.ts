import { saveNewAssessment, updateAssessment } from '../api/assessments.ts';
import { assessmentBody } from '../assessment/form.ts';
import type { OutboxContent } from './outbox.ts';

/** Sends one entry as the wizard would have: a first save by its code, or an update. */
export async function sendEntry({ draft, creatorName }: OutboxContent): Promise<void> {
  const body = assessmentBody(draft.form);
  if (draft.assessmentId === null) {
    await saveNewAssessment({ ...body, code: draft.code }, creatorName);
  } else {
    await updateAssessment(draft.assessmentId, draft.baseVersion ?? 1, body);
  }
}
