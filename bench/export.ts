/**
 * Export: the bulk CSV and FHIR NDJSON of N seeded assessments over HTTP; rows a second and the
 * server's peak memory (VmHWM of a server started for that one download).
 *
 * Baseline for speed: the same assessments (live, newest first) with their patient and six
 * results read with the driver alone and written as CSV to nowhere. Baseline for memory: the
 * same server's resident memory just before the download.
 *
 *   node bench/export.ts [--engine sqlite|postgres|both] [--assessments 100000] [--keep]
 */
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import Cursor from 'pg-cursor';
import {
  createBenchUser,
  forEachEngine,
  parseBenchOptions,
  printTable,
  seededFixture,
  signIn,
  startServer,
  type Fixture,
  type Row,
} from './harness.ts';

const megabyte = 2 ** 20;

const assessmentColumns =
  'a.id, a.assessment_code, a.created_at, a.updated_at, p.age, p.gender, p.height, p.weight, p.bmi, a.assessment_complete, a.signed_off, a.signed_off_at, a.signed_off_by, a.total_score, a.notes';
const resultFields =
  'r.condition, r.risk_status, r.total_score, r.factor_count, r.symptom_score, r.risk_factor_score, r.comorbidity_score, r.management_score';
const order = 'where a.deleted_at is null order by a.created_at desc, a.id desc';

const sqliteQuery = `select ${assessmentColumns},
  (select json_group_array(json_array(${resultFields})) from results r where r.assessment_id = a.id) as results
  from assessments a join patients p on p.id = a.patient_id ${order}`;
const postgresQuery = `select ${assessmentColumns},
  (select json_agg(json_build_array(${resultFields})) from results r where r.assessment_id = a.id) as results
  from assessments a join patients p on p.id = a.patient_id ${order}`;

type DriverValue = string | number | boolean | null;

function csvField(value: DriverValue): string {
  const text = value === null ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV line per assessment: its columns, then each result's figures flattened. */
function csvLine(row: Record<string, unknown>): string {
  const fields: DriverValue[] = [];
  for (const [column, value] of Object.entries(row)) {
    if (column !== 'results') fields.push(value as DriverValue);
  }
  const results = (typeof row.results === 'string' ? JSON.parse(row.results) : row.results) as
    DriverValue[][] | null;
  for (const result of results ?? []) fields.push(...result.slice(1));
  return `${fields.map(csvField).join(',')}\n`;
}

/** Reads every live assessment with the driver and makes its CSV, keeping nothing. */
async function driverCsv(fixture: Fixture): Promise<{ rows: number; seconds: number }> {
  const started = performance.now();
  let rows = 0;
  let bytes = 0;
  if (fixture.sqliteFile !== undefined) {
    const db = new DatabaseSync(fixture.sqliteFile, { readOnly: true });
    for (const row of db.prepare(sqliteQuery).iterate()) {
      bytes += csvLine(row).length;
      rows++;
    }
    db.close();
  } else {
    const client = new pg.Client({ connectionString: fixture.databaseUrl });
    await client.connect();
    const cursor = client.query(new Cursor<Record<string, unknown>>(postgresQuery));
    for (;;) {
      const page = await cursor.read(1000);
      if (page.length === 0) break;
      for (const row of page) bytes += csvLine(row).length;
      rows += page.length;
    }
    await cursor.close();
    await client.end();
  }
  if (bytes === 0 && rows > 0) throw new Error('unreachable: keeps the CSV in use');
  return { rows, seconds: (performance.now() - started) / 1000 };
}

/** Downloads one export from a server started for it; counts its lines and the server's peak. */
async function download(
  fixture: Fixture,
  path: string,
): Promise<{
  lines: number;
  megabytes: number;
  seconds: number;
  peakRss: number;
  idleRss: number;
}> {
  const server = await startServer(fixture);
  try {
    const cookie = await signIn(server, await createBenchUser(fixture));
    const idleRss = server.peakRssBytes();
    const started = performance.now();
    const response = await fetch(`${server.url}${path}`, { headers: { cookie } });
    if (!response.ok || response.body === null) throw new Error(`GET ${path}: ${response.status}`);
    let lines = 0;
    let bytes = 0;
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines++;
    }
    const seconds = (performance.now() - started) / 1000;
    return { lines, megabytes: bytes / megabyte, seconds, peakRss: server.peakRssBytes(), idleRss };
  } finally {
    await server.stop();
  }
}

const options = parseBenchOptions();

await forEachEngine(options, async (engine, fixtures) => {
  const fixture = await seededFixture(engine, options.assessments, { keep: options.keep });
  fixtures.push(fixture);
  const baseline = await driverCsv(fixture);
  const baselinePerSecond = baseline.rows / baseline.seconds;
  const rows: Row[] = [];
  for (const [label, path, headerLines] of [
    ['CSV', '/api/exports/assessments.csv', 1],
    ['FHIR NDJSON', '/api/exports/fhir.ndjson', 0],
  ] as const) {
    const result = await download(fixture, path);
    // NDJSON has a line per FHIR resource, several per assessment: rows are assessments.
    const lines = result.lines - headerLines;
    if (label === 'CSV' && lines !== baseline.rows) {
      console.warn(`The CSV has ${lines} rows; the driver read ${baseline.rows}`);
    }
    rows.push(
      {
        measure: `${label} assessments a second (${lines.toLocaleString('en')} lines, ${result.megabytes.toFixed(0)} MB in ${result.seconds.toFixed(1)} s)`,
        figure: baseline.rows / result.seconds,
        baseline: baselinePerSecond,
        unit: '/s',
      },
      {
        measure: `${label} server peak memory (baseline: before the download)`,
        figure: result.peakRss / megabyte,
        baseline: result.idleRss / megabyte,
        unit: 'MB',
      },
    );
  }
  printTable(
    `Export on ${engine}: ${options.assessments.toLocaleString('en')} assessments (driver baseline ${baseline.rows.toLocaleString('en')} rows in ${baseline.seconds.toFixed(1)} s)`,
    rows,
  );
});
