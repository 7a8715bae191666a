/**
 * HTTP load with wrk (Debian's package), and the assessment every save sends. wrk runs outside
 * Node, so the load generator does not compete with the server for Node's event loop; it does
 * share the machine's cores, which the baselines share too.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {
  CONDITIONS,
  DEFAULT_RULE_SET,
  LAST_DOCTOR_VISIT_OPTIONS,
  PRESCRIPTION_DURATION_OPTIONS,
  type Condition,
} from '../src/engine/index.ts';
import type { AssessmentBody } from '../src/shared/api/assessments.ts';
import { runDir } from './harness.ts';

/** Stops with how to install a Debian tool the benchmark needs. */
export function requireTool(command: string, debianPackage: string): void {
  const found = spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
  if (!found) {
    throw new Error(
      `${command} is needed: apt-get update && apt-get install -y ${debianPackage} (as root)`,
    );
  }
}

/**
 * A typical complete assessment: every demographic, some risk factors, a few symptoms per
 * condition (one with a severity where the scale has one), one condition diagnosed, a note
 * with codes. No code, so that every request creates a new record.
 */
export function assessmentBody(): AssessmentBody {
  const symptoms: Record<string, Record<string, { present: boolean; severity?: string }>> = {};
  for (const condition of CONDITIONS) {
    const answers: Record<string, { present: boolean; severity?: string }> = {};
    for (const [index, symptom] of DEFAULT_RULE_SET.conditions[condition].symptoms
      .slice(0, 3)
      .entries()) {
      answers[symptom.key] =
        index > 0
          ? { present: index === 1 }
          : symptom.scale === 'severity'
            ? { present: true, severity: 'moderate' }
            : symptom.scale === 'weightChange'
              ? { present: true, severity: 'loss' }
              : { present: true };
    }
    symptoms[condition] = answers;
  }
  const diagnosed: Condition = 'Hypertension';
  return {
    demographics: { age: 54, gender: 'Female', height: 164, weight: 81 },
    riskFactors: {
      smoking: false,
      familyHistory: { DM2: true, Asthma: false, Hypertension: true, Hyperlipidaemia: false },
      householdTBExposure: false,
    },
    symptoms: symptoms,
    management: {
      [diagnosed]: {
        diagnosed: true,
        lastDoctorVisit: LAST_DOCTOR_VISIT_OPTIONS[0],
        prescriptionDuration: PRESCRIPTION_DURATION_OPTIONS[0],
      },
    },
    notes: 'Hypertension I10 on amlodipine 5 mg daily; BP 142/90 today. HbA1c (LOINC 4548-4).',
  };
}

export interface LoadResult {
  requestsPerSecond: number;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses that were not 2xx or 3xx, and socket errors. */
  failures: number;
}

const durationUnits: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function durationMs(text: string | undefined): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text ?? '');
  if (match?.[1] === undefined || match[2] === undefined) return Number.NaN;
  return Number(match[1]) * (durationUnits[match[2]] ?? Number.NaN);
}

/** Numbers the wrk scripts of this process, so that loads run at once each have their own. */
let loadScripts = 0;

/**
 * POSTs `body` to `url` from `connections` connections for `seconds` and reads wrk's summary;
 * with `bodies`, each of wrk's threads sends them in turn instead, each thread starting at its own
 * share of the list, so that two threads never send the same body at the same moment (two saves
 * of one patient at once would wait for each other, which no clinic does).
 */
export async function postLoad(options: {
  url: string;
  cookie: string;
  body: unknown;
  bodies?: readonly unknown[];
  connections: number;
  seconds: number;
}): Promise<LoadResult> {
  const threads = Math.min(2, options.connections);
  const script = path.join(runDir(), `post-${++loadScripts}.lua`);
  // Long brackets quote the JSON as it is; the cookie is base64url and needs no escaping.
  const quoted = (body: unknown) => `[==[${JSON.stringify(body)}]==]`;
  fs.writeFileSync(
    script,
    [
      'wrk.method = "POST"',
      `wrk.body = ${quoted(options.body)}`,
      'wrk.headers["Content-Type"] = "application/json"',
      `wrk.headers["Cookie"] = "${options.cookie}"`,
      ...(options.bodies === undefined
        ? []
        : [
            `local bodies = { ${options.bodies.map(quoted).join(',\n')} }`,
            'local threads = 0',
            'setup = function(thread)',
            '  thread:set("first", threads)',
            '  threads = threads + 1',
            'end',
            'local sent = 0',
            'init = function()',
            `  sent = first * math.floor(#bodies / ${threads})`,
            'end',
            'request = function()',
            '  sent = sent % #bodies + 1',
            '  return wrk.format(nil, nil, nil, bodies[sent])',
            'end',
          ]),
      '',
    ].join('\n'),
  );
  const child = spawn(
    'wrk',
    [
      `-t${threads}`,
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      '--latency',
      '--timeout',
      '10s',
      '-s',
      script,
      options.url,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    output += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  fs.rmSync(script, { force: true });
  if (code !== 0) throw new Error(`wrk exited with ${code}:\n${output}`);
  const number = (pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? Number.NaN);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  return {
    requestsPerSecond: number(/Requests\/sec:\s+([\d.]+)/),
    requests: number(/(\d+) requests in/),
    p50Ms: durationMs(/^\s+50%\s+(\S+)/m.exec(output)?.[1]),
    p99Ms: durationMs(/^\s+99%\s+(\S+)/m.exec(output)?.[1]),
    failures:
      (Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0) || 0) +
      (socketErrors === null ? 0 : socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0)),
  };
}
