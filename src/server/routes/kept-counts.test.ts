import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Assessment, AssessmentBody } from '../../shared/api/assessments.ts';
import { DOCTOR_STATUSES } from '../../shared/api/reviews.ts';
import { CONDITIONS } from '../../engine/index.ts';
import { seededRandom } from '../services/seed.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { keptCountsRepository } from '../db/repositories/kept-counts.ts';
import {
  countedTotals,
  fullCounts,
  keptCounts,
  keptTotals,
  pendingDeltas,
} from '../testing/kept-counts.ts';
import { madeUnit } from '../testing/org-units.ts';
import { signedInAs } from '../testing/users.ts';

const hour = 3_600_000;

/** A varied body: each condition's status moves with the answers drawn. */
function randomBody(random: () => number): AssessmentBody {
  const yes = (p: number) => random() < p;
  return {
    demographics: yes(0.15)
      ? {}
      : {
          age: 20 + Math.floor(random() * 60),
          gender: yes(0.5) ? 'Female' : 'Male',
          height: 160 + Math.floor(random() * 30),
          weight: 55 + Math.floor(random() * 50),
        },
    riskFactors: {
      smoking: yes(0.3),
      familyHistory: { DM2: yes(0.4), Hypertension: yes(0.3) },
      householdTBExposure: yes(0.3),
    },
    symptoms: {
      DM2: { thirst: { present: yes(0.5), severity: 'mild' }, fatigue: { present: yes(0.4) } },
      TB: { coughOver14Days: { present: yes(0.4) }, fever: { present: yes(0.4) } },
      Asthma: { wheezing: { present: yes(0.4), severity: 'severe' } },
      Hypertension: { headache: { present: yes(0.4), severity: 'moderate' } },
    },
    management: yes(0.2) ? { HIV: { diagnosed: true } } : {},
  };
}

