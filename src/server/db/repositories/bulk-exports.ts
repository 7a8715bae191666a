import { sql, type Insertable, type Selectable } from 'kysely';
import { scopeCondition, type Scope } from '../../auth/scope.ts';
import type { DatabaseEngine } from '../database.ts';
import type { BulkExportChunksTable, BulkExportJobsTable } from '../schema.ts';
import type { Cursor } from './assessments.ts';
import type { Executor } from './executor.ts';
import { exportRecordOf, wholeRecordRows, type ExportRecord } from './exports.ts';
import { lastUpdated } from './fhir-reads.ts';
import type { PatientRecordRow } from './patient-records.ts';

export type BulkExportJobRow = Selectable<BulkExportJobsTable>;
export type BulkExportChunk = Omit<Insertable<BulkExportChunksTable>, 'job_id'>;

/** What a job's run reads: the records within its units, made before it began, changed since. */
export interface BulkExportSelection {
  scope: Scope;
  /** The kick-off's time: rows made later wait for the next export. */
  until: string;
  /** `_since`: rows whose last change is after it; undefined for all. */
  since: string | undefined;
}

/** One file of a job: its type, number and lines. */
export interface BulkExportFileSummary {
  resourceType: string;
  fileIndex: number;
  lineCount: number;
  chunkCount: number;
}

/** The progress a runner records with a page's chunks. */
export interface BulkExportProgress {
  phase: number;
  cursor: string | null;
  resourcesDone: number;
  heartbeatAt: string;
}

