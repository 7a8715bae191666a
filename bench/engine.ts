/**
 * Throughput of the scoring engine and of `triage score`:
 *   node bench/engine.ts [--assessments 200000]   (or the count alone, as before)
 *
 * Stages are compared with JSON.parse of the same serialized inputs, measured in the same process:
 * that parse is the cost a line reader of JSON cannot go below, so the ratio says how much the rest
 * costs on this machine, whatever its speed. Each figure is given against wall-clock time and
 * against the process's CPU time: on a loaded machine the process waits for a core, which the CPU
 * figure leaves out. The load average is printed before and after.
 *
 * The pipeline runs `triage score` on distinct inputs, each read once: in this process through
 * `runScoreCommand` with in-memory streams, and as a child process with its standard input and
 * output on files.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { runScoreCommand } from '../src/cli/commands/score.ts';
import {
  CONDITIONS,
  GENDERS,
  LAST_DOCTOR_VISIT_OPTIONS,
  PRESCRIPTION_DURATION_OPTIONS,
  DEFAULT_RULE_SET,
  SEVERITIES,
  WEIGHT_CHANGES,
  score,
} from '../src/engine/index.ts';
import type { PatientData } from '../src/engine/index.ts';
import { readAssessmentInput } from '../src/cli/score-input-reader.ts';
import { ResultJsonWriter } from '../src/cli/score-result-json.ts';
import { assessmentInputSchema } from '../src/shared/assessment-input.ts';
import { z } from 'zod';

// Compiled as `triage score` compiles it, so that validation and the objects it hands to score()
// are those of the command.
const inputSchema = z.compile(assessmentInputSchema);

const { values, positionals } = parseArgs({
  options: { assessments: { type: 'string' } },
  allowPositionals: true,
});
const requested = Number(values.assessments ?? positionals[0] ?? 200_000);
if (!Number.isInteger(requested) || requested < 1) {
  throw new Error('--assessments must be a whole number of at least 1');
}
const POOL_SIZE = Math.min(requested, 1_000);
/** Whole passes over the pool, so that every stage scores the same inputs the same number of times. */
const count = Math.ceil(requested / POOL_SIZE) * POOL_SIZE;
const REPEATS = 4;
const INPUT_CHUNK_BYTES = 64 * 1024;

/** Deterministic generator (mulberry32), so that every run scores the same inputs. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = seededRandom(20_000);
const chance = (p: number) => random() < p;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const maybe = <T>(p: number, value: () => T): T | undefined => (chance(p) ? value() : undefined);

/** A varied input: some answers missing, some conditions diagnosed, every kind of symptom answer. */
function generateInput(): PatientData {
  const symptoms: Record<string, Record<string, { present: boolean; severity?: string }>> = {};
  const management: Record<
    string,
    { diagnosed: boolean; lastDoctorVisit?: string; prescriptionDuration?: string }
  > = {};
  for (const condition of CONDITIONS) {
    const answers: Record<string, { present: boolean; severity?: string }> = {};
    for (const symptom of DEFAULT_RULE_SET.conditions[condition].symptoms) {
      if (chance(0.2)) continue;
      const scale: readonly string[] =
        symptom.scale === 'weightChange' ? WEIGHT_CHANGES : SEVERITIES;
      answers[symptom.key] = chance(0.5)
        ? { present: true, severity: pick(scale) }
        : { present: chance(0.3) };
    }
    symptoms[condition] = answers;
    if (chance(0.5)) {
      management[condition] = chance(0.25)
        ? {
            diagnosed: true,
            lastDoctorVisit: pick(LAST_DOCTOR_VISIT_OPTIONS),
            prescriptionDuration: pick(PRESCRIPTION_DURATION_OPTIONS),
          }
        : { diagnosed: false };
    }
  }
  const input = {
    demographics: {
      age: maybe(0.95, () => Math.floor(random() * 100) + 1),
      gender: maybe(0.95, () => pick(GENDERS)),
      height: maybe(0.9, () => Math.round(1400 + random() * 600) / 10),
      weight: maybe(0.9, () => Math.round(400 + random() * 900) / 10),
    },
    riskFactors: {
      smoking: chance(0.3),
      familyHistory: {
        DM2: chance(0.3),
        Asthma: chance(0.2),
        Hypertension: chance(0.3),
        Hyperlipidaemia: chance(0.2),
      },
      householdTBExposure: chance(0.1),
    },
    symptoms,
    management,
  };
  // Through JSON and the schema, as the command reads it; the timed runs only see valid inputs.
  return inputSchema.parse(JSON.parse(JSON.stringify(input)));
}

