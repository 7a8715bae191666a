import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RISK_STATUSES } from '../../engine/index.ts';
import { ageOn } from '../../shared/api/patients.ts';
import { searchWords } from '../db/repositories/patient-records.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';
import { visitCounts } from './seed-patients.ts';
import { seededRandom, seedAssessments } from './seed.ts';
import { orgUnitsRepository } from '../db/repositories/org-units.ts';

describe.each(testDatabases())('seeding on $engine', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    const { userId } = await signedInAs(t, 'nurse', 'seeder', 'Seeder');
    await seedAssessments(t.context, {
      assessments: 600,
      seed: 42,
      batchSize: 250,
      user: { id: userId, displayName: 'Seeder' },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('writes the requested number of complete records', async () => {
    const db = t.database.db;
    const count = async (table: 'assessments' | 'patients' | 'results' | 'risk_factors') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('assessments')).toBe(600);
    expect(await count('patients')).toBe(600);
    expect(await count('risk_factors')).toBe(600);
    expect(await count('results')).toBe(600 * 6);
  });

  it('names no patient record unless asked to', async () => {
    const db = t.database.db;
    const named = await db
      .selectFrom('assessments')
      .select('id')
      .where('patient_record_id', 'is not', null)
      .execute();
    expect(named).toEqual([]);
    expect(await db.selectFrom('patient_records').select('id').execute()).toEqual([]);
  });

  it('puts everything in MAIN and makes no unit unless asked for units', async () => {
    const db = t.database.db;
    expect((await orgUnitsRepository.list(db)).map((unit) => unit.code)).toEqual(['MAIN']);
    const units = await db.selectFrom('assessments').select('org_unit_id').distinct().execute();
    expect(units).toEqual([{ org_unit_id: (await orgUnitsRepository.findMain(db))?.id }]);
  });

  it('varies: every status, signed off, reviewed, deleted, notes with and without codes', async () => {
    const db = t.database.db;
    const statuses = await db.selectFrom('results').select('risk_status').distinct().execute();
    expect(statuses.map((s) => s.risk_status).sort()).toEqual([...RISK_STATUSES].sort());
    const flags = await db
      .selectFrom('assessments')
      .select(['signed_off', 'deleted_at', 'notes', 'assessment_complete'])
      .execute();
    const share = (test: (row: (typeof flags)[number]) => boolean) =>
      flags.filter(test).length / flags.length;
    expect(share((r) => Boolean(r.signed_off))).toBeGreaterThan(0.15);
    expect(share((r) => r.deleted_at !== null)).toBeGreaterThan(0);
    expect(share((r) => r.notes !== null && /[A-Z]\d\d\.\d/.test(r.notes))).toBeGreaterThan(0.05);
    expect(share((r) => r.notes === null)).toBeGreaterThan(0.2);
    expect(share((r) => !r.assessment_complete)).toBeGreaterThan(0.01);
    const reviews = await db.selectFrom('doctor_reviews').select('locked').execute();
    expect(reviews.length).toBeGreaterThan(0);
  });

  it("gives most disagreeing reviews a status of the doctor's own, never the rules'", async () => {
    const rows = await t.database.db
      .selectFrom('doctor_reviews')
      .innerJoin('results', (join) =>
        join
          .onRef('results.assessment_id', '=', 'doctor_reviews.assessment_id')
          .onRef('results.condition', '=', 'doctor_reviews.condition'),
      )
      .select(['doctor_reviews.agreed', 'doctor_reviews.doctor_status', 'results.risk_status'])
      .execute();
    const disagreeing = rows.filter((row) => !row.agreed);
    const withStatus = disagreeing.filter((row) => row.doctor_status !== null);
    expect(rows.filter((row) => row.agreed && row.doctor_status !== null)).toEqual([]);
    expect(withStatus.length / disagreeing.length).toBeGreaterThan(0.5);
    expect(withStatus.length).toBeLessThan(disagreeing.length);
    expect(withStatus.filter((row) => row.doctor_status === row.risk_status)).toEqual([]);
    expect(new Set(withStatus.map((row) => row.doctor_status)).size).toBe(4);
  });

  it('serves the seeded records through the API', async () => {
    const { cookie } = await signedInAs(t, 'nurse');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/assessments?limit=5',
      headers: { cookie },
    });
    expect(list.statusCode).toBe(200);
    const body = list.json<{ items: { id: string }[]; overallTotal: number }>();
    expect(body.overallTotal).toBeGreaterThan(550);
    const one = await t.app.inject({
      method: 'GET',
      url: `/api/assessments/${body.items[0]?.id ?? ''}`,
      headers: { cookie },
    });
    expect(one.statusCode).toBe(200);
  });

  it('is reproducible from its seed', async () => {
    const first = await t.database.db
      .selectFrom('assessments')
      .select('assessment_code')
      .orderBy('assessment_code')
      .limit(3)
      .execute();
    const again = await openTestApp(testDatabase);
    try {
      const { userId } = await signedInAs(again, 'nurse', 'seeder', 'Seeder');
      await seedAssessments(again.context, {
        assessments: 600,
        seed: 42,
        batchSize: 600,
        user: { id: userId, displayName: 'Seeder' },
      });
      const second = await again.database.db
        .selectFrom('assessments')
        .select('assessment_code')
        .orderBy('assessment_code')
        .limit(3)
        .execute();
      expect(second).toEqual(first);
    } finally {
      await again.close();
    }
  });
});

