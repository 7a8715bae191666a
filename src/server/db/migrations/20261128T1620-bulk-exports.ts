import { sql, type Kysely } from 'kysely';
import type { DatabaseEngine } from '../database.ts';
import { columnTypes, type TriageMigration } from './types.ts';

/**
 * FHIR Bulk Data export (issue 38): `bulk_export_jobs` holds each `$export` asked for: who asked
 * (`owner`, the only caller its status and files answer), what (`request`, the types, `_since`,
 * the units of the caller's scope as JSON, null for every unit), and how far its run has come
 * (`phase`, `cursor`, `resources_done`), with the instance running it (`runner_id`) and when that
 * instance last wrote (`heartbeat_at`), so that another takes over a job whose runner stopped.
 * `bulk_export_chunks` holds the NDJSON written, a chunk per page and resource type, gzipped
 * (`ndjson_gzip`), in the database so that any instance serves any job's files; a chunk belongs
 * to a file (`resource_type`, `file_index`) and is deleted with its job.
 */
async function up(db: Kysely<unknown>, engine: DatabaseEngine): Promise<void> {
  const t = columnTypes(engine);
  await db.schema
    .createTable('bulk_export_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('types', 'text', (c) => c.notNull())
    .addColumn('since', t.timestamp)
    .addColumn('scope_unit_ids', 'text')
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('queued', 'running', 'completed', 'failed')`),
    )
    .addColumn('transaction_time', t.timestamp, (c) => c.notNull())
    .addColumn('phase', 'integer', (c) => c.notNull())
    .addColumn('cursor', 'text')
    .addColumn('resources_done', 'integer', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('runner_id', 'text')
    .addColumn('heartbeat_at', t.timestamp)
    .addColumn('error', 'text')
    .addColumn('completed_at', t.timestamp)
    .addColumn('expires_at', t.timestamp)
    .execute();
  await sql`create index bulk_export_jobs_status_idx on bulk_export_jobs (status)
    where status in ('queued', 'running')`.execute(db);
  await db.schema
    .createIndex('bulk_export_jobs_expiry_idx')
    .on('bulk_export_jobs')
    .column('expires_at')
    .execute();
  await db.schema
    .createTable('bulk_export_chunks')
    .addColumn('job_id', 'text', (c) =>
      c.notNull().references('bulk_export_jobs.id').onDelete('cascade'),
    )
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('file_index', 'integer', (c) => c.notNull())
    .addColumn('chunk_index', 'integer', (c) => c.notNull())
    .addColumn('line_count', 'integer', (c) => c.notNull())
    .addColumn('ndjson_gzip', engine === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('bulk_export_chunks_pk', [
      'job_id',
      'resource_type',
      'file_index',
      'chunk_index',
    ])
    .execute();
}

async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('bulk_export_chunks').execute();
  await db.schema.dropTable('bulk_export_jobs').execute();
}

export const bulkExports: TriageMigration = { name: '20261128T1620-bulk-exports', up, down };