// A pool of distinct inputs, scored over and over by the stages. `count` inputs held at once
// would time cache misses and the garbage collector; the command itself scores each input just
// after reading it, while it is still in the cache.
const pool = Array.from({ length: POOL_SIZE }, generateInput);
const poolLines = pool.map((input) => JSON.stringify(input));
const poolBytes = poolLines.map((line) => Buffer.from(line));
const poolResults = pool.map((input) => score(input));

// The pipeline reads `count` distinct inputs once each (the pool's first, then more), as a file.
const benchDir = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-bench-engine-'));
const inputPath = path.join(benchDir, 'inputs.jsonl');
const outputPath = path.join(benchDir, 'results.jsonl');
const lines = [...poolLines];
while (lines.length < count) lines.push(JSON.stringify(generateInput()));
fs.writeFileSync(inputPath, `${lines.join('\n')}\n`);
const inputText = fs.readFileSync(inputPath);
const inputChunks: Buffer[] = [];
for (let start = 0; start < inputText.length; start += INPUT_CHUNK_BYTES) {
  inputChunks.push(inputText.subarray(start, start + INPUT_CHUNK_BYTES));
}

/** Runs `each` on `count` pool indices in turn. */
function forEachAssessment(each: (index: number) => void): void {
  for (let i = 0; i < count; i++) each(i % pool.length);
}

// Keeps results alive, so that the optimizer cannot drop the work measured.
let sink = 0;
/** Bytes the in-process pipeline wrote, which the child process must write too. */
let pipelineBytes = 0;

const cliPath = path.resolve(import.meta.dirname, '../src/cli/main.ts');

/** `triage score` in a child process, standard input and output on files; resolves at its exit. */
function runChild(input: 'inputs' | 'nothing'): Promise<void> {
  const stdin = input === 'inputs' ? fs.openSync(inputPath, 'r') : 'ignore';
  const stdout = fs.openSync(outputPath, 'w');
  const child = spawn(process.execPath, [cliPath, 'score'], {
    stdio: [stdin, stdout, 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      if (typeof stdin === 'number') fs.closeSync(stdin);
      fs.closeSync(stdout);
      const size = fs.statSync(outputPath).size;
      if (code !== 0) reject(new Error(`triage score exited with ${code}`));
      else if (size !== (input === 'inputs' ? pipelineBytes : 0)) {
        reject(new Error(`triage score wrote ${size} bytes`));
      } else resolve();
    });
  });
}

interface Stage {
  label: string;
  run: () => void | Promise<void>;
  /** Another process does the work: its CPU time is not this process's. */
  child?: boolean;
  /** Timed alone, in milliseconds, not as a rate. */
  startup?: boolean;
  /** The stage the following ones are compared with. */
  baseline?: boolean;
}

