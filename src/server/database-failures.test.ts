import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Assessment } from '../shared/api/assessments.ts';
import { friendlyMessages } from '../shared/texts.ts';
import { openDatabase } from './db/database.ts';
import { migrateToLatest } from './db/migrate.ts';
import { databaseDoesNotAnswer } from './routes/health.ts';
import { openTestApp, type TestApp } from './testing/app.ts';
import { testDatabases, testDatabaseUrl, type TestDatabase } from './testing/databases.ts';
import { signedInAs } from './testing/users.ts';

/** A 62-year-old woman, BMI 31.2, with a family history of diabetes, thirsty and tired. */
const patient = {
  demographics: { age: 62, gender: 'Female', height: 160, weight: 80 },
  riskFactors: { smoking: false, familyHistory: { DM2: true }, householdTBExposure: false },
  symptoms: { DM2: { thirst: { present: true, severity: 'moderate' } } },
} as const;

const unavailable = {
  error: { code: 'database_unavailable', message: friendlyMessages.database },
};
const diskFull = { error: { code: 'disk_full', message: friendlyMessages.diskFull } };

const save = (t: TestApp, cookie: string) =>
  t.app.inject({ method: 'POST', url: '/api/assessments', headers: { cookie }, payload: patient });

/** An application over a PostgreSQL URL; nothing is migrated, since nothing may answer there. */
const postgresAt = (url: string): TestDatabase => ({
  engine: 'postgres',
  open: () => Promise.resolve(openDatabase({ databaseUrl: url })),
});

/** A port on this machine that nothing listens on. */
async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('a PostgreSQL server that cannot be reached', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(postgresAt(`postgres://triage@127.0.0.1:${await unusedPort()}/triage`));
  });
  afterAll(async () => {
    await t.close();
  });

  it('makes health and every API request answer 503, not 500', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({
      error: { code: 'database_unavailable', message: databaseDoesNotAnswer },
    });

    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username: 'nurse-nia', password: 'a-long-test-passphrase-42' },
    });
    expect(signIn.statusCode).toBe(503);
    expect(signIn.json()).toEqual(unavailable);

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/assessments',
      headers: { cookie: 'triage_session=some-session' },
    });
    expect(list.statusCode).toBe(503);
    expect(list.json()).toEqual(unavailable);
  });
});

describe('a PostgreSQL server that accepts connections and never answers', () => {
  let t: TestApp;
  let silent: net.Server;
  const sockets = new Set<net.Socket>();
  beforeAll(async () => {
    silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    t = await openTestApp(postgresAt(`postgres://triage@127.0.0.1:${port}/triage`));
  });
  afterAll(async () => {
    await t.close();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('answers health within its deadline and requests when the connection times out', async () => {
    const started = Date.now();
    const [health, signIn] = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/health' }).then((response) => {
        expect(Date.now() - started).toBeLessThan(4_000);
        return response;
      }),
      t.app.inject({
        method: 'POST',
        url: '/api/session',
        payload: { username: 'nurse-nia', password: 'a-long-test-passphrase-42' },
      }),
    ]);
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ error: { code: 'database_unavailable' } });
    expect(signIn.statusCode).toBe(503);
    expect(signIn.json()).toEqual(unavailable);
  });
});

describe('a full disk under SQLite', () => {
  let folder: string;
  let t: TestApp;
  let nurse: { cookie: string };
  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-disk-full-'));
    t = await openTestApp({
      engine: 'sqlite',
      async open() {
        const handle = openDatabase({ sqliteFile: path.join(folder, 'triage.sqlite') });
        await migrateToLatest(handle);
        return handle;
      },
    });
    nurse = await signedInAs(t, 'nurse');
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  const count = async (table: 'assessments' | 'patients' | 'audit_events') =>
    Number(
      (
        await t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const liveCount = async () =>
    (await t.database.db.selectFrom('assessment_totals').select('live').executeTakeFirstOrThrow())
      .live;
  const counts = async () => ({
    assessments: await count('assessments'),
    patients: await count('patients'),
    audit: await count('audit_events'),
    live: await liveCount(),
  });
  /** SQLite answers SQLITE_FULL, as on a full disk, once the file would outgrow this many pages. */
  const limitPages = async (pages: number | 'current') => {
    const limit =
      pages === 'current'
        ? (await sql<{ page_count: number }>`pragma page_count`.execute(t.database.db)).rows[0]!
            .page_count
        : pages;
    await sql.raw(`pragma max_page_count = ${limit}`).execute(t.database.db);
  };

  afterEach(async () => {
    await limitPages(1_073_741_823);
  });

  /**
   * Saves, `together` at a time, until the disk is full; returns the counts before the round that
   * met it and that round's answers.
   */
  const saveUntilFull = async (together: number) => {
    for (let round = 0; round < 200; round += 1) {
      const before = await counts();
      const responses = await Promise.all(
        Array.from({ length: together }, () => save(t, nurse.cookie)),
      );
      if (responses.some((response) => response.statusCode !== 201)) return { before, responses };
    }
    throw new Error('The disk never filled');
  };

  it('answers a save with 503 disk_full, stores none of it, and saves again once there is room', async () => {
    await limitPages('current');
    const { before, responses } = await saveUntilFull(1);
    const refused = responses[0]!;
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual(diskFull);
    expect(await counts()).toEqual(before);

    // Reads go on while the disk is full.
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/assessments',
      headers: { cookie: nurse.cookie },
    });
    expect(list.statusCode).toBe(200);
    expect((await save(t, nurse.cookie)).statusCode).toBe(503);

    await limitPages(1_073_741_823);
    const saved = await save(t, nurse.cookie);
    expect(saved.statusCode).toBe(201);
    expect(await counts()).toEqual({
      assessments: before.assessments + 1,
      patients: before.patients + 1,
      audit: before.audit + 1,
      live: before.live + 1,
    });
  });

  it('stores exactly the saves it acknowledged when a batch of them meets the full disk', async () => {
    await limitPages('current');
    const { before, responses } = await saveUntilFull(6);
    for (const response of responses) {
      // A save either fitted the room that was left, or is refused as a whole.
      expect([201, 503]).toContain(response.statusCode);
      if (response.statusCode === 503) expect(response.json()).toEqual(diskFull);
    }
    const stored = responses.filter((response) => response.statusCode === 201).length;
    expect(await counts()).toEqual({
      assessments: before.assessments + stored,
      patients: before.patients + stored,
      audit: before.audit + stored,
      live: before.live + stored,
    });
  });
});

