import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../server/testing/app.ts';
import { testDatabases } from '../../server/testing/databases.ts';
import { testPassword } from '../../server/testing/users.ts';
import { runOrgUnitCommand } from './org-unit.ts';
import { runUserCommand } from './user.ts';

let scratch: string;
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-org-unit-'));
});
afterAll(() => {
  fs.rmSync(scratch, { recursive: true, force: true });
});

function streams() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const seen = { out: '', err: '' };
  stdout.setEncoding('utf8').on('data', (chunk: string) => (seen.out += chunk));
  stderr.setEncoding('utf8').on('data', (chunk: string) => (seen.err += chunk));
  return { stdout, stderr, seen };
}

describe.each(testDatabases())('triage org-unit on $engine', (testDatabase) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await openTestApp(testDatabase);
  });
  afterEach(async () => {
    await t.close();
  });

  async function orgUnit(...args: string[]) {
    const { stdout, stderr, seen } = streams();
    const exitCode = await runOrgUnitCommand(args, { stdout, stderr }, (work) => work(t.context));
    return { exitCode, ...seen };
  }
  async function userAdd(...args: string[]) {
    const { stdout, stderr, seen } = streams();
    const stdin = new PassThrough() as unknown as NodeJS.ReadStream & PassThrough;
    stdin.end(`${testPassword}\n`);
    const exitCode = await runUserCommand(['add', ...args], { stdin, stdout, stderr }, (work) =>
      work(t.context),
    );
    return { exitCode, ...seen };
  }
  const auditCount = async (action: string) =>
    (
      await t.database.db
        .selectFrom('audit_events')
        .select('id')
        .where('action', '=', action)
        .execute()
    ).length;

  it('adds units under a parent by code and lists the tree', async () => {
    expect(
      await orgUnit('add', '--code', 'North', '--name', 'North region', '--parent', 'main'),
    ).toMatchObject({ exitCode: 0, out: 'Created unit North (North region) under main.\n' });
    expect(
      await orgUnit('add', '--code', 'F-1', '--name', 'Facility one', '--parent', 'NORTH'),
    ).toMatchObject({ exitCode: 0 });
    expect(await orgUnit('add', '--code', 'Other', '--name', 'Another country')).toMatchObject({
      exitCode: 0,
      out: 'Created unit Other (Another country) at the top.\n',
    });
    expect(await auditCount('org_unit_create')).toBe(3);

    const taken = await orgUnit('add', '--code', 'north', '--name', 'Again');
    expect(taken).toMatchObject({ exitCode: 1 });
    expect(taken.err).toContain('code: The code North is taken (codes ignore case).');
    const noParent = await orgUnit('add', '--code', 'X', '--name', 'X', '--parent', 'nowhere');
    expect(noParent).toMatchObject({
      exitCode: 1,
      err: '--parent: No unit has the code nowhere.\n',
    });
    expect((await orgUnit('add', '--code', 'a b', '--name', 'X')).exitCode).toBe(1);
    expect((await orgUnit('add', '--code', 'Y')).exitCode).toBe(2);

    const listed = await orgUnit('list');
    expect(listed.exitCode).toBe(0);
    expect(listed.out.split('\n')).toEqual([
      'code\tname\tparent\tstate',
      'MAIN\tMain clinic\t-\topen',
      '  North\tNorth region\tMAIN\topen',
      '    F-1\tFacility one\tNorth\topen',
      'Other\tAnother country\t-\topen',
      '',
    ]);
  });

  it('imports a CSV file idempotently, reporting each row by its line', async () => {
    const file = path.join(scratch, `units-${t.database.engine}.csv`);
    fs.writeFileSync(
      file,
      [
        'code,name,parent_code',
        // A parent after its child, a name with a comma, a blank line.
        'F-1,"Facility one, east",D-1',
        'D-1,District one,MAIN',
        '',
        'bad code,Spaces,MAIN',
        'F-2,Facility two,NOWHERE',
        'main,Main clinic,',
        'MAIN,Another name,',
        'F-3,Facility three,d-1,extra',
        'F-4,,D-1',
      ].join('\r\n'),
    );
    const first = await orgUnit('import', '--from', file);
    expect(first.out.split('\n')).toEqual([
      'line 2: F-1: created',
      'line 3: D-1: created',
      "line 5: bad code: refused, code: Codes are 1 to 32 letters, digits, '-' or '_'",
      'line 6: F-2: refused, no unit has the parent code NOWHERE',
      'line 7: MAIN: unchanged',
      'line 8: MAIN: refused, the unit MAIN exists with another name',
      'line 9: F-3: refused, it has 4 cells, not 3',
      'line 10: F-4: refused, name: A unit needs a name',
      '2 created, 1 unchanged, 5 refused.',
      '',
    ]);
    expect(first.exitCode).toBe(1);
    expect(await auditCount('org_unit_create')).toBe(2);

    const again = await orgUnit('import', '--from', file);
    expect(again.out).toContain('line 2: F-1: unchanged\nline 3: D-1: unchanged\n');
    expect(again.out).toContain('0 created, 3 unchanged, 5 refused.\n');
    expect(await auditCount('org_unit_create')).toBe(2);
    const tree = await orgUnit('list');
    expect(tree.out).toContain(
      '  D-1\tDistrict one\tMAIN\topen\n    F-1\tFacility one, east\tD-1\topen\n',
    );

    const clean = path.join(scratch, `clean-${t.database.engine}.csv`);
    fs.writeFileSync(clean, 'code,name,parent_code\nD-1,District one,MAIN\n');
    expect(await orgUnit('import', '--from', clean)).toMatchObject({
      exitCode: 0,
      out: 'line 2: D-1: unchanged\n0 created, 1 unchanged, 0 refused.\n',
    });
    const headless = path.join(scratch, `headless-${t.database.engine}.csv`);
    fs.writeFileSync(headless, 'D-9,District nine,MAIN\n');
    expect(await orgUnit('import', '--from', headless)).toMatchObject({
      exitCode: 1,
      err: '--from: The first line must name the columns code,name,parent_code.\n',
    });
    expect((await orgUnit('import', '--from', path.join(scratch, 'none.csv'))).err).toContain(
      'cannot be read (ENOENT)',
    );
    expect((await orgUnit('import')).exitCode).toBe(2);
  });

  it('adds users to the units named, MAIN when none is named while it is the only unit', async () => {
    expect(await userAdd('--username', 'only-main', '--role', 'nurse')).toMatchObject({
      exitCode: 0,
      out: 'Created nurse only-main (only-main) in MAIN.\n',
    });
    await orgUnit('add', '--code', 'F-1', '--name', 'Facility one', '--parent', 'MAIN');
    await orgUnit('add', '--code', 'F-2', '--name', 'Facility two', '--parent', 'MAIN');
    const unnamed = await userAdd('--username', 'no-unit', '--role', 'nurse');
    expect(unnamed).toMatchObject({ exitCode: 1 });
    expect(unnamed.err).toContain('units: Name the units the user works in');
    expect(
      await userAdd(
        '--username',
        'two-units',
        '--role',
        'doctor',
        '--unit',
        'f-2',
        '--unit',
        'F-1',
      ),
    ).toMatchObject({ exitCode: 0, out: 'Created doctor two-units (two-units) in F-1, F-2.\n' });
    expect(
      await userAdd('--username', 'nowhere', '--role', 'nurse', '--unit', 'F-9'),
    ).toMatchObject({
      exitCode: 1,
      err: '--unit: No unit has the code F-9.\n',
    });
  });
});