describe.each(testDatabases())('seeding patients on $engine', (testDatabase) => {
  const assessments = 600;
  const patients = 150;
  let t: TestApp;

  async function seed(app: TestApp, batchSize: number) {
    const { userId } = await signedInAs(app, 'nurse', 'seeder', 'Seeder');
    await seedAssessments(app.context, {
      assessments,
      patients,
      seed: 7,
      batchSize,
      user: { id: userId, displayName: 'Seeder' },
    });
  }

  /** Every patient's assessments in time order, with what was measured at each. */
  async function visits(app: TestApp) {
    const rows = await app.database.db
      .selectFrom('assessments')
      .innerJoin('patients', 'patients.id', 'assessments.patient_id')
      .select([
        'assessments.id',
        'assessments.patient_record_id',
        'assessments.created_at',
        'assessments.created_local_date',
        'assessments.deleted_at',
        'patients.age',
        'patients.gender',
        'patients.height',
        'patients.weight',
      ])
      .orderBy('assessments.created_at')
      .orderBy('assessments.id')
      .execute();
    return Map.groupBy(rows, (row) => row.patient_record_id);
  }

  async function records(app: TestApp) {
    const rows = await app.database.db
      .selectFrom('patient_records')
      .selectAll()
      .orderBy('id')
      .execute();
    // Each app has its own seeding user, and its own MAIN unit, where every record is.
    const main = await orgUnitsRepository.findMain(app.database.db);
    expect(new Set(rows.map((row) => row.org_unit_id))).toEqual(new Set([main?.id]));
    return rows.map(({ created_by: _, org_unit_id: __, ...row }) => row);
  }

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    await seed(t, 250);
  });
  afterAll(async () => {
    await t.close();
  });

  it('makes the patient records asked for, every assessment naming a live one', async () => {
    const db = t.database.db;
    const live = await db
      .selectFrom('patient_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('deleted_at', 'is', null)
      .executeTakeFirstOrThrow();
    expect(Number(live.n)).toBe(patients);
    const orphans = await db
      .selectFrom('assessments')
      .leftJoin('patient_records', 'patient_records.id', 'assessments.patient_record_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where((eb) =>
        eb.or([
          eb('patient_records.id', 'is', null),
          eb('patient_records.deleted_at', 'is not', null),
        ]),
      )
      .executeTakeFirstOrThrow();
    expect(Number(orphans.n)).toBe(0);
    const numbers = (await records(t)).map((row) => row.number);
    expect(new Set(numbers.map((number) => number.toLowerCase())).size).toBe(patients);
    for (const number of numbers) expect(number).toMatch(/^MRN-\d{7}(\/\d\d)?$/);
  });

  it('spreads repeat visits: most patients come 1 to 5 times, a few many more', async () => {
    const counts = [...(await visits(t)).values()].map((each) => each.length);
    expect(counts).toHaveLength(patients);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(assessments);
    expect(counts.filter((count) => count <= 5).length / patients).toBeGreaterThan(0.7);
    expect(Math.max(...counts)).toBeGreaterThan(10);
    expect(Math.max(...counts)).toBeLessThanOrEqual(60);
  });

  it('measures each patient consistently, visit after visit in time order', async () => {
    const byId = new Map((await records(t)).map((row) => [row.id, row]));
    let weightChanges = 0;
    for (const [recordId, seen] of await visits(t)) {
      const record = byId.get(recordId ?? '');
      if (record === undefined) throw new Error(`No record ${String(recordId)}`);
      // The record is made at the first visit, and the visits span the seed's two years.
      expect(record.created_at).toBe(seen[0]?.created_at);
      let lastAge = 0;
      for (const visit of seen) {
        if (visit.gender !== null) expect(visit.gender).toBe(record.gender);
        if (visit.age !== null) {
          expect(visit.age).toBe(ageOn(record.birth_date ?? '', visit.created_local_date ?? ''));
          expect(visit.age).toBeGreaterThanOrEqual(Math.max(lastAge, 18));
          lastAge = visit.age;
        }
      }
      const heights = new Set(seen.flatMap((visit) => visit.height ?? []));
      expect(heights.size).toBeLessThanOrEqual(1);
      // About a kilogram either way from one visit to the next (a visit may not weigh).
      let last: { weight: number; visit: number } | undefined;
      for (const [index, visit] of seen.entries()) {
        if (visit.weight === null) continue;
        if (last !== undefined) {
          if (visit.weight !== last.weight) weightChanges++;
          expect(Math.abs(visit.weight - last.weight)).toBeLessThanOrEqual(
            1.25 * (index - last.visit),
          );
        }
        last = { weight: visit.weight, visit: index };
      }
    }
    expect(weightChanges).toBeGreaterThan(0);
  });

  it("indexes every record's words, which the patient search finds", async () => {
    const words = await t.database.db
      .selectFrom('patient_record_words')
      .select(['word', 'patient_record_id', 'live_number_key', 'record_words'])
      .execute();
    const wordsOf = Map.groupBy(words, (row) => row.patient_record_id);
    const all = await records(t);
    for (const record of all) {
      expect(new Set((wordsOf.get(record.id) ?? []).map((row) => row.word))).toEqual(
        new Set([...searchWords(record.number), ...searchWords(record.name ?? '')]),
      );
      for (const word of wordsOf.get(record.id) ?? []) {
        expect(word.live_number_key).toBe(record.number_key);
        expect(new Set(word.record_words.split(' ').slice(1))).toEqual(
          new Set([...searchWords(record.number), ...searchWords(record.name ?? '')]),
        );
      }
    }
    const { cookie } = await signedInAs(t, 'nurse');
    const someone = all[0];
    const surname = someone?.name?.split(' ').at(-1) ?? '';
    const found = await t.app.inject({
      method: 'GET',
      url: `/api/patients?q=${encodeURIComponent(`${surname} ${someone?.number ?? ''}`)}`,
      headers: { cookie },
    });
    expect(found.statusCode).toBe(200);
    expect(found.json<{ items: { id: string }[] }>().items.map((item) => item.id)).toEqual([
      someone?.id,
    ]);
  });

  it('is reproducible from its seed', async () => {
    const again = await openTestApp(testDatabase);
    try {
      await seed(again, assessments);
      expect(await records(again)).toEqual(await records(t));
      const linked = (app: TestApp) =>
        app.database.db
          .selectFrom('assessments')
          .select(['id', 'patient_record_id', 'assessment_code'])
          .orderBy('id')
          .execute();
      expect(await linked(again)).toEqual(await linked(t));
    } finally {
      await again.close();
    }
  });
});