const stages: Stage[] = [
  {
    label: 'JSON.parse of the input (baseline)',
    baseline: true,
    run: () =>
      forEachAssessment((index) => {
        sink += (JSON.parse(poolLines[index] ?? '') as object) === null ? 1 : 0;
      }),
  },
  {
    label: 'validate (shared schema, compiled)',
    run: () =>
      forEachAssessment((index) => {
        sink += inputSchema.safeParse(pool[index]).success ? 1 : 0;
      }),
  },
  {
    label: 'JSON.parse + validate',
    run: () =>
      forEachAssessment((index) => {
        sink += inputSchema.safeParse(JSON.parse(poolLines[index] ?? '')).success ? 1 : 0;
      }),
  },
  {
    label: 'readAssessmentInput (reads + validates)',
    run: () =>
      forEachAssessment((index) => {
        sink += readAssessmentInput(poolBytes[index] ?? Buffer.alloc(0)) === undefined ? 0 : 1;
      }),
  },
  {
    label: 'score()',
    run: () =>
      forEachAssessment((index) => {
        sink += score(pool[index] ?? {}).totalScore;
      }),
  },
  {
    label: 'JSON.stringify of the result',
    run: () =>
      forEachAssessment((index) => {
        sink += JSON.stringify(poolResults[index]).length;
      }),
  },
  {
    label: 'ResultJsonWriter',
    run: () => {
      const writer = new ResultJsonWriter();
      forEachAssessment((index) => {
        writer.write(poolResults[index] ?? score({}));
        if (writer.length >= INPUT_CHUNK_BYTES) sink += writer.take().length;
      });
    },
  },
  {
    label: 'pipeline baseline: JSON.parse of its lines',
    baseline: true,
    run: () => {
      for (const line of lines) sink += (JSON.parse(line) as object) === null ? 1 : 0;
    },
  },
  {
    label: 'triage score, in process (runScoreCommand)',
    run: async () => {
      let bytes = 0;
      const output = new Writable({
        write(chunk: Buffer, _encoding, done) {
          bytes += chunk.length;
          done();
        },
      });
      const exitCode = await runScoreCommand(Readable.from(inputChunks), output, process.stderr);
      pipelineBytes = bytes;
      if (exitCode !== 0) throw new Error(`runScoreCommand exited with ${exitCode}`);
    },
  },
  { label: 'triage score, child process, files', run: () => runChild('inputs'), child: true },
  {
    label: 'triage score, child process, no input',
    run: () => runChild('nothing'),
    child: true,
    startup: true,
  },
];

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

const loadBefore = os.loadavg();
// Rounds run every stage in turn, so that load from other processes weighs on all stages alike;
// each stage keeps its best times (the first round also warms the code up).
const best = stages.map(() => ({ wallMs: Infinity, cpuMs: Infinity }));
try {
  for (let round = 0; round < REPEATS; round++) {
    for (const [index, stage] of stages.entries()) {
      const [wallStart, cpuStart] = [performance.now(), cpuMs()];
      await stage.run();
      const times = best[index];
      if (times === undefined) continue;
      times.wallMs = Math.min(times.wallMs, performance.now() - wallStart);
      times.cpuMs = Math.min(times.cpuMs, cpuMs() - cpuStart);
    }
  }
} finally {
  fs.rmSync(benchDir, { recursive: true, force: true });
}
const loadAfter = os.loadavg();

const perSecond = (ms: number) => Math.round((count / ms) * 1000).toLocaleString('en');
const averageLine = poolLines.reduce((sum, line) => sum + line.length + 1, 0) / pool.length;
const averageResult =
  poolResults.reduce((sum, result) => sum + JSON.stringify(result).length, 0) / pool.length;
const load = (averages: number[]) => averages.map((average) => average.toFixed(2)).join(' ');
console.log(
  `${count.toLocaleString('en')} assessments (stages: ${pool.length.toLocaleString('en')} distinct, over and over; pipeline: ${count.toLocaleString('en')} distinct, once each), about ${Math.round(averageLine)} bytes of input and ${Math.round(averageResult)} of result each, best of ${REPEATS} runs`,
);
console.log(
  `load average before ${load(loadBefore)}, after ${load(loadAfter)} (${os.cpus().length} cores)`,
);
console.log(
  `${'stage'.padEnd(44)} ${'per s (wall)'.padStart(12)} ${'per s (CPU)'.padStart(12)} ${'x JSON.parse'.padStart(13)}`,
);
let baseline = { wallMs: Infinity, cpuMs: Infinity };
for (const [index, stage] of stages.entries()) {
  const times = best[index] ?? { wallMs: Infinity, cpuMs: Infinity };
  if (stage.baseline) baseline = times;
  if (stage.startup) {
    console.log(`${stage.label.padEnd(44)} ${`${Math.round(times.wallMs)} ms`.padStart(12)}`);
    continue;
  }
  const ratio = stage.child ? times.wallMs / baseline.wallMs : times.cpuMs / baseline.cpuMs;
  console.log(
    `${stage.label.padEnd(44)} ${perSecond(times.wallMs).padStart(12)} ${(stage.child ? '' : perSecond(times.cpuMs)).padStart(12)} ${ratio.toFixed(2).padStart(13)}`,
  );
}
if (Number.isNaN(sink)) console.log('unreachable: keeps sink in use');
