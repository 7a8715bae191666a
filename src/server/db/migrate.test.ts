import { sql } from 'kysely';
import { everythingScope } from '../auth/scope.ts';
import { describe, expect, it } from 'vitest';
import { testDatabases } from '../testing/databases.ts';
import { undoThrough } from '../testing/migrations.ts';
import { migrateDown, migrateToLatest } from './migrate.ts';
import { migrations } from './migrations/index.ts';
import { historySearch } from './migrations/20261122T0900-history-search.ts';
import { liveCount } from './migrations/20261122T1000-live-count.ts';
import { historyColumns } from './migrations/20261122T1100-history-columns.ts';
import { postgresTrigram } from './migrations/20261122T1200-postgres-trigram.ts';
import { auditNoRewrite } from './migrations/20261124T2345-audit-no-rewrite.ts';
import { cdsClients } from './migrations/20261125T0600-cds-clients.ts';
import { recordAudit } from '../services/audit.ts';
import type { DatabaseHandle } from './database.ts';
import { bool } from './repositories/executor.ts';
import { assessmentsRepository, type AssessmentFilter } from './repositories/assessments.ts';
import { orgUnitsRepository } from './repositories/org-units.ts';

const at = '2026-11-22T09:00:00.000Z';

/**
 * A patient and an assessment of it, written with only the columns every version of the schema
 * has, so that it stands for a record made before a later migration.
 */
async function insertEarlyAssessment(
  handle: DatabaseHandle,
  id: string,
  options: {
    searchText: string;
    signedOff?: boolean;
    deletedAt?: string | null;
    patient?: { age: number; gender: 'Male' | 'Female' };
    /** Its unit, once the schema has units (migration org-units). */
    orgUnitId?: string;
  },
): Promise<void> {
  await handle.db
    .insertInto('patients')
    .values({ id, bmi: 0, updated_at: at, ...options.patient })
    .execute();
  await handle.db
    .insertInto('assessments')
    .values({
      id,
      patient_id: id,
      assessment_complete: false,
      total_score: 0,
      signed_off: options.signedOff ?? false,
      version: 1,
      created_at: at,
      updated_at: at,
      deleted_at: options.deletedAt ?? null,
      search_text: options.searchText,
      ...(options.orgUnitId === undefined ? {} : { org_unit_id: options.orgUnitId }),
    })
    .execute();
}

