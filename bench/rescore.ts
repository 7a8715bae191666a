/**
 * Rescore: the impact analysis of a rule set version (POST /api/rule-sets/:version/impact, as
 * NDJSON with its progress lines) over N seeded assessments, through a server, with the rule set
 * that is not the default.
 *
 * Baselines, measured in the same run against the same server and database: for time, the bulk
 * CSV export of the same assessments (it reads every live assessment a page at a time too); for
 * memory, the server's peak resident memory (VmHWM) just before the analysis, after the sign-in;
 * for the server's other work, GET /api/session answered while the server is idle against while
 * the analysis runs (node:sqlite is synchronous, so the analysis yields after each page).
 *
 *   node bench/rescore.ts [--engine sqlite|postgres|both] [--assessments 100000] [--keep]
 */
import { RULE_SETS } from '../src/engine/index.ts';
import { impactStreamLineSchema } from '../src/shared/rule-set-impact.ts';
import {
  createBenchUser,
  forEachEngine,
  latencyRowsAgainstFirst,
  loadDuring,
  parseBenchOptions,
  printTable,
  seededFixture,
  signIn,
  startServer,
  timedGet,
  type RunningServer,
  type Row,
} from './harness.ts';

const megabyte = 2 ** 20;
const probeIntervalMs = 250;
const version = RULE_SETS.at(-1)?.version ?? '';

/** The analysis as NDJSON, read to its end; its duration, progress lines and the result's count. */
async function impact(
  server: RunningServer,
  cookie: string,
): Promise<{ seconds: number; progressLines: number; assessments: number }> {
  const started = performance.now();
  const response = await fetch(`${server.url}/api/rule-sets/${version}/impact`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', accept: 'application/x-ndjson' },
    body: '{}',
  });
  if (!response.ok) throw new Error(`impact: ${response.status} ${await response.text()}`);
  const lines = (await response.text()).trimEnd().split('\n');
  const seconds = (performance.now() - started) / 1000;
  const last = impactStreamLineSchema.parse(JSON.parse(lines.at(-1) ?? 'null'));
  if (!('result' in last)) throw new Error(`impact ended with ${JSON.stringify(last)}`);
  return { seconds, progressLines: lines.length - 1, assessments: last.result.assessments };
}

/** Times GET /api/session every probeIntervalMs until `until` settles. */
async function probeWhile(url: string, cookie: string, until: Promise<unknown>): Promise<number[]> {
  let settled = false;
  void until.finally(() => (settled = true));
  const samples: number[] = [];
  while (!settled) {
    samples.push(await timedGet(`${url}/api/session`, cookie));
    await new Promise((resolve) => setTimeout(resolve, probeIntervalMs));
  }
  return samples;
}

/** The CSV export of every live assessment, read to its end; its duration and rows. */
async function csvExport(server: RunningServer, cookie: string) {
  const started = performance.now();
  const response = await fetch(`${server.url}/api/exports/assessments.csv`, {
    headers: { cookie },
  });
  if (!response.ok || response.body === null) throw new Error(`CSV: ${response.status}`);
  let lines = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    for (const byte of chunk) if (byte === 10) lines++;
  }
  return { seconds: (performance.now() - started) / 1000, rows: lines - 1 };
}

const options = parseBenchOptions();

await forEachEngine(options, async (engine, fixtures) => {
  const fixture = await seededFixture(engine, options.assessments, { keep: options.keep });
  fixtures.push(fixture);
  const server = await startServer(fixture);
  try {
    const cookie = await signIn(server, await createBenchUser(fixture));
    const idle: number[] = [];
    for (let i = 0; i < 40; i++) idle.push(await timedGet(`${server.url}/api/session`, cookie));
    const peakBefore = server.peakRssBytes();

    const running = loadDuring(() => impact(server, cookie));
    const during = await probeWhile(server.url, cookie, running);
    const [analysis, analysisLoad] = await running;
    const peakAfter = server.peakRssBytes();

    const [csv, csvLoad] = await loadDuring(() => csvExport(server, cookie));
    if (csv.rows !== analysis.assessments) {
      console.warn(`The CSV has ${csv.rows} rows; the analysis re-scored ${analysis.assessments}`);
    }
    const rows: Row[] = [
      {
        measure: `impact analysis of ${version}, ${analysis.assessments.toLocaleString('en')} assessments (${analysis.progressLines.toLocaleString('en')} progress lines), against the CSV export of the same (load during the CSV: ${csvLoad})`,
        figure: analysis.seconds,
        baseline: csv.seconds,
        unit: 's',
        load: analysisLoad,
      },
      {
        measure: 'assessments a second',
        figure: analysis.assessments / analysis.seconds,
        baseline: csv.rows / csv.seconds,
        unit: '/s',
        load: analysisLoad,
      },
      {
        measure: 'server peak memory (VmHWM) after the analysis, against before it',
        figure: peakAfter / megabyte,
        baseline: peakBefore / megabyte,
        unit: 'MB',
        load: analysisLoad,
      },
      ...latencyRowsAgainstFirst(
        [`GET /api/session while the analysis runs (${during.length} samples), against idle`],
        [idle, during],
      ).map((row) => ({ ...row, load: analysisLoad })),
    ];
    printTable(
      `Rescore on ${engine}: ${options.assessments.toLocaleString('en')} seeded assessments`,
      rows,
    );
  } finally {
    await server.stop();
  }
});
