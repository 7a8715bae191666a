import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { score } from '../../engine/index.ts';
import type { Assessment, AssessmentList } from '../../shared/api/assessments.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';

/** A 62-year-old woman, BMI 31.2, with a family history of diabetes, thirsty and tired. */
const patient = {
  demographics: { age: 62, gender: 'Female', height: 160, weight: 80 },
  riskFactors: { smoking: false, familyHistory: { DM2: true }, householdTBExposure: false },
  symptoms: {
    DM2: { thirst: { present: true, severity: 'moderate' }, fatigue: { present: true } },
    Asthma: { coughOnOff: { present: false } },
  },
  management: {
    Hypertension: { diagnosed: true, lastDoctorVisit: 'never', prescriptionDuration: '<4months' },
  },
} as const;

const tables = [
  'patients',
  'assessments',
  'symptoms',
  'risk_factors',
  'management',
  'results',
] as const;

describe.each(testDatabases())('the assessments API on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: { cookie: string };
  let otherNurse: { cookie: string };
  let doctor: { cookie: string };
  let admin: { cookie: string };

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    nurse = await signedInAs(t, 'nurse', 'nurse-nia', 'Nia Nurse');
    otherNurse = await signedInAs(t, 'nurse', 'nurse-oto', 'Oto Nurse');
    doctor = await signedInAs(t, 'doctor', 'doctor-dee', 'Dee Doctor');
    admin = await signedInAs(t, 'admin', 'admin-ada', 'Ada Admin');
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (
    who: { cookie: string },
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: who.cookie, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const atVersion = (version: number) => ({ 'if-match': `"${version}"` });
  const signOff = (who: { cookie: string }, id: string, version: number) =>
    call(who, 'POST', `/api/assessments/${id}/sign-off`, undefined, atVersion(version));
  const remove = (who: { cookie: string }, id: string, version: number) =>
    call(who, 'DELETE', `/api/assessments/${id}`, undefined, atVersion(version));
  const create = async (body: object = patient, who = nurse) => {
    const response = await call(who, 'POST', '/api/assessments', body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Assessment>();
  };
  const rowCounts = async () =>
    Object.fromEntries(
      await Promise.all(
        tables.map(async (table) => {
          const row = await t.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          return [table, Number(row.n)] as const;
        }),
      ),
    );

  it('creates an assessment whose scores the server computed, and reads it back', async () => {
    const response = await call(nurse, 'POST', '/api/assessments', patient);
    expect(response.statusCode).toBe(201);
    const created = response.json<Assessment>();
    expect(response.headers.etag).toBe('"1"');
    expect(created.code).toMatch(/^ASS-[0-9A-Z]+-[0-9A-Z]{4}$/);
    expect(created.createdBy).toBe('Nia Nurse');
    expect(created.results).toEqual(score(patient));
    expect(created.totalScore).toBeCloseTo(score(patient).totalScore, 10);
    expect(created.demographics.bmi).toBeCloseTo(80 / 1.6 ** 2, 10);
    expect(created.assessmentComplete).toBe(true);
    const dm2 = created.results.conditions.find((c) => c.condition === 'DM2');
    expect(dm2?.riskStatus).toBe('TRUE');

    const read = await call(otherNurse, 'GET', `/api/assessments/${created.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.headers.etag).toBe('"1"');
    expect(read.json()).toEqual(created);
  });

  it('never stores results or scores a client sends', async () => {
    const forged = {
      ...patient,
      totalScore: 999,
      results: { conditions: [{ condition: 'DM2', riskStatus: 'FALSE', totalScore: 0 }] },
    };
    const created = await create(forged);
    expect(created.totalScore).toBeCloseTo(score(patient).totalScore, 10);
    const stored = await t.database.db
      .selectFrom('results')
      .select(['risk_status', 'total_score', 'rule_set_version'])
      .where('assessment_id', '=', created.id)
      .where('condition', '=', 'DM2')
      .executeTakeFirstOrThrow();
    expect(stored.risk_status).toBe('TRUE');
    expect(stored.rule_set_version).toBe('2.0');
  });

  it('leaves nothing behind when a save fails part-way', async () => {
    if (testDatabase.engine === 'postgres') {
      await sql`create function refuse_results() returns trigger language plpgsql as $$ begin raise exception 'disk full'; end $$`.execute(
        t.database.db,
      );
      await sql`create trigger refuse_results before insert on results for each row execute function refuse_results()`.execute(
        t.database.db,
      );
    } else {
      await sql`create trigger refuse_results before insert on results begin select raise(abort, 'disk full'); end`.execute(
        t.database.db,
      );
    }
    const before = await rowCounts();
    const auditBefore = await t.database.db.selectFrom('audit_events').select('id').execute();
    try {
      const response = await call(nurse, 'POST', '/api/assessments', patient);
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toContain('disk full');
      expect(await rowCounts()).toEqual(before);
      expect(await t.database.db.selectFrom('audit_events').select('id').execute()).toHaveLength(
        auditBefore.length,
      );
    } finally {
      await sql`drop trigger refuse_results ${sql.raw(testDatabase.engine === 'postgres' ? 'on results' : '')}`.execute(
        t.database.db,
      );
    }
    expect((await call(nurse, 'POST', '/api/assessments', patient)).statusCode).toBe(201);
  });

  it('accepts one of two updates made from the same version and refuses the other with 412', async () => {
    const created = await create();
    const edit = (who: { cookie: string }, notes: string) =>
      call(
        who,
        'PUT',
        `/api/assessments/${created.id}`,
        { ...patient, notes },
        { 'if-match': '"1"' },
      );
    const [first, second] = await Promise.all([edit(nurse, 'first'), edit(otherNurse, 'second')]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([200, 412]);
    const refused = first.statusCode === 412 ? first : second;
    expect(refused.json()).toMatchObject({
      error: {
        code: 'stale_version',
        message: expect.stringContaining('Someone else changed') as unknown,
      },
    });
    const read = (await call(nurse, 'GET', `/api/assessments/${created.id}`)).json<Assessment>();
    expect(read.version).toBe(2);
    expect(read.notes).toBe(first.statusCode === 200 ? 'first' : 'second');
  });

  it('requires If-Match on an update (428) and recomputes the scores', async () => {
    const created = await create();
    const missing = await call(nurse, 'PUT', `/api/assessments/${created.id}`, patient);
    expect(missing.statusCode).toBe(428);
    const changed = { ...patient, demographics: { ...patient.demographics, age: 30 } };
    const updated = await call(nurse, 'PUT', `/api/assessments/${created.id}`, changed, {
      'if-match': '"1"',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.headers.etag).toBe('"2"');
    expect(updated.json<Assessment>().results).toEqual(score(changed));
  });

  it('never makes a second record for a repeated code', async () => {
    const code = 'ASS-MHX3K2QZ-7F2A';
    const first = await call(nurse, 'POST', '/api/assessments', { ...patient, code, notes: 'n' });
    expect(first.statusCode).toBe(201);
    const retried = await call(nurse, 'POST', '/api/assessments', { ...patient, code, notes: 'n' });
    expect(retried.statusCode).toBe(200);
    expect(retried.json<Assessment>().id).toBe(first.json<Assessment>().id);
    const different = await call(nurse, 'POST', '/api/assessments', {
      ...patient,
      code,
      notes: 'other',
    });
    expect(different.statusCode).toBe(409);
    expect(different.json()).toMatchObject({
      error: { code: 'conflict', field: 'code', existingId: first.json<Assessment>().id },
    });
    const rows = await t.database.db
      .selectFrom('assessments')
      .select('id')
      .where('assessment_code', '=', code)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('draws a new code when a generated one is already taken', async () => {
    // The clock stands still in tests: the first two draws give the same code.
    const draws = [0, 0, 0, 0, 0, 0, 0, 0];
    t.context.randomFraction = () => draws.shift() ?? 0.5;
    try {
      const first = await create();
      const second = await create();
      expect(first.code).toMatch(/-0000$/);
      expect(second.code).toMatch(/-IIII$/);
      expect(second.code?.slice(0, -4)).toBe(first.code?.slice(0, -4));
    } finally {
      delete t.context.randomFraction;
    }
  });

  it("signs off with the signer's name, for good, and then refuses updates", async () => {
    const created = await create();
    const signed = await signOff(doctor, created.id, 1);
    expect(signed.statusCode).toBe(200);
    expect(signed.headers.etag).toBe('"2"');
    expect(signed.json()).toMatchObject({ signedOff: true, signedOffBy: 'Dee Doctor', version: 2 });
    const update = await call(
      nurse,
      'PUT',
      `/api/assessments/${created.id}`,
      { ...patient, notes: 'late' },
      { 'if-match': '"2"' },
    );
    expect(update.statusCode).toBe(409);
    expect(update.json()).toEqual({
      error: { code: 'signed_off', message: 'Cannot update signed-off assessment' },
    });
    expect((await signOff(nurse, created.id, 2)).statusCode).toBe(409);
    const read = (await call(nurse, 'GET', `/api/assessments/${created.id}`)).json<Assessment>();
    expect(read.notes).toBeNull();
    expect(read.version).toBe(2);
  });

  it('soft-deletes: gone from the list and from nurses, kept for admins, restorable by an admin', async () => {
    const created = await create({ ...patient, notes: 'to delete' });
    expect((await remove(nurse, created.id, 1)).statusCode).toBe(204);
    expect((await call(nurse, 'GET', `/api/assessments/${created.id}`)).statusCode).toBe(404);
    expect((await remove(nurse, created.id, 2)).statusCode).toBe(404);
    const list = (
      await call(nurse, 'GET', `/api/assessments?q=${created.code}`)
    ).json<AssessmentList>();
    expect(list.items).toEqual([]);
    const kept = await call(admin, 'GET', `/api/assessments/${created.id}`);
    expect(kept.statusCode).toBe(200);
    expect(kept.json<Assessment>().deletedAt).not.toBeNull();
    expect((await call(nurse, 'POST', `/api/assessments/${created.id}/restore`)).statusCode).toBe(
      403,
    );
    expect((await call(doctor, 'POST', `/api/assessments/${created.id}/restore`)).statusCode).toBe(
      403,
    );
    const restored = await call(admin, 'POST', `/api/assessments/${created.id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json<Assessment>().deletedAt).toBeNull();
    expect(
      (await call(nurse, 'GET', `/api/assessments?q=${created.code}`)).json<AssessmentList>().items,
    ).toHaveLength(1);
  });

  it('lets only an admin delete a signed-off assessment', async () => {
    const created = await create();
    expect((await signOff(nurse, created.id, 1)).statusCode).toBe(200);
    expect((await remove(nurse, created.id, 2)).statusCode).toBe(403);
    expect((await remove(doctor, created.id, 2)).statusCode).toBe(403);
    expect((await remove(admin, created.id, 2)).statusCode).toBe(204);
  });

  it.each([
    ['an out-of-range age', { ...patient, demographics: { age: 130 } }, 'demographics.age'],
    [
      'an unknown symptom',
      { ...patient, symptoms: { DM2: { sneezing: { present: true } } } },
      'symptoms.DM2',
    ],
    [
      'a severity off the scale',
      { ...patient, symptoms: { HIV: { weightLoss: { present: true, severity: 'severe' } } } },
      'symptoms.HIV.weightLoss.severity',
    ],
    [
      'an unknown visit option',
      { ...patient, management: { DM2: { diagnosed: true, lastDoctorVisit: 'yesterday' } } },
      'management.DM2.lastDoctorVisit',
    ],
    ['an unknown gender', { ...patient, demographics: { gender: 'Other' } }, 'demographics.gender'],
    ['a malformed code', { ...patient, code: 'ASS-123' }, 'code'],
  ])('refuses %s with 400 naming the field, changing nothing', async (_name, body, field) => {
    const before = await rowCounts();
    const response = await call(nurse, 'POST', '/api/assessments', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: 'validation_failed', field } });
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses malformed JSON with 400, changing nothing', async () => {
    const before = await rowCounts();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/assessments',
      headers: { cookie: nurse.cookie, 'content-type': 'application/json' },
      payload: '{"demographics": {"age": 40',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: 'invalid_json' } });
    expect(await rowCounts()).toEqual(before);
  });

  describe.each([
    { change: 'sign-off', method: 'POST', suffix: '/sign-off', succeeded: 200 },
    { change: 'delete', method: 'DELETE', suffix: '', succeeded: 204 },
  ] as const)('a $change', ({ change, method, suffix, succeeded }) => {
    const changeAt = (who: { cookie: string }, id: string, version?: number) =>
      call(
        who,
        method,
        `/api/assessments/${id}${suffix}`,
        undefined,
        version === undefined ? {} : atVersion(version),
      );
    const stored = async (id: string) =>
      t.database.db
        .selectFrom('assessments')
        .select(['version', 'signed_off', 'deleted_at', 'notes'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
    const auditActions = async (id: string) =>
      (
        await t.database.db
          .selectFrom('audit_events')
          .select('action')
          .where('target_id', '=', id)
          .orderBy('id')
          .execute()
      ).map((row) => row.action);
    const changed = (row: Awaited<ReturnType<typeof stored>>) =>
      change === 'sign-off' ? Boolean(row.signed_off) : row.deleted_at !== null;
    const theirEdit = (id: string) =>
      call(
        otherNurse,
        'PUT',
        `/api/assessments/${id}`,
        { ...patient, notes: 'their change' },
        atVersion(1),
      );

    it('must name the version it changes (428), changing nothing', async () => {
      const created = await create();
      const before = await stored(created.id);
      const missing = await changeAt(nurse, created.id);
      expect(missing.statusCode).toBe(428);
      expect(missing.json()).toEqual({
        error: {
          code: 'precondition_required',
          message: 'An update must say which version it changes (If-Match).',
          field: 'If-Match',
        },
      });
      expect(await stored(created.id)).toEqual(before);
      expect(await auditActions(created.id)).toEqual(['assessment_create']);
    });

    it('is refused (412) when someone else changed the assessment since, changing nothing', async () => {
      const created = await create();
      expect((await theirEdit(created.id)).statusCode).toBe(200);
      const before = await stored(created.id);
      const stale = await changeAt(nurse, created.id, 1);
      expect(stale.statusCode).toBe(412);
      expect(stale.json()).toEqual({
        error: {
          code: 'stale_version',
          message:
            'Someone else changed this assessment after you opened it. Reload it to see their changes; nothing was saved.',
        },
      });
      expect(await stored(created.id)).toEqual(before);
      expect(await auditActions(created.id)).toEqual(['assessment_create', 'assessment_update']);
    });

    it('succeeds at the current version', async () => {
      const created = await create();
      expect((await theirEdit(created.id)).statusCode).toBe(200);
      const response = await changeAt(nurse, created.id, 2);
      expect(response.statusCode, response.body).toBe(succeeded);
      const after = await stored(created.id);
      expect(after.version).toBe(3);
      expect(changed(after)).toBe(true);
      if (change === 'sign-off') {
        expect(response.headers.etag).toBe('"3"');
        expect(response.json()).toMatchObject({ signedOff: true, version: 3 });
      }
      expect(await auditActions(created.id)).toEqual([
        'assessment_create',
        'assessment_update',
        change === 'sign-off' ? 'assessment_sign_off' : 'assessment_delete',
      ]);
    });

    it('and an update made from the same version: exactly one lands', async () => {
      for (let round = 0; round < 5; round++) {
        const created = await create();
        const [mine, theirs] = await Promise.all([
          changeAt(nurse, created.id, 1),
          theirEdit(created.id),
        ]);
        const after = await stored(created.id);
        expect(after.version).toBe(2);
        if (mine.statusCode === succeeded) {
          expect([404, 409, 412]).toContain(theirs.statusCode);
          expect(changed(after)).toBe(true);
          expect(after.notes).toBeNull();
        } else {
          expect(mine.statusCode).toBe(412);
          expect(theirs.statusCode).toBe(200);
          expect(changed(after)).toBe(false);
          expect(after.notes).toBe('their change');
        }
      }
    });
  });

  it('declares If-Match and its 412 and 428 answers on every change of an assessment', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<
        string,
        Record<
          string,
          { parameters?: Array<{ in: string; name: string }>; responses: Record<string, unknown> }
        >
      >;
    }>();
    for (const [path, method] of [
      ['/api/assessments/{id}', 'put'],
      ['/api/assessments/{id}/sign-off', 'post'],
      ['/api/assessments/{id}', 'delete'],
    ] as const) {
      const operation = document.paths[path]?.[method];
      expect(operation?.parameters).toContainEqual(
        expect.objectContaining({ in: 'header', name: 'if-match' }),
      );
      expect(Object.keys(operation?.responses ?? {})).toEqual(
        expect.arrayContaining(['412', '428']),
      );
    }
  });

  it('writes an audit row for each create, update, sign-off, delete and restore', async () => {
    const created = await create();
    await call(nurse, 'PUT', `/api/assessments/${created.id}`, patient, atVersion(1));
    await remove(nurse, created.id, 2);
    await call(admin, 'POST', `/api/assessments/${created.id}/restore`);
    await signOff(nurse, created.id, 4);
    const rows = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'username'])
      .where('target_id', '=', created.id)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { action: 'assessment_create', username: 'nurse-nia' },
      { action: 'assessment_update', username: 'nurse-nia' },
      { action: 'assessment_delete', username: 'nurse-nia' },
      { action: 'assessment_restore', username: 'admin-ada' },
      { action: 'assessment_sign_off', username: 'nurse-nia' },
    ]);
  });
});