export const bulkExportsRepository = {
  async insertJob(db: Executor, row: Insertable<BulkExportJobsTable>): Promise<void> {
    await db.insertInto('bulk_export_jobs').values(row).execute();
  },

  findJob(db: Executor, id: string): Promise<BulkExportJobRow | undefined> {
    return db.selectFrom('bulk_export_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /**
   * Takes up the oldest job waiting, or one whose runner has written nothing since `staleBefore`
   * (it stopped without handing the job back), for the runner: one statement, so that of two
   * instances asking at once only one gets it (PostgreSQL checks the condition again on the row
   * it locks).
   */
  async claimJob(
    db: Executor,
    runnerId: string,
    now: string,
    staleBefore: string,
  ): Promise<BulkExportJobRow | undefined> {
    const claimable = sql<boolean>`(status = 'queued' or (status = 'running' and heartbeat_at < ${staleBefore}))`;
    return db
      .updateTable('bulk_export_jobs')
      .set((eb) => ({
        status: 'running',
        runner_id: runnerId,
        heartbeat_at: now,
        attempts: eb('attempts', '+', 1),
      }))
      .where(
        'id',
        '=',
        db
          .selectFrom('bulk_export_jobs')
          .select('id')
          .where(claimable)
          .orderBy('transaction_time')
          .orderBy('id')
          .limit(1),
      )
      .where(claimable)
      .returningAll()
      .executeTakeFirst();
  },

  /**
   * Writes a page's chunks and the progress after it, while the job is still this runner's:
   * false (and nothing written) when it was cancelled or taken over meanwhile.
   */
  async recordPage(
    db: Executor,
    jobId: string,
    runnerId: string,
    progress: BulkExportProgress,
    chunks: readonly BulkExportChunk[],
  ): Promise<boolean> {
    const updated = await db
      .updateTable('bulk_export_jobs')
      .set({
        phase: progress.phase,
        cursor: progress.cursor,
        resources_done: progress.resourcesDone,
        heartbeat_at: progress.heartbeatAt,
      })
      .where('id', '=', jobId)
      .where('runner_id', '=', runnerId)
      .where('status', '=', 'running')
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return false;
    if (chunks.length > 0) {
      await db
        .insertInto('bulk_export_chunks')
        .values(chunks.map((chunk) => ({ ...chunk, job_id: jobId })))
        .execute();
    }
    return true;
  },

  /** Hands a job back to be taken up again (the runner stops), where it stands. */
  async releaseJob(db: Executor, jobId: string, runnerId: string): Promise<void> {
    await db
      .updateTable('bulk_export_jobs')
      .set({ status: 'queued', runner_id: null, heartbeat_at: null })
      .where('id', '=', jobId)
      .where('runner_id', '=', runnerId)
      .where('status', '=', 'running')
      .execute();
  },

  /** Ends a job, completed or failed (with why), its files kept until `expiresAt`. */
  async finishJob(
    db: Executor,
    jobId: string,
    runnerId: string,
    end: { status: 'completed' | 'failed'; error: string | null; at: string; expiresAt: string },
  ): Promise<void> {
    await db
      .updateTable('bulk_export_jobs')
      .set({
        status: end.status,
        error: end.error,
        runner_id: null,
        completed_at: end.at,
        expires_at: end.expiresAt,
      })
      .where('id', '=', jobId)
      .where('runner_id', '=', runnerId)
      .execute();
  },

  /** Deletes a job and its files; whether there was one. */
  async deleteJob(db: Executor, jobId: string): Promise<boolean> {
    // The chunks first: deleting them by the job is one range of their key on both engines.
    await db.deleteFrom('bulk_export_chunks').where('job_id', '=', jobId).execute();
    const deleted = await db
      .deleteFrom('bulk_export_jobs')
      .where('id', '=', jobId)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  },

  /** The ids of the jobs whose files expired by `now`. */
  async expiredJobIds(db: Executor, now: string): Promise<string[]> {
    const rows = await db
      .selectFrom('bulk_export_jobs')
      .select('id')
      .where('expires_at', '<=', now)
      .execute();
    return rows.map((row) => row.id);
  },

  /** A job's files in the order of its types' chunks written, each with its lines and chunks. */
  async files(db: Executor, jobId: string): Promise<BulkExportFileSummary[]> {
    const rows = await db
      .selectFrom('bulk_export_chunks')
      .select((eb) => [
        'resource_type',
        'file_index',
        eb.fn.sum<number | string>('line_count').as('lines'),
        eb.fn.countAll<number | string>().as('chunks'),
      ])
      .where('job_id', '=', jobId)
      .groupBy(['resource_type', 'file_index'])
      .orderBy('resource_type')
      .orderBy('file_index')
      .execute();
    return rows.map((row) => ({
      resourceType: row.resource_type,
      fileIndex: row.file_index,
      lineCount: Number(row.lines),
      chunkCount: Number(row.chunks),
    }));
  },

  /** One chunk of a file, by its number (from 0), gzipped. */
  async chunk(
    db: Executor,
    jobId: string,
    resourceType: string,
    fileIndex: number,
    chunkIndex: number,
  ): Promise<Uint8Array | undefined> {
    const row = await db
      .selectFrom('bulk_export_chunks')
      .select('ndjson_gzip')
      .where('job_id', '=', jobId)
      .where('resource_type', '=', resourceType)
      .where('file_index', '=', fileIndex)
      .where('chunk_index', '=', chunkIndex)
      .executeTakeFirst();
    return row?.ndjson_gzip;
  },

  /**
   * Live patient records within the units, made by `until` and changed after `since`, by id
   * after `afterId`, `limit` at most.
   */
  patientRecordsAfter(
    db: Executor,
    selection: BulkExportSelection,
    afterId: string | undefined,
    limit: number,
  ): Promise<PatientRecordRow[]> {
    let query = db
      .selectFrom('patient_records')
      .selectAll()
      .where('deleted_at', 'is', null)
      .where('created_at', '<=', selection.until)
      .where(scopeCondition('patient_records.org_unit_id', selection.scope));
    if (selection.since !== undefined) query = query.where('updated_at', '>', selection.since);
    if (afterId !== undefined) query = query.where('id', '>', afterId);
    return query.orderBy('id').limit(limit).execute();
  },

  /**
   * A page of whole live assessments within the units (and, for one of a patient record, whose
   * record is live and within them too, so that every reference resolves in the export), made by
   * `until` and last changed after `since`, newest first after the cursor. Each is marked as
   * having its patient record's Patient elsewhere: the export writes those from the records.
   */
  async assessmentsAfter(
    db: Executor,
    engine: DatabaseEngine,
    selection: BulkExportSelection,
    after: Cursor | undefined,
    /** Rows a page holds, when not the exports' 250 (a test stops a run between pages). */
    limit?: number,
  ): Promise<ExportRecord[]> {
    const rows = await wholeRecordRows(
      db,
      engine,
      selection.scope,
      { textTerms: [], numberTerms: [] },
      after,
      (page) => {
        let narrowed = page
          .where('assessments.created_at', '<=', selection.until)
          .where((eb) =>
            eb.or([
              eb('assessments.patient_record_id', 'is', null),
              eb.exists(
                eb
                  .selectFrom('patient_records as record')
                  .select(sql.lit(1).as('one'))
                  .whereRef('record.id', '=', 'assessments.patient_record_id')
                  .where('record.deleted_at', 'is', null)
                  .where(scopeCondition('record.org_unit_id', selection.scope)),
              ),
            ]),
          );
        if (selection.since !== undefined) {
          narrowed = narrowed.where(lastUpdated, '>', selection.since);
        }
        return limit === undefined ? narrowed : narrowed.limit(limit);
      },
    );
    return rows.map((row) => exportRecordOf(row, true));
  },

  /**
   * Patient records within the units deleted after `since` (their Patients are gone from the
   * API), made by `until`, by id after `afterId`.
   */
  async recordsDeletedAfter(
    db: Executor,
    selection: BulkExportSelection & { since: string },
    afterId: string | undefined,
    limit: number,
  ): Promise<string[]> {
    let query = db
      .selectFrom('patient_records')
      .select('id')
      .where('deleted_at', '>', selection.since)
      .where('created_at', '<=', selection.until)
      .where(scopeCondition('patient_records.org_unit_id', selection.scope));
    if (afterId !== undefined) query = query.where('id', '>', afterId);
    const rows = await query.orderBy('id').limit(limit).execute();
    return rows.map((row) => row.id);
  },

  /**
   * Assessments within the units that the API stopped serving after `since`: deleted then, or
   * of a patient record deleted then; newest first after the cursor, with what names their
   * resources (the measurements taken, each result's condition and status).
   */
  async assessmentsDeletedAfter(
    db: Executor,
    selection: BulkExportSelection & { since: string },
    after: Cursor | undefined,
    limit: number,
  ): Promise<DeletedAssessment[]> {
    const { since } = selection;
    let query = db
      .selectFrom('assessments')
      .innerJoin('patients', 'patients.id', 'assessments.patient_id')
      .leftJoin('patient_records', 'patient_records.id', 'assessments.patient_record_id')
      .select([
        'assessments.id',
        'assessments.created_at',
        'assessments.patient_record_id',
        'patients.age',
        'patients.height',
        'patients.weight',
        'patients.bmi',
      ])
      .where((eb) =>
        eb.or([
          eb('assessments.deleted_at', '>', since),
          eb('patient_records.deleted_at', '>', since),
        ]),
      )
      .where('assessments.created_at', '<=', selection.until)
      .where(scopeCondition('assessments.org_unit_id', selection.scope));
    if (after !== undefined) {
      query = query.where((eb) =>
        eb(
          eb.refTuple('assessments.created_at', 'assessments.id'),
          '<',
          eb.tuple(after.createdAt, after.id),
        ),
      );
    }
    const rows = await query
      .orderBy('assessments.created_at', 'desc')
      .orderBy('assessments.id', 'desc')
      .limit(limit)
      .execute();
    if (rows.length === 0) return [];
    const results = await db
      .selectFrom('results')
      .select(['assessment_id', 'condition', 'risk_status'])
      .where(
        'assessment_id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    return rows.map((row) => ({
      ...row,
      results: results.filter((result) => result.assessment_id === row.id),
    }));
  },
};

/** What names the resources of an assessment the API no longer serves. */
export interface DeletedAssessment {
  id: string;
  created_at: string;
  patient_record_id: string | null;
  age: number | null;
  height: number | null;
  weight: number | null;
  bmi: number | null;
  results: Array<{ condition: string; risk_status: string }>;
}
