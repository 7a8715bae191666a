import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { CONDITIONS } from '../../engine/index.ts';
import type { AppContext } from '../context.ts';
import { notesRepository, type DiagnosedColumns } from '../db/repositories/notes.ts';
import { createExtractionRun, type ExtractionResult, type NoteInput } from '../extraction/index.ts';
import { recordAudit } from './audit.ts';
import type { Requester } from './assessments.ts';

function diagnosedOf(row: DiagnosedColumns): NoteInput['diagnosed'] {
  const diagnosed: NoteInput['diagnosed'] = {};
  for (const condition of CONDITIONS) {
    const value = row[`diagnosed_${condition}`];
    if (value !== null) diagnosed[condition] = Number(value) === 1;
  }
  return diagnosed;
}

/** How often a long scan reports progress and lets other requests run. */
const progressEvery = 2000;

/**
 * Scans every non-empty note and review comment of live assessments (spec 7.2) through the
 * extractor, streaming rows so that memory holds the matches, not the notes.
 */
export async function extractCodesFromNotes(
  context: AppContext,
  requester: Requester,
  onProgress: (scanned: number, total: number) => void = () => undefined,
): Promise<ExtractionResult> {
  const db = context.database.db;
  const total = await notesRepository.countNotes(db);
  const run = createExtractionRun();
  let scanned = 0;
  const progressed = async () => {
    scanned += 1;
    if (scanned % progressEvery === 0) {
      onProgress(scanned, total);
      await yieldToEventLoop();
    }
  };

  try {
    for await (const row of notesRepository.streamAssessmentNotes(db)) {
      run.add({
        kind: 'assessment_note',
        assessmentId: row.assessment_id,
        assessmentCode: row.assessment_code,
        text: row.text,
        diagnosed: diagnosedOf(row),
      });
      await progressed();
    }
    for await (const row of notesRepository.streamReviewComments(db)) {
      run.add({
        kind: 'doctor_comment',
        assessmentId: row.assessment_id,
        assessmentCode: row.assessment_code,
        reviewId: row.review_id,
        condition: row.condition,
        text: row.text,
        diagnosed: diagnosedOf(row),
      });
      await progressed();
    }
  } catch (error) {
    await recordAudit(db, {
      at: context.now(),
      actor: requester.user,
      action: 'code_extraction',
      outcome: 'failure',
      address: requester.address,
    });
    throw error;
  }
  onProgress(scanned, total);
  await recordAudit(db, {
    at: context.now(),
    actor: requester.user,
    action: 'code_extraction',
    address: requester.address,
  });
  return run.finish();
}
