/**
 * Access by place at scale (issue 36): the history, patient search, worklists, dashboard panels
 * and the district roll-up as a facility's doctor and a district's manager, over a database of N
 * seeded assessments spread over U facilities (`triage seed --units`); p50 and p95 latency.
 *
 * Baseline: the same request by an administrator of every unit, on the same server in the same
 * rounds, whose queries carry no scope filter; so each ratio is what narrowing to a place costs
 * (or saves). The targets (history p95 < 50 ms, dashboard panels p95 < 100 ms, roll-up p95 <
 * 200 ms) are read from the figures' own column.
 *
 *   node bench/org-units.ts [--engine sqlite|postgres|both] [--assessments 1000000]
 *     [--patients 300000] [--units 500] [--keep]
 */
import crypto from 'node:crypto';
import os from 'node:os';
import {
  forEachEngine,
  parseBenchOptions,
  percentile,
  printTable,
  runTriage,
  seededFixture,
  signIn,
  startServer,
  timedGet,
  type Row,
} from './harness.ts';

const requestsPerQuery = 30;
const warmUpRequests = 2;

const options = parseBenchOptions({ assessments: 1_000_000 });
const { units } = options;

interface ListedUnit {
  code: string;
  parent: string;
}

/** `triage org-unit list`: code (indented by depth), name, parent code, state, a unit a line. */
function parseUnitList(text: string): ListedUnit[] {
  return text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [code = '', , parent = ''] = line.split('\t');
      return { code: code.trim(), parent: parent.trim() };
    });
}

await forEachEngine(options, async (engine, fixtures) => {
  const fixture = await seededFixture(engine, options.assessments, {
    patients: options.patients,
    units,
    keep: options.keep,
  });
  fixtures.push(fixture);
  const listed = parseUnitList(
    await runTriage(fixture.env, ['org-unit', 'list'], '', fixture.root),
  );
  const parents = new Set(listed.map((unit) => unit.parent));
  const facilities = listed.filter((unit) => !parents.has(unit.code));
  const facility = facilities[Math.floor(facilities.length / 2)];
  if (facility === undefined) throw new Error('The seeded tree has no facility');
  const district = facility.parent;
  const userOf = async (role: string, unit: string) => {
    const suffix = crypto.randomBytes(4).toString('hex');
    const user = {
      username: `bench-${role}-${suffix}`,
      password: `bench-passphrase-${suffix}-long`,
    };
    await runTriage(
      fixture.env,
      ['user', 'add', '--username', user.username, '--role', role, '--unit', unit],
      `${user.password}\n`,
      fixture.root,
    );
    return user;
  };
  const server = await startServer(fixture);
  try {
    // The seeded tree is made under MAIN: its administrator's scope holds every unit.
    const top = await signIn(server, await userOf('admin', 'MAIN'));
    const who: [string, string][] = [
      [
        `doctor of facility ${facility.code}`,
        await signIn(server, await userOf('doctor', facility.code)),
      ],
      [`manager of district ${district}`, await signIn(server, await userOf('manager', district))],
    ];
    const queries: [string, string][] = [
      ['history, newest 20', '/api/assessments?limit=20'],
      ["history 'signed off' (a count)", '/api/assessments?q=signed%20off&limit=20'],
      ['patients, first 20', '/api/patients?limit=20'],
      ['Awaiting Review', '/api/worklists/review?limit=20'],
      ['Follow-up Due', '/api/worklists/follow-up?limit=20'],
      ['dashboard: population', '/api/assessments/population'],
      ['dashboard: Doctor Agreement', '/api/reviews/agreement'],
      // The District page as it opens: the top of each caller's units (the whole tree for the
      // baseline, the district for its manager, the facility alone for its doctor).
      ["roll-up of the caller's units", '/api/org-units/summary'],
    ];
    const callers: [string, string][] = [['administrator of every unit', top], ...who];
    // samples[query][caller]
    const samples = queries.map(() => callers.map((): number[] => []));
    for (let round = 0; round < warmUpRequests + requestsPerQuery; round++) {
      for (const [q, [, path]] of queries.entries()) {
        for (const [c, [, cookie]] of callers.entries()) {
          const ms = await timedGet(`${server.url}${path}`, cookie);
          if (round >= warmUpRequests) samples[q]?.[c]?.push(ms);
        }
      }
    }
    const load = os.loadavg()[0]?.toFixed(1) ?? '';
    const rows: Row[] = queries.flatMap(([label], q) =>
      callers.slice(1).flatMap(([caller], index) => {
        const own = samples[q]?.[index + 1] ?? [];
        const baseline = samples[q]?.[0] ?? [];
        return (['p50', 'p95'] as const).map((name) => {
          const fraction = name === 'p50' ? 0.5 : 0.95;
          return {
            measure: `${label} as ${caller}, ${name}`,
            figure: percentile(own, fraction),
            baseline: percentile(baseline, fraction),
            unit: 'ms',
            load,
          };
        });
      }),
    );
    printTable(
      `Access by place on ${engine}: ${options.assessments.toLocaleString('en')} assessments over ${units} facilities (baseline: the same request by an administrator of every unit)`,
      rows,
    );
  } finally {
    await server.stop();
  }
});