describe.each(testDatabases())('migrations on $engine', ({ open }) => {
  it('create every table, and undo and redo cleanly', async () => {
    const handle = await open();
    // PostgreSQL lists every schema's tables, and other test files work beside this one.
    const tableNames = async () =>
      (await handle.db.introspection.getTables())
        .filter((table) => handle.schema === undefined || table.schema === handle.schema)
        .map((table) => table.name);
    try {
      const names = await tableNames();
      for (const table of [
        'users',
        'sessions',
        'audit_events',
        'patients',
        'assessments',
        'symptoms',
        'risk_factors',
        'management',
        'results',
        'doctor_reviews',
        'assessment_totals',
        'assessment_dates',
      ]) {
        expect(names).toContain(table);
      }
      for (let undone = 0; undone < migrations.length; undone++) await migrateDown(handle);
      expect(await tableNames()).toEqual([]);
      expect(await migrateToLatest(handle)).toEqual(migrations.map((m) => m.name));
    } finally {
      await handle.close();
    }
  });

  it('apply the pending migrations all or not at all: one that fails half-way leaves the schema as it was', async () => {
    const handle = await open();
    const tableNames = async () =>
      (await handle.db.introspection.getTables())
        .filter((table) => handle.schema === undefined || table.schema === handle.schema)
        .map((table) => table.name)
        .sort();
    const appliedCount = async () =>
      (
        await sql<{ n: number }>`select count(*) as n from ${sql.table(
          handle.schema === undefined ? 'kysely_migration' : `${handle.schema}.kysely_migration`,
        )}`.execute(handle.db)
      ).rows[0]?.n;
    try {
      await undoThrough(handle, cdsClients.name);
      // Three migrations are pending; the third's third table is already there, so it fails
      // after the first two and its own first two tables.
      await sql`create table second_factor_challenges (id text)`.execute(handle.db);
      const before = await tableNames();
      await expect(migrateToLatest(handle)).rejects.toThrow(/20261125T0620-mfa failed/);
      expect(await tableNames()).toEqual(before);
      expect(Number(await appliedCount())).toBe(
        migrations.findIndex((migration) => migration.name === cdsClients.name),
      );

      await sql`drop table second_factor_challenges`.execute(handle.db);
      await migrateToLatest(handle);
      expect(await tableNames()).toEqual(
        expect.arrayContaining(['cds_clients', 'api_tokens', 'second_factor_challenges']),
      );
      expect(Number(await appliedCount())).toBe(migrations.length);
    } finally {
      await handle.close();
    }
  });

  it('refuse to update or delete audit events', async () => {
    const handle = await open();
    try {
      await handle.db
        .insertInto('audit_events')
        .values({ at: new Date().toISOString(), action: 'login', outcome: 'success' })
        .execute();
      await expect(
        handle.db.updateTable('audit_events').set({ action: 'changed' }).execute(),
      ).rejects.toThrow(/append-only/);
      await expect(handle.db.deleteFrom('audit_events').execute()).rejects.toThrow(/append-only/);
      const rows = await handle.db.selectFrom('audit_events').select('action').execute();
      expect(rows).toEqual([{ action: 'login' }]);
    } finally {
      await handle.close();
    }
  });

  it('refuse to rewrite or empty the audit trail by the ways round those triggers', async () => {
    const handle = await open();
    const trail = () => handle.db.selectFrom('audit_events').selectAll().orderBy('id').execute();
    try {
      await handle.db
        .insertInto('audit_events')
        .values({ at, username: 'nurse-nia', action: 'login', outcome: 'success' })
        .execute();
      const before = await trail();
      const id = before[0]?.id ?? 0;
      const rewrites =
        handle.engine === 'postgres'
          ? [
              sql`insert into audit_events (id, at, action, outcome) overriding system value
                values (${id}, ${at}, 'rewritten', 'success')
                on conflict (id) do update set action = excluded.action`,
              sql`truncate audit_events`,
              sql`truncate table only audit_events restart identity`,
            ]
          : [
              sql`replace into audit_events (id, at, action, outcome)
                values (${id}, ${at}, 'rewritten', 'success')`,
              sql`insert or replace into audit_events (id, at, action, outcome)
                values (${id}, ${at}, 'rewritten', 'success')`,
              sql`insert into audit_events (id, at, action, outcome)
                values (${id}, ${at}, 'rewritten', 'success')
                on conflict (id) do update set action = excluded.action`,
              // SQLite's TRUNCATE: a DELETE without WHERE, which triggers keep a row-by-row delete.
              sql`delete from audit_events`,
            ];
      for (const statement of rewrites) {
        await expect(statement.execute(handle.db)).rejects.toThrow(/append-only/);
        expect(await trail()).toEqual(before);
      }
      await expect(
        handle.db.updateTable('audit_events').set({ action: 'changed' }).execute(),
      ).rejects.toThrow(/append-only/);
      await expect(
        handle.db.deleteFrom('audit_events').where('id', '=', id).execute(),
      ).rejects.toThrow(/append-only/);
      expect(await trail()).toEqual(before);

      // Appending goes on as before.
      await handle.db
        .insertInto('audit_events')
        .values({ at, username: 'nurse-nia', action: 'logout', outcome: 'success' })
        .execute();
      expect((await trail()).map((row) => row.action)).toEqual(['login', 'logout']);
    } finally {
      await handle.close();
    }
  });

  it('keep the audit trail written before the rewrite guard, and guard it from then on', async () => {
    const handle = await open();
    // The columns the rows were written with (later migrations add others, empty for these rows).
    const trail = () =>
      handle.db
        .selectFrom('audit_events')
        .select([
          'id',
          'at',
          'user_id',
          'username',
          'action',
          'target_type',
          'target_id',
          'outcome',
          'address',
        ])
        .orderBy('id')
        .execute();
    const user = { id: 'u1', username: 'nurse-nia' };
    try {
      await undoThrough(handle, auditNoRewrite.name);
      await insertEarlyAssessment(handle, 'a1', { searchText: 'a1 |2026-11-22' });
      for (const action of ['login', 'assessment_create', 'assessment_sign_off'] as const) {
        await recordAudit(handle.db, {
          at: new Date(at),
          actor: user,
          action,
          ...(action === 'login' ? {} : { target: { type: 'assessment', id: 'a1' } }),
          address: '10.0.0.1',
        });
      }
      await recordAudit(handle.db, {
        at: new Date(at),
        actor: { id: null, username: 'nurse-nia' },
        action: 'login_failed',
        outcome: 'failure',
        address: '10.0.0.2',
      });
      const before = await trail();
      expect(before).toHaveLength(4);

      expect(await migrateToLatest(handle)).toContain(auditNoRewrite.name);
      expect(await trail()).toEqual(before);

      const first = before[0]?.id ?? 0;
      await expect(
        (handle.engine === 'postgres'
          ? sql`truncate audit_events`
          : sql`replace into audit_events (id, at, action, outcome)
              values (${first}, ${at}, 'rewritten', 'success')`
        ).execute(handle.db),
      ).rejects.toThrow(/append-only/);
      expect(await trail()).toEqual(before);

      await recordAudit(handle.db, {
        at: new Date(at),
        actor: user,
        action: 'logout',
        address: '10.0.0.1',
      });
      const after = await trail();
      expect(after.slice(0, 4)).toEqual(before);
      expect(after[4]).toMatchObject({ action: 'logout', username: 'nurse-nia' });
      expect(Number(after[4]?.id)).toBeGreaterThan(Number(before[3]?.id));
    } finally {
      await handle.close();
    }
  });

  it('enforce foreign keys', async () => {
    const handle = await open();
    try {
      await expect(
        sql`insert into sessions (id_hash, user_id, created_at, last_seen_at) values ('h', 'nobody', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`.execute(
          handle.db,
        ),
      ).rejects.toThrow();
    } finally {
      await handle.close();
    }
  });

  it('index the search text of assessments made before the search migration, and keep it fixed', async () => {
    const handle = await open();
    try {
      await undoThrough(handle, historySearch.name);
      await insertEarlyAssessment(handle, 'a1', {
        searchText: 'a1 dm2-zx-20261122-0001 |2026-11-22',
      });
      await migrateToLatest(handle);

      const matches = (term: string) =>
        assessmentsRepository.count(handle.db, handle.engine, everythingScope, {
          textTerms: [term],
          numberTerms: [],
        });
      expect(await matches('zx-2026')).toBe(1);
      expect(await matches('zx-2027')).toBe(0);
      await expect(
        handle.db.updateTable('assessments').set({ search_text: 'changed' }).execute(),
      ).rejects.toThrow(/fixed/);
      await handle.db.updateTable('assessments').set({ notes: 'still editable' }).execute();
      expect(await matches('zx-2026')).toBe(1);
    } finally {
      await handle.close();
    }
  });

  it('count live and signed-off assessments from before the count migration, and follow every change', async () => {
    const handle = await open();
    try {
      // Its rows name MAIN once the schema has units.
      const placed: { orgUnitId?: string } = {};
      const add = (id: string, signedOff = false, deletedAt: string | null = null) =>
        insertEarlyAssessment(handle, id, {
          searchText: `${id} |2026-11-22`,
          signedOff,
          deletedAt,
          ...placed,
        });
      const change = (id: string, set: { deleted_at?: string | null; signed_off?: boolean }) =>
        handle.db.updateTable('assessments').set(set).where('id', '=', id).execute();
      // [live, live and signed off, live and not signed off], from the kept numbers...
      const kept = () =>
        Promise.all(
          [undefined, true, false].map((signedOff) =>
            assessmentsRepository.count(handle.db, handle.engine, everythingScope, {
              textTerms: [],
              numberTerms: [],
              signedOff,
            }),
          ),
        );
      // ...and from the rows themselves.
      const counted = async () => {
        const rows = await handle.db
          .selectFrom('assessments')
          .select(['signed_off', 'deleted_at'])
          .execute();
        const live = rows.filter((row) => row.deleted_at === null);
        const signed = live.filter((row) => bool(row.signed_off)).length;
        return [live.length, signed, live.length - signed];
      };

      await undoThrough(handle, liveCount.name);
      await add('a1');
      await add('a2', false, at);
      await add('a3', true);
      await migrateToLatest(handle);
      expect(await kept()).toEqual([2, 1, 1]);
      placed.orgUnitId = (await orgUnitsRepository.findMain(handle.db))?.id;

      const steps = [
        () => add('a4', true),
        () => add('a5', true, at),
        () => change('a1', { signed_off: true }),
        () => change('a1', { deleted_at: at }),
        () => change('a1', { deleted_at: at }),
        () => change('a2', { deleted_at: null }),
        () => change('a5', { deleted_at: null }),
        () => handle.db.updateTable('assessments').set({ notes: 'n' }).execute(),
        () => handle.db.deleteFrom('assessments').where('id', 'in', ['a3', 'a4']).execute(),
      ];
      for (const step of steps) {
        await step();
        expect(await kept()).toEqual(await counted());
      }
      expect(await kept()).toEqual([2, 1, 1]);
    } finally {
      await handle.close();
    }
  });

  it('copy the patient and date the history searches, and follow changes of the patient', async () => {
    const handle = await open();
    try {
      const search = (filter: Partial<AssessmentFilter>) =>
        assessmentsRepository.count(handle.db, handle.engine, everythingScope, {
          textTerms: [],
          numberTerms: [],
          ...filter,
        });
      await undoThrough(handle, historyColumns.name);
      await insertEarlyAssessment(handle, 'a1', {
        searchText: 'a1  |2026-11-22',
        patient: { age: 45, gender: 'Male' },
      });
      await migrateToLatest(handle);

      expect(await search({ gender: 'Male' })).toBe(1);
      expect(await search({ gender: 'Female' })).toBe(0);
      expect(await search({ numberTerms: ['45'] })).toBe(1);
      // '11' is in the date, '7' in neither the date nor the age.
      expect(await search({ numberTerms: ['11'] })).toBe(1);
      expect(await search({ numberTerms: ['7'] })).toBe(0);

      await handle.db
        .updateTable('patients')
        .set({ age: 46, gender: 'Female' })
        .where('id', '=', 'a1')
        .execute();
      expect(await search({ gender: 'Female', numberTerms: ['46'] })).toBe(1);
      expect(await search({ numberTerms: ['45'] })).toBe(0);
    } finally {
      await handle.close();
    }
  });
});

// Only PostgreSQL has this index; SQLite's trigram search is a table of its own, tested above.
for (const { open } of testDatabases().filter((database) => database.engine === 'postgres')) {
  describe('migrations on postgres', () => {
    it('give PostgreSQL a trigram index of the search text', async () => {
      const handle = await open();
      const trigramIndex = () =>
        sql<{ indexdef: string }>`select indexdef from pg_indexes
          where schemaname = ${handle.schema}
          and indexname = 'assessments_search_text_trgm_idx'`.execute(handle.db);
      try {
        const { rows } = await trigramIndex();
        expect(rows[0]?.indexdef).toMatch(/USING gin \(search_text \w+\.gin_trgm_ops\)/);
        await undoThrough(handle, postgresTrigram.name);
        expect((await trigramIndex()).rows).toEqual([]);
      } finally {
        await handle.close();
      }
    });
  });
}