describe.each(testDatabases())('seeding over units on $engine', (testDatabase) => {
  const facilities = 130;
  let t: TestApp;

  async function seed(app: TestApp, options: { assessments: number; patients?: number }) {
    const user = await app.database.db
      .selectFrom('users')
      .select(['id', 'display_name'])
      .where('username', '=', 'seeder')
      .executeTakeFirst();
    const userId = user?.id ?? (await signedInAs(app, 'nurse', 'seeder', 'Seeder')).userId;
    await seedAssessments(app.context, {
      ...options,
      units: facilities,
      seed: 11,
      batchSize: 200,
      user: { id: userId, displayName: 'Seeder' },
    });
  }

  /** The seeded tree, level by level from the country under MAIN, each unit with its parent's code. */
  async function tree(app: TestApp) {
    const units = await orgUnitsRepository.list(app.database.db);
    const byId = new Map(units.map((unit) => [unit.id, unit]));
    const main = units.find((unit) => unit.code === 'MAIN');
    const levels: Array<typeof units> = [units.filter((unit) => unit.parent_id === main?.id)];
    for (let depth = 1; depth < 5; depth++) {
      const above = new Set(levels[depth - 1]?.map((unit) => unit.id));
      levels.push(units.filter((unit) => unit.parent_id !== null && above.has(unit.parent_id)));
    }
    const shown = levels.map((level) =>
      level.map((unit) => ({
        code: unit.code,
        name: unit.name,
        parent: byId.get(unit.parent_id ?? '')?.code,
      })),
    );
    return { units, levels, shown, byId };
  }

  /** Each assessment's code, unit and patient record, with the record's unit. */
  async function placed(app: TestApp) {
    return app.database.db
      .selectFrom('assessments')
      .leftJoin('patient_records', 'patient_records.id', 'assessments.patient_record_id')
      .select([
        'assessments.assessment_code',
        'assessments.org_unit_id',
        'assessments.patient_record_id',
        'patient_records.org_unit_id as record_unit_id',
      ])
      .orderBy('assessments.id')
      .execute();
  }

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    await seed(t, { assessments: 600, patients: 150 });
  });
  afterAll(async () => {
    await t.close();
  });

  it('makes a country, regions, districts of about 25 facilities, and the facilities', async () => {
    const { levels } = await tree(t);
    // 130 facilities: 6 districts (130 / 25, rounded up) in 2 regions (6 / 5, rounded up).
    expect(levels.map((level) => level.length)).toEqual([1, 2, 6, facilities, 0]);
    const [country, regions, districts, leaves] = levels;
    const childrenOf = (unit: { id: string }, below: typeof leaves) =>
      (below ?? []).filter((child) => child.parent_id === unit.id).length;
    expect(regions?.map((region) => childrenOf(region, districts))).toEqual([3, 3]);
    for (const district of districts ?? []) {
      expect(childrenOf(district, leaves)).toBeGreaterThanOrEqual(21);
      expect(childrenOf(district, leaves)).toBeLessThanOrEqual(22);
    }
    const code = country?.[0]?.code ?? '';
    expect(code).toMatch(/^[A-Z]{3}$/);
    expect(regions?.[0]).toMatchObject({
      code: `${code}-R01`,
      name: expect.stringMatching(/ Region$/) as unknown,
    });
    expect(districts?.[5]).toMatchObject({
      code: `${code}-D006`,
      name: expect.stringMatching(/ District$/) as unknown,
    });
    expect(
      leaves
        ?.map((unit) => unit.code)
        .sort()
        .at(-1),
    ).toBe(`${code}-F0130`);
    for (const facility of leaves ?? []) {
      expect(facility.name).toMatch(/ (Clinic|Health Centre|Health Post|District Hospital)$/);
    }
  });

  it('puts every assessment in a facility, in the same one as its patient record', async () => {
    const { levels } = await tree(t);
    const facilityIds = new Set(levels[3]?.map((unit) => unit.id));
    const rows = await placed(t);
    expect(rows).toHaveLength(600);
    for (const row of rows) {
      expect(facilityIds.has(row.org_unit_id)).toBe(true);
      expect(row.patient_record_id).not.toBeNull();
      expect(row.org_unit_id).toBe(row.record_unit_id);
    }
    // 150 patients over 130 facilities: spread, not heaped on a few.
    expect(new Set(rows.map((row) => row.org_unit_id)).size).toBeGreaterThan(50);
  });

  it('leaves the users as they were', async () => {
    const rows = await t.database.db
      .selectFrom('user_units')
      .innerJoin('org_units', 'org_units.id', 'user_units.org_unit_id')
      .select('org_units.code')
      .distinct()
      .execute();
    expect(rows).toEqual([{ code: 'MAIN' }]);
  });

  it('is reproducible from its seed: the same tree, each record in the same facility', async () => {
    const again = await openTestApp(testDatabase);
    try {
      await seed(again, { assessments: 600, patients: 150 });
      expect((await tree(again)).shown).toEqual((await tree(t)).shown);
      const facilityCodes = async (app: TestApp) => {
        const { byId } = await tree(app);
        return (await placed(app)).map((row) => [
          row.assessment_code,
          byId.get(row.org_unit_id)?.code,
        ]);
      };
      expect(await facilityCodes(again)).toEqual(await facilityCodes(t));
    } finally {
      await again.close();
    }
  });

  it('seeds again into the same tree, and without patient records puts each assessment in a facility', async () => {
    const before = (await tree(t)).units.length;
    await seed(t, { assessments: 40 });
    const { units, levels } = await tree(t);
    expect(units).toHaveLength(before);
    const facilityIds = new Set(levels[3]?.map((unit) => unit.id));
    const unlinked = (await placed(t)).filter((row) => row.patient_record_id === null);
    expect(unlinked).toHaveLength(40);
    for (const row of unlinked) expect(facilityIds.has(row.org_unit_id)).toBe(true);
  });
});

describe('visit counts', () => {
  it('add up to the assessments, mostly 1 to 5 a patient, with a tail to 60', () => {
    const counts = visitCounts(seededRandom(3), 300_000, 1_000_000);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(1_000_000);
    const share = (test: (count: number) => boolean) => counts.filter(test).length / counts.length;
    expect(share((count) => count >= 1 && count <= 5)).toBeGreaterThan(0.8);
    expect(share((count) => count === 1)).toBeGreaterThan(0.4);
    expect(counts.filter((count) => count >= 50).length).toBeGreaterThan(100);
    expect(counts.reduce((most, count) => Math.max(most, count), 0)).toBe(60);
  });

  it('give every patient one visit when there are as many patients as assessments', () => {
    expect([...visitCounts(seededRandom(3), 1000, 1000)]).toEqual(Array(1000).fill(1));
  });
});
