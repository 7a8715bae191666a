/**
 * FHIR Bulk Data export: a full `$export` of N seeded assessments over HTTP, from the kick-off to
 * the last file downloaded; assessments a second, the server's resident memory before and at its
 * peak (VmHWM of a server started for that one export), and the NDJSON the database held.
 *
 * Baseline for speed: the same live assessments, each with its patient and its results, symptoms,
 * management and reviews as JSON, read with the driver alone and written as JSON to nowhere; and
 * the single NDJSON download of the same assessments (`GET /api/exports/fhir.ndjson`).
 * Baseline for memory: the same server's resident memory just before the kick-off.
 *
 *   node bench/bulk-export.ts [--engine sqlite|postgres|both] [--assessments 100000] [--keep]
 */
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
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

const children = (aggregate: string, object: string) =>
  ['symptoms', 'management', 'results', 'doctor_reviews']
    .map(
      (table) =>
        `(select ${aggregate}(${object}(t.*)) from ${table} t where t.assessment_id = a.id) as ${table}`,
    )
    .join(', ');
const order = 'where a.deleted_at is null order by a.created_at desc, a.id desc';
const postgresQuery = `select a.*, p.age, p.gender, p.height, p.weight, p.bmi, ${children('json_agg', 'row_to_json')}
  from assessments a join patients p on p.id = a.patient_id ${order}`;
/** SQLite has no row_to_json: the children's rows as arrays of their ids and conditions. */
const sqliteQuery = `select a.*, p.age, p.gender, p.height, p.weight, p.bmi,
  ${['symptoms', 'management', 'results', 'doctor_reviews']
    .map(
      (table) =>
        `(select json_group_array(json_array(t.assessment_id, t.condition)) from ${table} t where t.assessment_id = a.id) as ${table}`,
    )
    .join(', ')}
  from assessments a join patients p on p.id = a.patient_id ${order}`;

/** Reads every live assessment whole with the driver and writes it as JSON, keeping nothing. */
async function driverRead(fixture: Fixture): Promise<{ rows: number; seconds: number }> {
  const started = performance.now();
  let rows = 0;
  let bytes = 0;
  if (fixture.sqliteFile !== undefined) {
    const db = new DatabaseSync(fixture.sqliteFile, { readOnly: true });
    for (const row of db.prepare(sqliteQuery).iterate()) {
      bytes += JSON.stringify(row).length;
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
      for (const row of page) bytes += JSON.stringify(row).length;
      rows += page.length;
    }
    await cursor.close();
    await client.end();
  }
  if (bytes === 0 && rows > 0) throw new Error('unreachable: keeps the JSON in use');
  return { rows, seconds: (performance.now() - started) / 1000 };
}

/** The bytes the database holds for the export's files (gzipped NDJSON). */
async function storedMegabytes(fixture: Fixture): Promise<number> {
  const query = 'select coalesce(sum(length(ndjson_gzip)), 0) as bytes from bulk_export_chunks';
  if (fixture.sqliteFile !== undefined) {
    const db = new DatabaseSync(fixture.sqliteFile, { readOnly: true });
    const row = db.prepare(query).get() as { bytes: number };
    db.close();
    return row.bytes / megabyte;
  }
  const client = new pg.Client({ connectionString: fixture.databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ bytes: string }>(query);
  await client.end();
  return Number(rows[0]?.bytes ?? 0) / megabyte;
}

/** The single NDJSON download of the same assessments (`GET /api/exports/fhir.ndjson`), timed. */
async function singleDownloadSeconds(fixture: Fixture): Promise<number> {
  const server = await startServer(fixture);
  try {
    const cookie = await signIn(server, await createBenchUser(fixture));
    const started = performance.now();
    const response = await fetch(`${server.url}/api/exports/fhir.ndjson`, { headers: { cookie } });
    if (!response.ok || response.body === null) throw new Error(`Download: ${response.status}`);
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      if (chunk.length < 0) throw new Error('unreachable');
    }
    return (performance.now() - started) / 1000;
  } finally {
    await server.stop();
  }
}

interface ExportRun {
  resources: number;
  megabytes: number;
  storedMegabytes: number;
  seconds: number;
  idleRss: number;
  peakRss: number;
}

/** A full export from a server started for it: kick-off, poll, every file downloaded, cancel. */
async function bulkExport(fixture: Fixture): Promise<ExportRun> {
  const server = await startServer(fixture);
  try {
    const cookie = await signIn(server, await createBenchUser(fixture));
    const idleRss = server.peakRssBytes();
    const started = performance.now();
    const kickOff = await fetch(`${server.url}/fhir/$export`, {
      headers: { cookie, prefer: 'respond-async', accept: 'application/fhir+json' },
    });
    const location = kickOff.headers.get('content-location');
    if (kickOff.status !== 202 || location === null) {
      throw new Error(`Kick-off: ${kickOff.status} ${await kickOff.text()}`);
    }
    const status = new URL(location).pathname;
    let manifest: { output: Array<{ url: string; count: number }> };
    for (;;) {
      const response = await fetch(`${server.url}${status}`, { headers: { cookie } });
      if (response.status === 200) {
        manifest = (await response.json()) as typeof manifest;
        break;
      }
      if (response.status !== 202) throw new Error(`Status: ${response.status}`);
      await sleep(200);
    }
    let resources = 0;
    let bytes = 0;
    for (const file of manifest.output) {
      const response = await fetch(`${server.url}${new URL(file.url).pathname}`, {
        headers: { cookie },
      });
      if (!response.ok || response.body === null) throw new Error(`File: ${response.status}`);
      for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        for (const byte of chunk) if (byte === 10) resources++;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const stored = await storedMegabytes(fixture);
    await fetch(`${server.url}${status}`, { method: 'DELETE', headers: { cookie } });
    return {
      resources,
      megabytes: bytes / megabyte,
      storedMegabytes: stored,
      seconds,
      idleRss,
      peakRss: server.peakRssBytes(),
    };
  } finally {
    await server.stop();
  }
}

const options = parseBenchOptions();

await forEachEngine(options, async (engine, fixtures) => {
  const fixture = await seededFixture(engine, options.assessments, { keep: options.keep });
  fixtures.push(fixture);
  const baseline = await driverRead(fixture);
  const run = await bulkExport(fixture);
  const single = await singleDownloadSeconds(fixture);
  const rows: Row[] = [
    {
      measure: `$export assessments a second, kick-off to last file (${run.resources.toLocaleString('en')} resources, ${run.megabytes.toFixed(0)} MB in ${run.seconds.toFixed(1)} s)`,
      figure: baseline.rows / run.seconds,
      baseline: baseline.rows / baseline.seconds,
      unit: '/s',
    },
    {
      measure: `$export against the single NDJSON download of the same assessments (${single.toFixed(1)} s), which writes nothing to keep`,
      figure: baseline.rows / run.seconds,
      baseline: baseline.rows / single,
      unit: '/s',
      ratioLabel: 'x single download',
    },
    {
      measure: 'server resident memory at its peak (baseline: before the kick-off)',
      figure: run.peakRss / megabyte,
      baseline: run.idleRss / megabyte,
      unit: 'MB',
    },
  ];
  printTable(
    `Bulk export on ${engine}: ${options.assessments.toLocaleString('en')} assessments (driver baseline ${baseline.rows.toLocaleString('en')} rows in ${baseline.seconds.toFixed(1)} s; ${run.storedMegabytes.toFixed(0)} MB held in the database (gzipped NDJSON), ${((run.storedMegabytes * 1024) / Math.max(1, baseline.rows / 1000)).toFixed(0)} KB per thousand assessments)`,
    rows,
  );
});