const postgresDatabases = testDatabases().filter((database) => database.engine === 'postgres');
for (const testDatabase of postgresDatabases) {
  describe('PostgreSQL connections ended under load', () => {
    let t: TestApp;
    let nurse: { cookie: string };
    let admin: pg.Client;
    let applicationName: string;
    beforeAll(async () => {
      t = await openTestApp(testDatabase);
      nurse = await signedInAs(t, 'nurse');
      applicationName = `triage ${t.database.schema}`;
      admin = new pg.Client({ connectionString: testDatabaseUrl() });
      await admin.connect();
    });
    afterAll(async () => {
      await admin.end();
      await t.close();
    });

    /**
     * Ends this application's connections (only this test's: they carry its schema's name). The
     * call stays in the select list: in the where clause PostgreSQL may run it before the filter,
     * on every connection of the server.
     */
    const endConnections = async (): Promise<number[]> => {
      const { rows } = await admin.query<{ pid: number }>(
        `select pid, pg_terminate_backend(pid) from pg_stat_activity
         where application_name = $1 and pid <> pg_backend_pid()`,
        [applicationName],
      );
      return rows.map((row) => row.pid);
    };
    /** Waits until the ended connections are gone from the server and their sockets closed. */
    const settle = async (pids: number[]) => {
      for (let attempt = 0; attempt < 100; attempt += 1) {
        const { rows } = await admin.query(
          'select 1 from pg_stat_activity where pid = any($1::int[])',
          [pids],
        );
        if (rows.length === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    };
    const read = (id: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/assessments/${id}`,
        headers: { cookie: nurse.cookie },
      });

    it('never hands a waiting query the connection that was just ended', async () => {
      // One connection, so the second query waits for the first one's; a name of its own, so
      // that only its connection is ended.
      const name = `probe_${crypto.randomBytes(6).toString('hex')}`;
      const handle = openDatabase({
        databaseUrl: testDatabaseUrl(),
        postgresSchema: name,
        poolSize: 1,
      });
      try {
        for (let round = 0; round < 5; round += 1) {
          const cut = sql`select pg_sleep(30)`.execute(handle.db).then(
            () => undefined,
            (error: unknown) => error,
          );
          const waiting = sql<{ answer: number }>`select 1 as answer`.execute(handle.db);
          for (let attempt = 0; attempt < 200; attempt += 1) {
            const { rows } = await admin.query(
              `select 1 from pg_stat_activity where application_name = $1 and state = 'active'`,
              [`triage ${name}`],
            );
            if (rows.length > 0) break;
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
          await admin.query(
            'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
            [`triage ${name}`],
          );
          expect(await cut).toMatchObject({ code: '57P01' });
          expect((await waiting).rows).toEqual([{ answer: 1 }]);
        }
      } finally {
        await handle.close();
      }
    });

    it('fails the saves it cuts with 503, keeps every acknowledged one, and recovers', async () => {
      const acknowledged: string[] = [];
      const statuses: number[] = [];
      const record = (responses: Array<Awaited<ReturnType<typeof save>>>) => {
        for (const response of responses) {
          statuses.push(response.statusCode);
          if (response.statusCode === 201) acknowledged.push(response.json<Assessment>().id);
          else expect(response.json()).toEqual(unavailable);
        }
      };

      // Saves held by a lock are certainly in flight when their connections end.
      await admin.query('begin');
      await admin.query(`lock table "${t.database.schema}".assessments in access exclusive mode`);
      const held = Promise.all(Array.from({ length: 8 }, () => save(t, nurse.cookie)));
      for (let attempt = 0; attempt < 200; attempt += 1) {
        const { rows } = await admin.query(
          `select 1 from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'`,
          [applicationName],
        );
        if (rows.length > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const ended = await endConnections();
      await admin.query('rollback');
      record(await held);
      expect(statuses).toContain(503);
      await settle(ended);

      // Connections ended at moments chance picks, idle ones or in the middle of a save.
      for (let round = 0; round < 6; round += 1) {
        const saves = Promise.all(Array.from({ length: 10 }, () => save(t, nurse.cookie)));
        await new Promise((resolve) => setTimeout(resolve, round * 4));
        const pids = await endConnections();
        record(await saves);
        await settle(pids);
      }
      expect(statuses.every((status) => status === 201 || status === 503)).toBe(true);

      // Back: no broken connection was left in the pool for a later request to meet.
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      for (let i = 0; i < 12; i += 1) {
        const response = await save(t, nurse.cookie);
        expect(response.statusCode, response.body).toBe(201);
        acknowledged.push(response.json<Assessment>().id);
      }
      for (const id of acknowledged) expect((await read(id)).statusCode).toBe(200);
    });
  });
}
