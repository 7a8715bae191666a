/**
 * Every benchmark in turn, each in its own process so that none inherits another's heap:
 *   node bench/run-all.ts [--engine sqlite|postgres|both] [--assessments 100000] [--seconds 10]
 *     [--clients 16] [--patients 30000] [--keep]
 * The seeded databases are shared by history, export, extractor, dashboard and rescore (patients seeds its
 * own, over --patients patient records; worklists seeds and drops its own), and dropped at the end
 * unless --keep is given.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { dropSeeded, nodeBinary, parseBenchOptions, repoRoot } from './harness.ts';

const options = parseBenchOptions();
const engine = options.engines.length === 2 ? 'both' : (options.engines[0] ?? 'both');
const common = [
  '--engine',
  engine,
  '--clients',
  String(options.clients),
  '--seconds',
  String(options.seconds),
];
const seeded = ['--assessments', String(options.assessments), '--keep'];

const runs: [script: string, args: string[]][] = [
  ['engine.ts', ['--assessments', String(Math.max(options.assessments, 200_000))]],
  ['save.ts', common],
  ['history.ts', [...common, ...seeded]],
  ['export.ts', [...common, ...seeded]],
  ['extractor.ts', [...common, ...seeded]],
  ['patients.ts', [...common, ...seeded, '--patients', String(options.patients)]],
  ['dashboard.ts', [...common, ...seeded]],
  ['rescore.ts', [...common, ...seeded]],
  // Seeds a database of its own (with patient records) and drops it at its end.
  ['worklists.ts', [...common, '--assessments', String(options.assessments)]],
  ...(options.engines.includes('postgres') ? [['scale-out.ts', common] as [string, string[]]] : []),
  ['web.ts', []],
];

const failed: string[] = [];
for (const [script, args] of runs) {
  console.log(`\n## ${script} ${args.join(' ')}\n`);
  const child = spawn(nodeBinary, [path.join(repoRoot, 'bench', script), ...args], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) failed.push(script);
}

if (!options.keep) {
  for (const each of options.engines) {
    await dropSeeded(each, options.assessments);
    await dropSeeded(each, options.assessments, options.patients);
  }
}
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
