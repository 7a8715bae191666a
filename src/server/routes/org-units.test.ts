import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Assessment } from '../../shared/api/assessments.ts';
import type { OrgUnit, OrgUnitTree } from '../../shared/api/org-units.ts';
import type { Patient } from '../../shared/api/patients.ts';
import type { User } from '../../shared/api/users.ts';
import { everythingScope } from '../auth/scope.ts';
import { listOrgUnits } from '../services/org-units.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { atVersion, requestsAs, type Requests } from '../testing/requests.ts';
import { lowRiskBody } from '../testing/risk-bodies.ts';
import { signedInAs, testPassword } from '../testing/users.ts';

describe.each(testDatabases())('organisation units on $engine', (testDatabase) => {
  let t: TestApp;
  let call: Requests;
  let admin: { cookie: string; userId: string };
  let main: OrgUnit;

  beforeEach(async () => {
    t = await openTestApp(testDatabase);
    call = requestsAs(t);
    admin = await signedInAs(t, 'admin');
    const tree = await call(admin, 'GET', '/api/org-units');
    expect(tree.statusCode, tree.body).toBe(200);
    const [only] = tree.json<OrgUnitTree>().items;
    if (only === undefined) throw new Error('No MAIN unit');
    main = only;
  });
  afterEach(async () => {
    await t.close();
  });

  const add = async (code: string, parentId: string | null, name = `Unit ${code}`) => {
    const response = await call(admin, 'POST', '/api/org-units', { code, name, parentId });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<OrgUnit>();
  };
  const auditOf = async (id: string) =>
    (
      await t.database.db
        .selectFrom('audit_events')
        .select(['action', 'user_id'])
        .where('target_type', '=', 'org_unit')
        .where('target_id', '=', id)
        .orderBy('id')
        .execute()
    ).map((row) => [row.action, row.user_id]);

  /** A user of the given units, signed in. */
  const userOf = async (role: 'nurse' | 'doctor', units: string[]) => {
    const username = `${role}-${units.length}-${Math.random().toString(36).slice(2, 8)}`;
    const created = await call(admin, 'POST', '/api/users', {
      username,
      role,
      password: testPassword,
      units,
    });
    expect(created.statusCode, created.body).toBe(201);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/session',
      payload: { username, password: testPassword },
    });
    const cookie = signIn.cookies.find((c) => c.name === 'triage_session');
    if (cookie === undefined) throw new Error('No session');
    return { cookie: `triage_session=${cookie.value}`, user: created.json<User>() };
  };

  it('is MAIN alone at first, and lists a tree each unit after its parent', async () => {
    expect(main).toMatchObject({ code: 'MAIN', name: 'Main clinic', parentId: null, depth: 0 });
    const district = await add('D-1', main.id);
    await add('f_2', district.id);
    await add('F-1', district.id);
    await add('A-top', null);
    const nurse = await signedInAs(t, 'nurse');
    const tree = await call(nurse, 'GET', '/api/org-units');
    expect(tree.statusCode).toBe(200);
    expect(
      tree.json<OrgUnitTree>().items.map((unit) => `${'-'.repeat(unit.depth)}${unit.code}`),
    ).toEqual(['MAIN', '-D-1', '--F-1', '--f_2']);
    // A second unit at the top lies outside the scope of MAIN's users: the command line sees it.
    const everything = await listOrgUnits(t.context, everythingScope);
    expect(everything.items.map((unit) => `${'-'.repeat(unit.depth)}${unit.code}`)).toEqual([
      'A-top',
      'MAIN',
      '-D-1',
      '--F-1',
      '--f_2',
    ]);
    const one = await call(nurse, 'GET', `/api/org-units/${district.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.headers.etag).toBe('"1"');
    expect(one.json<OrgUnit>()).toEqual(district);
    expect((await call(nurse, 'GET', '/api/org-units/nothing')).statusCode).toBe(404);
  });

  it('makes units as an administrator only, audited, codes unique without case', async () => {
    const made = await add('North', main.id, 'North district');
    expect(made).toMatchObject({
      code: 'North',
      name: 'North district',
      parentId: main.id,
      version: 1,
      closedAt: null,
    });
    expect(await auditOf(made.id)).toEqual([['org_unit_create', admin.userId]]);

    for (const code of ['NORTH', 'north', 'main']) {
      const taken = await call(admin, 'POST', '/api/org-units', {
        code,
        name: 'Again',
        parentId: null,
      });
      expect(taken.statusCode, taken.body).toBe(409);
      expect(taken.json()).toMatchObject({ error: { code: 'conflict', field: 'code' } });
    }
    for (const code of ['', 'a b', 'x'.repeat(33), 'é', 'a/b']) {
      const refused = await call(admin, 'POST', '/api/org-units', {
        code,
        name: 'Bad',
        parentId: null,
      });
      expect(refused.statusCode, code).toBe(400);
      expect(refused.json()).toMatchObject({ error: { field: 'code' } });
    }
    expect(
      (
        await call(admin, 'POST', '/api/org-units', {
          code: 'x'.repeat(32),
          name: 'Long',
          parentId: null,
        })
      ).statusCode,
    ).toBe(201);
    const orphan = await call(admin, 'POST', '/api/org-units', {
      code: 'Orphan',
      name: 'Orphan',
      parentId: 'nothing',
    });
    expect(orphan.statusCode).toBe(400);
    expect(orphan.json()).toMatchObject({ error: { field: 'parentId' } });

    for (const role of ['nurse', 'doctor'] as const) {
      const other = await signedInAs(t, role);
      const refused = await call(other, 'POST', '/api/org-units', {
        code: `by-${role}`,
        name: 'Not allowed',
        parentId: null,
      });
      expect(refused.statusCode).toBe(403);
      const put = await call(
        other,
        'PUT',
        `/api/org-units/${made.id}`,
        { code: 'X', name: 'X', parentId: null },
        atVersion(1),
      );
      expect(put.statusCode).toBe(403);
      expect((await call(other, 'POST', `/api/org-units/${made.id}/close`)).statusCode).toBe(403);
    }
    expect(await auditOf(made.id)).toEqual([['org_unit_create', admin.userId]]);
  });

  it('changes a unit at the version seen, and refuses a parent below it', async () => {
    const region = await add('R-1', main.id);
    const district = await add('D-1', region.id);
    const facility = await add('F-1', district.id);
    const body = { code: 'r-one', name: 'Region one', parentId: main.id };

    const unversioned = await call(admin, 'PUT', `/api/org-units/${region.id}`, body);
    expect(unversioned.statusCode).toBe(428);
    const changed = await call(admin, 'PUT', `/api/org-units/${region.id}`, body, atVersion(1));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.headers.etag).toBe('"2"');
    expect(changed.json<OrgUnit>()).toMatchObject({ ...body, version: 2 });
    const stale = await call(admin, 'PUT', `/api/org-units/${region.id}`, body, atVersion(1));
    expect(stale.statusCode).toBe(412);
    expect(stale.json()).toMatchObject({ error: { code: 'stale_version' } });

    for (const parentId of [region.id, district.id, facility.id]) {
      const cycle = await call(
        admin,
        'PUT',
        `/api/org-units/${region.id}`,
        { ...body, parentId },
        atVersion(2),
      );
      expect(cycle.statusCode, cycle.body).toBe(409);
      expect(cycle.json()).toMatchObject({ error: { code: 'conflict', field: 'parentId' } });
    }
    // A facility may move to another branch, and a unit to the top.
    const moved = await call(
      admin,
      'PUT',
      `/api/org-units/${facility.id}`,
      { code: 'F-1', name: 'Unit F-1', parentId: region.id },
      atVersion(1),
    );
    expect(moved.statusCode, moved.body).toBe(200);
    const top = await call(
      admin,
      'PUT',
      `/api/org-units/${district.id}`,
      { code: 'D-1', name: 'Unit D-1', parentId: null },
      atVersion(1),
    );
    expect(top.statusCode, top.body).toBe(200);
    // D-1 at the top lies outside MAIN's administrator's scope from now on.
    expect((await call(admin, 'GET', `/api/org-units/${district.id}`)).statusCode).toBe(404);
    const taken = await call(
      admin,
      'PUT',
      `/api/org-units/${facility.id}`,
      { code: 'Main', name: 'Unit F-1', parentId: region.id },
      atVersion(2),
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ error: { field: 'code' } });
    expect(
      (await call(admin, 'PUT', '/api/org-units/nothing', body, atVersion(1))).statusCode,
    ).toBe(404);
    expect(await auditOf(region.id)).toEqual([
      ['org_unit_create', admin.userId],
      ['org_unit_update', admin.userId],
    ]);
  });

  it('closes a unit: it takes no new patients, assessments or units; its records stay', async () => {
    const facility = await add('F-1', main.id);
    const nurse = await userOf('nurse', [facility.id]);
    const patient = await call(nurse, 'POST', '/api/patients', { number: 'C-1' });
    expect(patient.statusCode, patient.body).toBe(201);
    const before = await call(nurse, 'POST', '/api/assessments', {
      ...lowRiskBody,
      patientId: patient.json<Patient>().id,
    });
    expect(before.statusCode, before.body).toBe(201);
    // A nurse of one unit works there: the record and assessment are the facility's.
    const placed = await t.database.db
      .selectFrom('assessments')
      .innerJoin('patient_records', 'patient_records.id', 'assessments.patient_record_id')
      .select(['assessments.org_unit_id as assessment', 'patient_records.org_unit_id as record'])
      .where('assessments.id', '=', before.json<Assessment>().id)
      .executeTakeFirstOrThrow();
    expect(placed).toEqual({ assessment: facility.id, record: facility.id });

    const stale = await call(
      admin,
      'POST',
      `/api/org-units/${facility.id}/close`,
      undefined,
      atVersion(9),
    );
    expect(stale.statusCode).toBe(412);
    const closed = await call(
      admin,
      'POST',
      `/api/org-units/${facility.id}/close`,
      undefined,
      atVersion(1),
    );
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json<OrgUnit>().version).toBe(2);
    expect(closed.json<OrgUnit>().closedAt).toBe(t.context.now().toISOString());
    expect((await call(admin, 'POST', `/api/org-units/${facility.id}/close`)).statusCode).toBe(409);
    expect(await auditOf(facility.id)).toEqual([
      ['org_unit_create', admin.userId],
      ['org_unit_close', admin.userId],
    ]);

    const refusals = [
      await call(nurse, 'POST', '/api/patients', { number: 'C-2' }),
      await call(nurse, 'POST', '/api/assessments', lowRiskBody),
      await call(nurse, 'POST', '/api/assessments', {
        ...lowRiskBody,
        newPatient: { number: 'C-3' },
      }),
      // Another unit's user, naming the closed unit's patient.
      await call(await signedInAs(t, 'nurse'), 'POST', '/api/assessments', {
        ...lowRiskBody,
        patientId: patient.json<Patient>().id,
      }),
    ];
    for (const refused of refusals) {
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toMatchObject({ error: { code: 'unit_closed', field: 'orgUnitId' } });
      expect(refused.json<{ error: { message: string } }>().error.message).toContain('F-1');
    }
    const child = await call(admin, 'POST', '/api/org-units', {
      code: 'Under',
      name: 'Under closed',
      parentId: facility.id,
    });
    expect(child.statusCode).toBe(409);
    expect(child.json()).toMatchObject({ error: { code: 'unit_closed', field: 'parentId' } });

    // What it holds stays readable, and nothing new was written.
    const read = await call(nurse, 'GET', `/api/assessments/${before.json<Assessment>().id}`);
    expect(read.statusCode).toBe(200);
    expect(
      await t.database.db
        .selectFrom('patient_records')
        .select('number')
        .where('org_unit_id', '=', facility.id)
        .execute(),
    ).toEqual([{ number: 'C-1' }]);
  });

  it('gives users units: MAIN by default while it is the only unit, then named', async () => {
    const alone = await call(admin, 'POST', '/api/users', {
      username: 'first-nurse',
      role: 'nurse',
      password: testPassword,
    });
    expect(alone.statusCode, alone.body).toBe(201);
    expect(alone.json<User>().units).toEqual([{ id: main.id, code: 'MAIN', name: 'Main clinic' }]);

    const facility = await add('F-1', main.id, 'Facility one');
    const unnamed = await call(admin, 'POST', '/api/users', {
      username: 'second-nurse',
      role: 'nurse',
      password: testPassword,
    });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json()).toMatchObject({ error: { field: 'units' } });
    for (const units of [[], ['nothing']]) {
      const refused = await call(admin, 'POST', '/api/users', {
        username: 'second-nurse',
        role: 'nurse',
        password: testPassword,
        units,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json<{ error: { field: string } }>().error.field).toMatch(/^units/);
    }
    const { user } = await userOf('nurse', [facility.id, main.id, facility.id]);
    expect(user.units.map((unit) => unit.code)).toEqual(['F-1', 'MAIN']);

    const changed = await call(admin, 'PATCH', `/api/users/${user.id}`, { units: [facility.id] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<User>().units).toEqual([
      { id: facility.id, code: 'F-1', name: 'Facility one' },
    ]);
    const emptied = await call(admin, 'PATCH', `/api/users/${user.id}`, { units: [] });
    expect(emptied.statusCode).toBe(400);
    const list = await call(admin, 'GET', '/api/users');
    const listed = list.json<{ items: User[] }>().items.find((item) => item.id === user.id);
    expect(listed?.units.map((unit) => unit.code)).toEqual(['F-1']);

    // A closed unit is joined by no one; who works there already keeps it.
    const closing = await add('F-2', main.id, 'Facility two');
    const { user: staying } = await userOf('nurse', [closing.id]);
    const closed = await call(admin, 'POST', `/api/org-units/${closing.id}/close`);
    expect(closed.statusCode, closed.body).toBe(200);
    const joining = await call(admin, 'POST', '/api/users', {
      username: 'third-nurse',
      role: 'nurse',
      password: testPassword,
      units: [closing.id],
    });
    expect(joining.statusCode).toBe(409);
    expect(joining.json()).toMatchObject({ error: { code: 'unit_closed', field: 'units' } });
    const moved = await call(admin, 'PATCH', `/api/users/${user.id}`, {
      units: [facility.id, closing.id],
    });
    expect(moved.statusCode).toBe(409);
    const kept = await call(admin, 'PATCH', `/api/users/${staying.id}`, {
      units: [closing.id, main.id],
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<User>().units.map((unit) => unit.code)).toEqual(['F-2', 'MAIN']);
  });

  it("puts a record in the unit chosen, else its patient's unit, else the user's only unit", async () => {
    const one = await add('F-1', main.id);
    const two = await add('F-2', main.id);
    const single = await userOf('nurse', [one.id]);
    const several = await userOf('nurse', [one.id, two.id]);
    const unitOf = async (response: Awaited<ReturnType<Requests>>) => {
      expect(response.statusCode, response.body).toBe(201);
      const row = await t.database.db
        .selectFrom('assessments')
        .select('org_unit_id')
        .where('id', '=', response.json<Assessment>().id)
        .executeTakeFirstOrThrow();
      return row.org_unit_id;
    };
    expect(await unitOf(await call(single, 'POST', '/api/assessments', lowRiskBody))).toBe(one.id);
    // A user of several units chooses one (step 1); without a choice the save is refused.
    const unchosen = await call(several, 'POST', '/api/assessments', lowRiskBody);
    expect(unchosen.statusCode).toBe(400);
    expect(unchosen.json()).toMatchObject({ error: { field: 'orgUnitId' } });
    expect(
      await unitOf(
        await call(several, 'POST', '/api/assessments', { ...lowRiskBody, orgUnitId: two.id }),
      ),
    ).toBe(two.id);
    // A unit outside the user's scope is no choice: answered as unknown.
    const outside = await call(single, 'POST', '/api/assessments', {
      ...lowRiskBody,
      orgUnitId: two.id,
    });
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({ error: { field: 'orgUnitId' } });
    // A patient of F-1 seen by a user of MAIN (above F-1): the assessment is the patient's unit's.
    const patient = (
      await call(single, 'POST', '/api/patients', { number: 'P-1' })
    ).json<Patient>();
    const elsewhere = await userOf('nurse', [main.id]);
    expect(
      await unitOf(
        await call(elsewhere, 'POST', '/api/assessments', {
          ...lowRiskBody,
          patientId: patient.id,
        }),
      ),
    ).toBe(one.id);
  });

  it('is in the OpenAPI document', async () => {
    const document = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const paths = document.json<{ paths: Record<string, Record<string, unknown>> }>().paths;
    expect(Object.keys(paths['/api/org-units'] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths['/api/org-units/{id}'] ?? {}).sort()).toEqual(['get', 'put']);
    expect(Object.keys(paths['/api/org-units/{id}/close'] ?? {})).toEqual(['post']);
  });
});
