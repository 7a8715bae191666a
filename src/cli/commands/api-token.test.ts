import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../server/testing/app.ts';
import { testDatabases } from '../../server/testing/databases.ts';
import { runApiTokenCommand } from './api-token.ts';

describe.each(testDatabases())('triage api-token on $engine', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(testDatabase);
  });
  afterAll(async () => {
    await t.close();
  });

  async function run(...args: string[]) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let output = '';
    let errors = '';
    stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    const exitCode = await runApiTokenCommand(args, { stdout, stderr }, (work) => work(t.context));
    return { exitCode, output, errors };
  }
  const fhirStatus = async (token: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/fhir/Patient/x.patient',
        headers: { authorization: `Bearer ${token}` },
      })
    ).statusCode;

  it('creates a token printed once, lists names and dates only, and revokes it', async () => {
    const created = await run('create', '--name', 'openmrs');
    expect(created.exitCode, created.errors).toBe(0);
    const token = created.output.trim();
    expect(token).toMatch(/^triage_[A-Za-z0-9_-]{43}$/);
    expect(created.errors).toContain('shown this once');
    // The token works on the FHIR API (an unknown Patient is a 404, not a 401).
    expect(await fhirStatus(token)).toBe(404);

    const twice = await run('create', '--name', 'openmrs');
    expect(twice.exitCode).toBe(1);
    expect(twice.errors).toContain('already named openmrs');
    expect((await run('create', '--name', 'no spaces')).exitCode).toBe(1);
    expect((await run('create')).exitCode).toBe(2);

    t.advance(60_000);
    const listed = await run('list');
    expect(listed.exitCode).toBe(0);
    expect(listed.output).not.toContain(token);
    expect(listed.output.split('\n')).toEqual([
      'name\tunit\tcreated\tlast used\trevoked',
      'openmrs\tMAIN\t2026-11-22T09:00:00.000Z\t2026-11-22T09:00:00.000Z\t-',
      '',
    ]);

    const revoked = await run('revoke', 'openmrs');
    expect(revoked.exitCode, revoked.errors).toBe(0);
    expect(await fhirStatus(token)).toBe(401);
    expect((await run('list')).output).toContain(
      'openmrs\tMAIN\t2026-11-22T09:00:00.000Z\t2026-11-22T09:00:00.000Z\t2026-11-22T09:01:00.000Z',
    );
    const again = await run('revoke', 'openmrs');
    expect(again.exitCode).toBe(1);
    expect(again.errors).toContain('No live API token is named openmrs');

    // The name may be given again; the new token is another.
    const renewed = await run('create', '--name', 'openmrs');
    expect(renewed.exitCode).toBe(0);
    expect(renewed.output.trim()).not.toBe(token);
    expect(await fhirStatus(renewed.output.trim())).toBe(404);
    expect(await fhirStatus(token)).toBe(401);

    const audited = await t.database.db
      .selectFrom('audit_events')
      .select(['action', 'target_type', 'target_id', 'user_id', 'address'])
      .where('action', 'in', ['api_token_create', 'api_token_revoke'])
      .orderBy('id')
      .execute();
    expect(audited).toEqual(
      ['api_token_create', 'api_token_revoke', 'api_token_create'].map((action) => ({
        action,
        target_type: 'api_token',
        target_id: 'openmrs',
        user_id: null,
        address: 'command line',
      })),
    );
  });

  it('explains its use when the subcommand is unknown or incomplete', async () => {
    for (const args of [[], ['rotate'], ['revoke'], ['create', '--nmae', 'x']]) {
      const { exitCode, errors } = await run(...args);
      expect(exitCode, args.join(' ')).toBe(2);
      expect(errors).toContain('triage api-token create --name NAME');
    }
  });
});
