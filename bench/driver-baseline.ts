/**
 * The driver baseline of the save benchmarks: the rows a save writes (patient, assessment,
 * symptoms, risk factors, management, results, audit row) inserted with the driver alone, one
 * transaction per assessment and one statement per table, on the same database: SQLite on one
 * connection with the server's pragmas (its writes are serial whatever the client count),
 * PostgreSQL from N pooled clients.
 */
import crypto from 'node:crypto';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import pg from 'pg';
import { generateAssessmentCode, score } from '../src/engine/index.ts';
import { newAssessmentRows, type PatientInput } from '../src/server/services/assessment-records.ts';
import type { Fixture } from './harness.ts';

type TableRows = [table: string, rows: Record<string, unknown>[]][];

/** Who saves in the baseline, and the unit a save of theirs goes to (their own). */
export interface BaselineAuthor {
  userId: string;
  orgUnitId: string;
}

/** What createAssessment writes for one body, as plain rows per table in insertion order. */
function saveRows(input: PatientInput, notes: string | null, author: BaselineAuthor): TableRows {
  const { userId, orgUnitId } = author;
  const now = new Date();
  const at = now.toISOString();
  const id = crypto.randomUUID();
  const rows = newAssessmentRows({
    id,
    patientId: crypto.randomUUID(),
    input,
    result: score(input),
    code: generateAssessmentCode(now.getTime(), Math.random),
    notes,
    at,
    localDate: at.slice(0, 10),
    createdBy: userId,
    patientRecordId: null,
    orgUnitId,
    withRiskRank: true,
  });
  return [
    ['patients', [rows.patient]],
    ['assessments', [rows.assessment]],
    ['symptoms', rows.symptoms],
    ['risk_factors', [rows.riskFactors]],
    ['management', rows.management],
    ['results', rows.results],
    [
      'audit_events',
      [
        {
          at,
          user_id: userId,
          username: 'bench',
          action: 'assessment_create',
          target_type: 'assessment',
          target_id: id,
          outcome: 'success',
          address: '127.0.0.1',
        },
      ],
    ],
  ];
}

/** `insert into t (a, b) values (?, ?), (?, ?)` with `?` or `$n` placeholders, and its values. */
function insertStatement(
  table: string,
  rows: Record<string, unknown>[],
  placeholder: (index: number) => string,
): { text: string; values: unknown[] } {
  const columns = Object.keys(rows[0] ?? {});
  const values: unknown[] = [];
  const tuples = rows.map((row) => {
    const marks = columns.map((column) => {
      values.push(row[column] ?? null);
      return placeholder(values.length);
    });
    return `(${marks.join(', ')})`;
  });
  return {
    text: `insert into ${table} (${columns.join(', ')}) values ${tuples.join(', ')}`,
    values,
  };
}

export interface Timed {
  perSecond: number;
  latenciesMs: number[];
}

function sqliteValue(value: unknown): SQLInputValue {
  return typeof value === 'boolean' ? Number(value) : (value as SQLInputValue);
}

export function driverSaveSqlite(
  file: string,
  input: PatientInput,
  notes: string | null,
  author: BaselineAuthor,
  seconds: number,
): Timed {
  const db = new DatabaseSync(file);
  db.exec(
    'PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;',
  );
  const statements = new Map<string, StatementSync>();
  const latenciesMs: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  while (performance.now() < until) {
    const begun = performance.now();
    db.exec('BEGIN');
    for (const [table, rows] of saveRows(input, notes, author)) {
      if (rows.length === 0) continue;
      const { text, values } = insertStatement(table, rows, () => '?');
      let statement = statements.get(text);
      if (statement === undefined) {
        statement = db.prepare(text);
        statements.set(text, statement);
      }
      statement.run(...values.map(sqliteValue));
    }
    db.exec('COMMIT');
    latenciesMs.push(performance.now() - begun);
  }
  db.close();
  return { perSecond: latenciesMs.length / ((performance.now() - started) / 1000), latenciesMs };
}

export async function driverSavePostgres(
  url: string,
  input: PatientInput,
  notes: string | null,
  author: BaselineAuthor,
  seconds: number,
  clients: number,
): Promise<Timed> {
  const pool = new pg.Pool({ connectionString: url, max: clients });
  const latenciesMs: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  const worker = async () => {
    const client = await pool.connect();
    try {
      while (performance.now() < until) {
        const begun = performance.now();
        await client.query('begin');
        for (const [table, rows] of saveRows(input, notes, author)) {
          if (rows.length === 0) continue;
          const { text, values } = insertStatement(table, rows, (index) => `$${index}`);
          await client.query(text, values);
        }
        await client.query('commit');
        latenciesMs.push(performance.now() - begun);
      }
    } finally {
      client.release();
    }
  };
  await Promise.all(Array.from({ length: clients }, worker));
  await pool.end();
  return { perSecond: latenciesMs.length / ((performance.now() - started) / 1000), latenciesMs };
}

export async function authorOf(fixture: Fixture, username: string): Promise<BaselineAuthor> {
  const query = `select users.id as "userId", user_units.org_unit_id as "orgUnitId"
    from users join user_units on user_units.user_id = users.id where users.username = `;
  if (fixture.sqliteFile !== undefined) {
    const db = new DatabaseSync(fixture.sqliteFile);
    const row = db.prepare(`${query}?`).get(username) as unknown as BaselineAuthor;
    db.close();
    return row;
  }
  const client = new pg.Client({ connectionString: fixture.databaseUrl });
  await client.connect();
  const found = await client.query<BaselineAuthor>(`${query}$1`, [username]);
  await client.end();
  return found.rows[0] ?? { userId: '', orgUnitId: '' };
}
