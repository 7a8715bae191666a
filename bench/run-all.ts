/**
 * Every benchmark in turn, each in its own process so that none inherits another's heap:
 *   node bench/run-all.ts [--engine sqlite|postgres|both] [--assessments 100000] [--seconds 10]
 *     [--clients 16] [--patients 30000] [--keep]
 * The scripts work in this run's folder (BENCH_RUN_DIR), so that history, export, extractor,
 * dashboard and rescore share one seeded database (patients seeds its own, over --patients patient
 * records, and worklists its own); this run removes them at its end, unless --keep is given, which
 * keeps them in the cache for later runs.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { dropRunDatabases, nodeBinary, parseBenchOptions, repoRoot, runDir } from './harness.ts';

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
const seeded = ['--assessments', String(options.assessments), ...(options.keep ? ['--keep'] : [])];

const runs: [script: string, args: string[]][] = [
  ['engine.ts', ['--assessments', String(Math.max(options.assessments, 200_000))]],
  ['save.ts', common],
  ['history.ts', [...common, ...seeded]],
  ['export.ts', [...common, ...seeded]],
  ['extractor.ts', [...common, ...seeded]],
  ['patients.ts', [...common, ...seeded, '--patients', String(options.patients)]],
  ['dashboard.ts', [...common, ...seeded]],
  ['rescore.ts', [...common, ...seeded]],
  // Seeds a database of its own, with patient records.
  ['worklists.ts', [...common, ...seeded]],
  ...(options.engines.includes('postgres') ? [['scale-out.ts', common] as [string, string[]]] : []),
  ['web.ts', []],
];

const failed: string[] = [];
for (const [script, args] of runs) {
  console.log(`\n## ${script} ${args.join(' ')}\n`);
  const child = spawn(nodeBinary, [path.join(repoRoot, 'bench', script), ...args], {
    cwd: repoRoot,
    env: { ...process.env, BENCH_RUN_DIR: runDir() },
    stdio: 'inherit',
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) failed.push(script);
}

// The run's folder goes when this process exits; its PostgreSQL databases go here.
if (!options.keep && options.engines.includes('postgres')) await dropRunDatabases();
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join(', ')}`);
  process.exitCode = 1;
}
