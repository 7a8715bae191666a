/**
 * Web: the built app's JavaScript and CSS, raw and gzipped (zlib's default level, as a server
 * compressing on the fly would send them). Initial means what index.html loads before the app
 * can start: its module scripts, module preloads and stylesheets; lazy chunks count only in the
 * totals. The build goes to a folder of its own, so dist/web (which the end-to-end tests serve)
 * is left alone.
 *
 * Then Lighthouse's performance and accessibility scores for the dashboard and the new-assessment
 * wizard, as a signed-in administrator (the session cookie goes as an extra header), against
 * `triage serve` serving that build on a small seeded database. Each page is scored with
 * Lighthouse's desktop preset and with its default, a phone on a slow 4G link with a 4x slower
 * CPU (both simulated); the figure is the median of --runs runs. Lighthouse drives Debian's
 * Chromium (CHROME_PATH, /usr/bin/chromium unless set), never a downloaded browser.
 *
 *   node bench/web.ts [--runs 3]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import { build } from 'vite';
import {
  createBenchUser,
  describeMachine,
  nodeBinary,
  percentile,
  printTable,
  repoRoot,
  runDir,
  seededFixture,
  signIn,
  startServer,
  type Row,
} from './harness.ts';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error('--runs must be a whole number of at least 1');

const kilobyte = 1000;
const initialJavaScriptTargetKb = 200;
const lighthouseTargetScore = 95;
/** Enough records for a full first page of history and a population chart. */
const seededAssessments = 500;
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

console.log(`Machine: ${describeMachine()}`);

const outDir = path.join(runDir(), 'web');
await build({
  root: path.join(repoRoot, 'src/web'),
  configFile: path.join(repoRoot, 'vite.config.ts'),
  logLevel: 'warn',
  build: { outDir, emptyOutDir: true, sourcemap: false },
});

const html = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
const referenced = (pattern: RegExp) =>
  [...html.matchAll(pattern)].map((match) => path.join(outDir, match[1] ?? ''));
const initialJavaScript = [
  ...referenced(/<script[^>]+type="module"[^>]+src="([^"]+)"/g),
  ...referenced(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g),
];
const initialCss = referenced(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g);
const assets = fs
  .readdirSync(path.join(outDir, 'assets'))
  .map((name) => path.join(outDir, 'assets', name));

function sizes(files: readonly string[]): { raw: number; gzipped: number } {
  let raw = 0;
  let gzipped = 0;
  for (const file of new Set(files)) {
    const content = fs.readFileSync(file);
    raw += content.length;
    gzipped += zlib.gzipSync(content).length;
  }
  return { raw: raw / kilobyte, gzipped: gzipped / kilobyte };
}

const initialJs = sizes(initialJavaScript);
const rows: Row[] = [
  {
    measure: 'initial JavaScript, gzipped (baseline: the target)',
    figure: initialJs.gzipped,
    baseline: initialJavaScriptTargetKb,
    unit: 'kB',
    ratioLabel: 'x target',
  },
];
for (const [label, files] of [
  ['initial JavaScript', initialJavaScript],
  ['initial CSS', initialCss],
  ['all JavaScript', assets.filter((file) => file.endsWith('.js'))],
  ['all CSS', assets.filter((file) => file.endsWith('.css'))],
] as const) {
  const { raw, gzipped } = sizes(files);
  rows.push({
    measure: `${label}, gzipped (baseline: raw)`,
    figure: gzipped,
    baseline: raw,
    unit: 'kB',
    ratioLabel: 'x raw',
  });
}
printTable(`Web: ${assets.length} assets, ${initialJavaScript.length} initial scripts`, rows);

const pages = [
  { name: 'dashboard', path: '/' },
  { name: 'wizard', path: '/assessments/new' },
] as const;
const formFactors = ['desktop', 'mobile'] as const;

interface LighthouseAudit {
  score: number | null;
  displayValue?: string;
}
interface LighthouseResult {
  categories: Record<
    'performance' | 'accessibility',
    { score: number | null; auditRefs: { id: string; weight: number }[] }
  >;
  audits: Record<string, LighthouseAudit>;
  /** Lighthouse's measure of the host's CPU speed: its 4x slowdown assumes an index over 1,000. */
  environment: { benchmarkIndex: number };
}

const lighthouseCli = createRequire(import.meta.url).resolve('lighthouse/cli/index.js');
const lighthouseVersion = (
  JSON.parse(
    fs.readFileSync(path.join(path.dirname(lighthouseCli), '..', 'package.json'), 'utf8'),
  ) as { version: string }
).version;