describe.each(testDatabases())('the history on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: { cookie: string };
  const ids: Record<string, Assessment> = {};

  beforeAll(async () => {
    t = await openTestApp(testDatabase, { TRIAGE_TIME_ZONE: 'Africa/Johannesburg' });
    const day = 24 * 3_600_000;
    // A day passes between assessments, so each day's nurse signs in afresh.
    const add = async (name: string, body: object) => {
      nurse = await signedInAs(t, 'nurse');
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/assessments',
        headers: { cookie: nurse.cookie },
        payload: body,
      });
      ids[name] = response.json<Assessment>();
      t.advance(day);
    };
    // The clock starts at 2026-11-22 11:00 in Johannesburg; one assessment a day.
    await add('man45', { demographics: { age: 45, gender: 'Male', height: 180, weight: 80 } });
    await add('woman62', { demographics: { age: 62, gender: 'Female', height: 160, weight: 80 } });
    await add('womanPartial', { demographics: { gender: 'Female' } });
    await add('man30', { demographics: { age: 30, gender: 'Male', height: 175, weight: 70 } });
    nurse = await signedInAs(t, 'nurse');
    const signed = await t.app.inject({
      method: 'POST',
      url: `/api/assessments/${ids.woman62?.id ?? ''}/sign-off`,
      headers: { cookie: nurse.cookie, 'if-match': '"1"' },
    });
    expect(signed.statusCode, signed.body).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  const search = async (query: string) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/assessments?${query}`,
      headers: { cookie: nurse.cookie },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<AssessmentList>();
  };
  const names = (list: AssessmentList) =>
    list.items.map((item) => Object.entries(ids).find(([, a]) => a.id === item.id)?.[0]);

  it('lists newest first with totals', async () => {
    const list = await search('');
    expect(names(list)).toEqual(['man30', 'womanPartial', 'woman62', 'man45']);
    expect(list).toMatchObject({ total: 4, overallTotal: 4, nextCursor: null });
    expect(list.items[2]).toMatchObject({
      age: 62,
      gender: 'Female',
      signedOff: true,
      assessmentComplete: true,
    });
  });

  it('pages with a cursor', async () => {
    const first = await search('limit=3');
    expect(names(first)).toEqual(['man30', 'womanPartial', 'woman62']);
    expect(first.nextCursor).not.toBeNull();
    const second = await search(`limit=3&cursor=${first.nextCursor ?? ''}`);
    expect(names(second)).toEqual(['man45']);
    expect(second.nextCursor).toBeNull();
  });

  it.each([
    ['q=female', ['womanPartial', 'woman62']],
    ['q=MALE', ['man30', 'man45']],
    ['q=signed%20off', ['woman62']],
    ['q=not%20signed%20off', ['man30', 'womanPartial', 'man45']],
    ['q=incomplete', ['womanPartial']],
    ['q=45', ['man45']],
    ['q=male%2030', ['man30']],
    ['q=2026-11-23', ['woman62']],
    // A short number is an age or part of the date, never a digit of a random id.
    ['q=22', ['man45']],
  ])('searches %s', async (query, expected) => {
    const list = await search(query);
    expect(names(list)).toEqual(expected);
    expect(list.total).toBe(expected.length);
    expect(list.overallTotal).toBe(4);
  });

  it('searches by code and id, case-insensitively', async () => {
    const code = ids.man45?.code ?? '';
    expect(names(await search(`q=${code.toLowerCase()}`))).toEqual(['man45']);
    expect(names(await search(`q=${ids.man30?.id.slice(0, 8) ?? ''}`))).toEqual(['man30']);
    expect(names(await search(`q=${ids.woman62?.id.slice(6, 16).toUpperCase() ?? ''}`))).toEqual([
      'woman62',
    ]);
  });

  it("takes the user's % and _ literally", async () => {
    expect((await search('q=%25')).total).toBe(0);
    expect((await search('q=2026_11_22')).total).toBe(0);
    expect((await search('q=2026-11-2_')).total).toBe(0);
  });

  it('filters by whole days in the clinic time zone', async () => {
    expect(names(await search('from=2026-11-23&to=2026-11-24'))).toEqual([
      'womanPartial',
      'woman62',
    ]);
    expect(names(await search('from=2026-11-25'))).toEqual(['man30']);
    expect(names(await search('to=2026-11-22'))).toEqual(['man45']);
  });

  it('refuses a bad date or cursor with 400', async () => {
    const badDate = await t.app.inject({
      method: 'GET',
      url: '/api/assessments?from=22/11/2026',
      headers: { cookie: nurse.cookie },
    });
    expect(badDate.statusCode).toBe(400);
    const badCursor = await t.app.inject({
      method: 'GET',
      url: '/api/assessments?cursor=zzz',
      headers: { cookie: nurse.cookie },
    });
    expect(badCursor.statusCode).toBe(400);
  });
});