describe.each(testDatabases())('the kept counts on $engine', (testDatabase) => {
  let t: TestApp;
  let admin: { cookie: string };
  /** Two units under MAIN, where the assessments are made: the counts are kept per unit. */
  let units: string[];
  /** Who saves new assessments, one in each unit (signed in anew each day). */
  let savers: { cookie: string }[];
  const signInSavers = async () => {
    savers = await Promise.all(
      units.map((unitId) => signedInAs(t, 'nurse', undefined, undefined, [unitId])),
    );
  };

  beforeAll(async () => {
    t = await openTestApp(testDatabase, { TRIAGE_TIME_ZONE: 'Africa/Johannesburg' });
    admin = await signedInAs(t, 'admin');
    units = [(await madeUnit(t, admin, 'WEST')).id, (await madeUnit(t, admin, 'EAST')).id];
    await signInSavers();
  });

  /** Each unit the kept rows name, once. */
  const unitsCounted = (rows: readonly string[]) =>
    [...new Set(rows.map((row) => /org_unit_id=(\S+)/.exec(row)?.[1]))].sort();
  afterAll(async () => {
    await t.close();
  });

  it('equal a full count after a random run of concurrent saves, sign-offs, deletes, restores and review locks', async () => {
    const random = seededRandom(20261125);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const ids: string[] = [];
    const succeeded = new Set<string>();
    const inject = async (
      method: 'GET' | 'POST' | 'PUT' | 'DELETE',
      url: string,
      version?: number,
      payload?: unknown,
      who: { cookie: string } = admin,
    ) => {
      const response = await t.app.inject({
        method,
        url,
        headers: {
          cookie: who.cookie,
          ...(version === undefined ? {} : { 'if-match': `"${version}"` }),
        },
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      });
      // Refusals (412, 409, 404) are expected of changes that race; nothing else fails.
      expect([200, 201, 204, 404, 409, 412], response.body).toContain(response.statusCode);
      if (response.statusCode < 300)
        succeeded.add(`${method} ${url.split('/').slice(4).join('/')}`);
      return response;
    };
    const versionOf = async (id: string): Promise<number> =>
      (await inject('GET', `/api/assessments/${id}`)).json<Assessment>().version;

    const operations = {
      async create() {
        const response = await inject(
          'POST',
          '/api/assessments',
          undefined,
          randomBody(random),
          pick(savers),
        );
        expect(response.statusCode, response.body).toBe(201);
        ids.push(response.json<Assessment>().id);
      },
      async update(id: string, version: number) {
        await inject('PUT', `/api/assessments/${id}`, version, randomBody(random));
      },
      async signOff(id: string, version: number) {
        await inject('POST', `/api/assessments/${id}/sign-off`, version);
      },
      async remove(id: string, version: number) {
        await inject('DELETE', `/api/assessments/${id}`, version);
      },
      async restore(id: string) {
        await inject('POST', `/api/assessments/${id}/restore`);
      },
      async lock(id: string) {
        const reviews = CONDITIONS.filter(() => random() < 0.7).map((condition) => {
          const agreed = random() < 0.6;
          return {
            condition,
            agreed,
            comments: random() < 0.5 ? '' : 'Seen in clinic',
            ...(agreed || random() < 0.3 ? {} : { doctorStatus: pick(DOCTOR_STATUSES) }),
          };
        });
        await inject('POST', `/api/assessments/${id}/review/lock`, undefined, { reviews });
      },
    };

    for (let i = 0; i < 6; i++) await operations.create();
    for (let round = 0; round < 12; round++) {
      if (round % 4 === 3) {
        // Another day in the clinic (and a new session, the last one having timed out).
        t.advance(20 * hour);
        admin = await signedInAs(t, 'admin');
        await signInSavers();
      }
      // Several changes at once, often of the same assessment, with the versions read before.
      const chosen = Array.from({ length: 8 }, () => pick(ids));
      const versions = await Promise.all(chosen.map(versionOf));
      // Two folds of the deltas run among them, as two servers' timers would.
      await Promise.all([
        ...chosen.map((id, index) => {
          const version = versions[index] ?? 1;
          const draw = random();
          if (draw < 0.15) return operations.create();
          if (draw < 0.35) return operations.update(id, version);
          if (draw < 0.45) return operations.signOff(id, version);
          if (draw < 0.6) return operations.remove(id, version);
          if (draw < 0.7) return operations.restore(id);
          return operations.lock(id);
        }),
        keptCountsRepository.compact(t.database),
        keptCountsRepository.compact(t.database),
      ]);
      expect(await keptTotals(t.database)).toEqual(await countedTotals(t.database));
    }

    const kept = await keptCounts(t.database);
    expect(kept).toEqual(await fullCounts(t.database));
    // Folded, the counts read the same, and no delta is left behind.
    await keptCountsRepository.compact(t.database);
    expect(await pendingDeltas(t.database)).toBe(0);
    expect(await keptCounts(t.database)).toEqual(kept);
    expect(await keptTotals(t.database)).toEqual(await countedTotals(t.database));
    // Every kind of change took effect at least once.
    expect([...succeeded].sort()).toEqual(
      expect.arrayContaining([
        'DELETE ',
        'POST ',
        'POST restore',
        'POST review/lock',
        'POST sign-off',
        'PUT ',
      ]),
    );
    expect(kept.population.length).toBeGreaterThan(10);
    expect(kept.agreement.length).toBeGreaterThan(3);
    expect(unitsCounted(kept.population)).toEqual(['*', ...units].sort());
    expect(unitsCounted(kept.agreement)).toEqual(['*', ...units].sort());
  });
  it('stay equal to a full count when deletes race review locks and updates of the same assessments', async () => {
    const random = seededRandom(7);
    const send = (
      method: 'POST' | 'PUT' | 'DELETE',
      url: string,
      version?: number,
      payload?: object,
    ) =>
      t.app.inject({
        method,
        url,
        headers: {
          cookie: admin.cookie,
          ...(version === undefined ? {} : { 'if-match': `"${version}"` }),
        },
        ...(payload === undefined ? {} : { payload }),
      });
    // How often the delete, the lock and the update took effect. Which one wins is the machine's
    // timing: the races go on (up to 48) until each has won at least once.
    const won = [0, 0, 0];
    for (let i = 0; i < 48 && (i < 12 || !won.every((count) => count > 0)); i++) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/assessments',
        headers: { cookie: (savers[i % 2] ?? admin).cookie },
        payload: randomBody(random),
      });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json<Assessment>().id;
      const lock = {
        reviews: [
          { condition: 'DM2', agreed: true, comments: '' },
          { condition: 'TB', agreed: false, comments: 'No', doctorStatus: 'MAYBE' },
        ],
      };
      // All at version 1, in an order drawn each time: one of the update and the delete wins,
      // the lock goes before or after.
      const changes = [
        () => send('DELETE', `/api/assessments/${id}`, 1),
        () => send('POST', `/api/assessments/${id}/review/lock`, undefined, lock),
        () => send('PUT', `/api/assessments/${id}`, 1, randomBody(random)),
      ];
      const order = [0, 1, 2].sort(() => random() - 0.5);
      // The first drawn starts a millisecond or two ahead (a request without a body would
      // otherwise always reach its handler first); on PostgreSQL their transactions overlap.
      const [answers] = await Promise.all([
        Promise.all(
          order.map(async (index, position) => {
            if (position > 0) await new Promise((resolve) => setTimeout(resolve, position));
            return changes[index]?.();
          }),
        ),
        keptCountsRepository.compact(t.database),
      ]);
      answers.forEach((answer, position) => {
        expect([200, 204, 404, 412]).toContain(answer?.statusCode);
        const index = order[position] ?? 0;
        if ((answer?.statusCode ?? 500) < 300) won[index] = (won[index] ?? 0) + 1;
      });
      if (i % 2 === 1) {
        const restored = await send('POST', `/api/assessments/${id}/restore`);
        expect([200, 409]).toContain(restored.statusCode);
      }
    }
    expect(
      won.every((count) => count > 0),
      String(won),
    ).toBe(true);
    const kept = await keptCounts(t.database);
    expect(kept).toEqual(await fullCounts(t.database));
    expect(unitsCounted(kept.population)).toEqual(['*', ...units].sort());
    expect(await keptTotals(t.database)).toEqual(await countedTotals(t.database));
  });
});