/** One Lighthouse run of the CLI in a child process; its JSON report. */
async function lighthouse(
  url: string,
  formFactor: (typeof formFactors)[number],
  cookie: string,
): Promise<LighthouseResult> {
  const child = spawn(
    nodeBinary,
    [
      lighthouseCli,
      url,
      '--output=json',
      '--output-path=stdout',
      '--quiet',
      '--only-categories=performance,accessibility',
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu',
      `--extra-headers=${JSON.stringify({ Cookie: cookie })}`,
      ...(formFactor === 'desktop' ? ['--preset=desktop'] : []),
    ],
    {
      env: { ...process.env, CHROME_PATH: chromePath },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`Lighthouse exited with ${code} for ${url}`);
  return JSON.parse(output) as LighthouseResult;
}

/** A category's score out of 100, and its weighted audits that fell short, for the notes. */
function categoryOutcome(result: LighthouseResult, category: 'performance' | 'accessibility') {
  const { score, auditRefs } = result.categories[category];
  const shortfalls = auditRefs
    .filter((ref) => ref.weight > 0)
    .map((ref) => ({ id: ref.id, audit: result.audits[ref.id] }))
    .filter(({ audit }) => audit?.score != null && audit.score < 0.9)
    .map(({ id, audit }) => `${id}${audit?.displayValue ? ` ${audit.displayValue}` : ''}`);
  return { score: Math.round((score ?? Number.NaN) * 100), shortfalls };
}

if (!fs.existsSync(chromePath)) {
  console.log(
    `\nLighthouse: not measured; no Chromium at ${chromePath} (apt-get install chromium, or set CHROME_PATH).`,
  );
} else {
  const fixture = await seededFixture('sqlite', seededAssessments);
  try {
    const user = await createBenchUser(fixture);
    const server = await startServer(fixture, { webRoot: outDir });
    try {
      const cookie = await signIn(server, user);
      const scoreRows: Row[] = [];
      const notes: string[] = [];
      const spreads: string[] = [];
      const benchmarkIndexes: number[] = [];
      for (const formFactor of formFactors) {
        for (const page of pages) {
          const outcomes = [];
          for (let run = 0; run < runs; run += 1) {
            const result = await lighthouse(`${server.url}${page.path}`, formFactor, cookie);
            benchmarkIndexes.push(result.environment.benchmarkIndex);
            outcomes.push({
              performance: categoryOutcome(result, 'performance'),
              accessibility: categoryOutcome(result, 'accessibility'),
            });
          }
          // One build scores 79 to 94 between runs of an hour on a shared machine: every run is
          // printed beside the median, so that two builds are not told apart by noise.
          spreads.push(
            `${page.name}, ${formFactor}: performance ${outcomes.map((outcome) => outcome.performance.score).join(', ')}`,
          );
          for (const category of ['performance', 'accessibility'] as const) {
            const score = percentile(
              outcomes.map((outcome) => outcome[category].score),
              0.5,
            );
            scoreRows.push({
              measure: `${page.name} (${page.path}), ${formFactor}: ${category} (baseline: the target)`,
              figure: score,
              baseline: lighthouseTargetScore,
              unit: '/ 100',
              ratioLabel: 'x target',
            });
            const median = outcomes.find((outcome) => outcome[category].score === score);
            if (score < lighthouseTargetScore && median !== undefined) {
              notes.push(
                `${page.name}, ${formFactor}, ${category} ${score}: ${median[category].shortfalls.join(', ')}`,
              );
            }
          }
        }
      }
      printTable(
        `Lighthouse ${lighthouseVersion}: median of ${runs} run${runs === 1 ? '' : 's'}, ${seededAssessments} assessments, signed in as an administrator`,
        scoreRows,
      );
      // The simulated phone is this machine's CPU slowed 4x: on a slower host the same build scores
      // lower, so figures from different machines compare only beside their index.
      console.log(
        `\nLighthouse's benchmark index of this machine (CPU speed): median ${Math.round(percentile(benchmarkIndexes, 0.5))}, ` +
          `${Math.round(Math.min(...benchmarkIndexes))} to ${Math.round(Math.max(...benchmarkIndexes))}`,
      );
      console.log('\nEach run, in order:');
      for (const spread of spreads) console.log(`- ${spread}`);
      if (notes.length > 0) {
        console.log('\nBelow the target, the weighted audits that fell short (median run):');
        for (const note of notes) console.log(`- ${note}`);
      }
    } finally {
      await server.stop();
    }
  } finally {
    await fixture.drop();
  }
}
