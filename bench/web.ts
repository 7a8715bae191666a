/**
 * Web: the built app's JavaScript and CSS, raw and gzipped (zlib's default level, as a server
 * compressing on the fly would send them). Initial means what index.html loads before the app
 * can start: its module scripts, module preloads and stylesheets; lazy chunks count only in the
 * totals. The build goes to a folder of its own, so dist/web (which the end-to-end tests serve)
 * is left alone.
 *
 * Lighthouse scores need the `lighthouse` npm package, which the project does not have: this
 * script says so rather than scoring.
 *
 *   node bench/web.ts
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import { build } from 'vite';
import { benchDir, printTable, repoRoot, type Row } from './harness.ts';

const kilobyte = 1000;
const initialJavaScriptTargetKb = 200;

const outDir = path.join(benchDir, 'web');
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

const require = createRequire(import.meta.url);
let lighthouseInstalled = true;
try {
  require.resolve('lighthouse');
} catch {
  lighthouseInstalled = false;
}
console.log(
  lighthouseInstalled
    ? '\nLighthouse is installed but not yet wired in: no scores.'
    : '\nLighthouse: not measured; it needs the `lighthouse` npm package (a devDependency the project does not have).',
);
