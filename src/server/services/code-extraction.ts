import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { CONDITIONS } from '../../engine/index.ts';
import type { AppContext } from '../context.ts';
import { notesRepository, type DiagnosedColumns } from '../db/repositories/notes.ts';
import {
  createExtractionRun,
  extractionCsv,
  extractionReportText,
  type ExtractionResult,
  type NoteInput,
} from '../extraction/index.ts';
import { localDate } from '../time.ts';
import { recordAudit, type AuditEntry } from './audit.ts';
import type { Requester } from '../auth/requester.ts';

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

/** What a scan is audited as: an extraction shown on screen, or a download of one. */
type ScanAudit = Pick<AuditEntry, 'action' | 'target'>;

/**
 * Scans every non-empty note and review comment of live assessments (spec 7.2) through the
 * extractor, streaming rows so that memory holds the matches, not the notes. Writes one audit
 * row, a failure if the scan fails.
 */
async function scanNotes(
  context: AppContext,
  requester: Requester,
  audit: ScanAudit,
  onProgress: (scanned: number, total: number) => void,
): Promise<ExtractionResult> {
  const db = context.database.db;
  const total = await notesRepository.countNotes(db, requester.scope);
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
    for await (const row of notesRepository.streamAssessmentNotes(db, requester.scope)) {
      run.add({
        kind: 'assessment_note',
        assessmentId: row.assessment_id,
        assessmentCode: row.assessment_code,
        text: row.text,
        diagnosed: diagnosedOf(row),
      });
      await progressed();
    }
    for await (const row of notesRepository.streamReviewComments(db, requester.scope)) {
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
      ...audit,
      outcome: 'failure',
      address: requester.address,
    });
    throw error;
  }
  onProgress(scanned, total);
  await recordAudit(db, {
    at: context.now(),
    actor: requester.user,
    ...audit,
    address: requester.address,
  });
  return run.finish();
}

/** The code extractor's scan, shown on screen; audited as a code extraction. */
export function extractCodesFromNotes(
  context: AppContext,
  requester: Requester,
  onProgress: (scanned: number, total: number) => void = () => undefined,
): Promise<ExtractionResult> {
  return scanNotes(context, requester, { action: 'code_extraction' }, onProgress);
}

export type ExtractionDownload = 'report' | 'csv';

export interface ExtractionFile {
  fileName: string;
  contentType: string;
  body: string;
}

/**
 * A fresh scan as a file to download: the text report or the matches as CSV. A download hands
 * the matches out, so it is audited as an export naming the file (one row, no note text).
 */
export async function extractionDownload(
  context: AppContext,
  requester: Requester,
  kind: ExtractionDownload,
): Promise<ExtractionFile> {
  const target = {
    type: 'export',
    id: kind === 'report' ? 'code-extraction/report.txt' : 'code-extraction/matches.csv',
  };
  const result = await scanNotes(context, requester, { action: 'export', target }, () => undefined);
  const now = context.now();
  const date = localDate(now, context.config.timeZone);
  return kind === 'report'
    ? {
        fileName: `code-extraction-report-${date}.txt`,
        contentType: 'text/plain; charset=utf-8',
        body: extractionReportText(result, now.toISOString()),
      }
    : {
        fileName: `code-extraction-${date}.csv`,
        contentType: 'text/csv; charset=utf-8',
        body: extractionCsv(result),
      };
}
