/**
 * Throughput of the scoring engine and of `triage score`:
 *   node bench/engine.ts [--assessments 200000]   (or the count alone, as before)
 *
 * Figures are compared with JSON.parse of the same serialized inputs, measured in the same
 * process: that parse is a cost `triage score` cannot avoid, so the ratio says how much the rest
 * costs on this machine, whatever its speed.
 */
import { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { runScoreCommand } from '../src/cli/commands/score.ts';
import {
  CONDITIONS,
  GENDERS,
  LAST_DOCTOR_VISIT_OPTIONS,
  PRESCRIPTION_DURATION_OPTIONS,
  RULE_SET_V2,
  SEVERITIES,
  WEIGHT_CHANGES,
  score,
} from '../src/engine/index.ts';
import type { PatientData } from '../src/engine/index.ts';
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
const INPUT_CHUNK_CHARS = 64 * 1024;

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
    for (const symptom of RULE_SET_V2.conditions[condition].symptoms) {
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

// A pool of distinct inputs, scored over and over. `count` inputs held at once would time cache
// misses and the garbage collector; the command itself scores each input just after parsing it,
// while it is still in the cache.
const pool = Array.from({ length: POOL_SIZE }, generateInput);
const poolLines = pool.map((input) => JSON.stringify(input));
const poolResults = pool.map((input) => score(input));
const poolText = `${poolLines.join('\n')}\n`;
const poolChunks: string[] = [];
for (let start = 0; start < poolText.length; start += INPUT_CHUNK_CHARS) {
  poolChunks.push(poolText.slice(start, start + INPUT_CHUNK_CHARS));
}

/** Runs `each` on `count` pool indices in turn. */
function forEachAssessment(each: (index: number) => void): void {
  for (let i = 0; i < count; i++) each(i % pool.length);
}

/** The pool's text in chunks, repeated until `count` lines have been read. */
function* inputChunks(): Generator<string> {
  for (let read = 0; read < count; read += pool.length) yield* poolChunks;
}

// Keeps results alive, so that the optimizer cannot drop the work measured.
let sink = 0;

const stages: [string, () => void | Promise<void>][] = [
  [
    'JSON.parse of the input (baseline)',
    () =>
      forEachAssessment((index) => {
        sink += (JSON.parse(poolLines[index] ?? '') as object) === null ? 1 : 0;
      }),
  ],
  [
    'validate (shared schema, compiled)',
    () =>
      forEachAssessment((index) => {
        sink += inputSchema.safeParse(pool[index]).success ? 1 : 0;
      }),
  ],
  [
    'score()',
    () =>
      forEachAssessment((index) => {
        sink += score(pool[index] ?? {}).totalScore;
      }),
  ],
  [
    'JSON.stringify of the result',
    () =>
      forEachAssessment((index) => {
        sink += JSON.stringify(poolResults[index]).length;
      }),
  ],
  [
    'JSON.parse + JSON.stringify alone',
    () =>
      forEachAssessment((index) => {
        const parsed = JSON.parse(poolLines[index] ?? '') as object;
        sink += parsed === null ? 1 : JSON.stringify(poolResults[index]).length;
      }),
  ],
  [
    'runScoreCommand, in-memory streams',
    async () => {
      const output = new Writable({
        write(chunk: Buffer, _encoding, done) {
          sink += chunk.length;
          done();
        },
      });
      const exitCode = await runScoreCommand(Readable.from(inputChunks()), output, process.stderr);
      if (exitCode !== 0) throw new Error(`runScoreCommand exited with ${exitCode}`);
    },
  ],
];

// Rounds run every stage in turn, so that load from other processes weighs on all stages alike;
// each stage keeps its best time (the first round also warms the code up).
const bestMs = stages.map(() => Infinity);
for (let round = 0; round < REPEATS; round++) {
  for (const [index, [, run]] of stages.entries()) {
    const start = performance.now();
    await run();
    bestMs[index] = Math.min(bestMs[index] ?? Infinity, performance.now() - start);
  }
}
const parseMs = bestMs[0] ?? Infinity;

const perSecond = (ms: number) => Math.round((count / ms) * 1000).toLocaleString('en');
const ratio = (ms: number) => (ms / parseMs).toFixed(2);
const averageLine = poolText.length / pool.length;
const averageResult =
  poolResults.reduce((sum, result) => sum + JSON.stringify(result).length, 0) / pool.length;
console.log(
  `${count.toLocaleString('en')} assessments (${pool.length.toLocaleString('en')} distinct, about ${Math.round(averageLine)} characters of input and ${Math.round(averageResult)} of result each), best of ${REPEATS} runs`,
);
for (const [index, [label]] of stages.entries()) {
  const ms = bestMs[index] ?? Infinity;
  console.log(
    `${label.padEnd(40)} ${perSecond(ms).padStart(11)} assessments/s  ${ratio(ms).padStart(6)} x JSON.parse`,
  );
}
if (Number.isNaN(sink)) console.log('unreachable: keeps sink in use');
