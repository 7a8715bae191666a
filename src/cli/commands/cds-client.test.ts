import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../server/testing/app.ts';
import { makeSigningKey, signCall, StandInServer } from '../../server/testing/cds-record-system.ts';
import { testDatabases } from '../../server/testing/databases.ts';
import { runCdsClientCommand } from './cds-client.ts';

describe.each(testDatabases())('triage cds-client on $engine', (testDatabase) => {
  let t: TestApp;
  let ehr: StandInServer;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-cds-client-'));
  const write = (name: string, value: unknown) => {
    const file = path.join(folder, name);
    fs.writeFileSync(file, JSON.stringify(value));
    return file;
  };

  beforeAll(async () => {
    t = await openTestApp(testDatabase, { PUBLIC_URL: 'https://triage.example' });
    ehr = new StandInServer();
    await ehr.start();
  });
  afterAll(async () => {
    await ehr.stop();
    await t.close();
  });

  async function run(...args: string[]) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let output = '';
    let errors = '';
    stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    const exitCode = await runCdsClientCommand(args, { stdout, stderr }, (work) => work(t.context));
    return { exitCode, output, errors };
  }

  const audit = () =>
    t.database.db
      .selectFrom('audit_events')
      .select(['action', 'target_id', 'address'])
      .where('action', 'in', ['cds_client_add', 'cds_client_remove'])
      .orderBy('id')
      .execute();

  const callStatus = async (issuer: string, key: Awaited<ReturnType<typeof makeSigningKey>>) => {
    const jwt = await signCall(key, {
      issuer,
      audience: 'https://triage.example/cds-services/chronic-disease-risk',
      now: Math.floor(t.context.now().getTime() / 1000),
    });
    const response = await t.app.inject({
      method: 'POST',
      url: '/cds-services/chronic-disease-risk',
      headers: { authorization: `Bearer ${jwt}` },
      payload: {
        hook: 'patient-view',
        hookInstance: '3f1c7a52-8a4e-4c55-9d0e-6c8b1f2a9e11',
        context: { patientId: 'p1' },
        prefetch: { patient: null, observations: null, conditions: null, familyHistory: null },
      },
    });
    return response.statusCode;
  };

  it('adds a client from a JWK Set file, lists it, and removes it; each audited', async () => {
    const key = await makeSigningKey('ES384', 'file-key');
    const file = write('jwks.json', { keys: [key.publicJwk] });
    const issuer = 'https://ehr.example';
    expect(await callStatus(issuer, key)).toBe(401);

    const added = await run('add', '--issuer', issuer, '--jwks-file', file);
    expect(added.exitCode, added.errors).toBe(0);
    expect(added.output).toContain(`Registered CDS client ${issuer}`);
    expect(await callStatus(issuer, key)).toBe(200);

    const again = await run('add', '--issuer', issuer, '--jwks-file', file);
    expect(again.exitCode).toBe(1);
    expect(again.errors).toContain('already registered');

    const listed = await run('list');
    expect(listed.output.split('\n')).toEqual([
      'issuer\tunit\tkeys\tregistered\tFHIR servers',
      `${issuer}\tMAIN\tstored (1 keys)\t2026-11-22T09:00:00.000Z\tnone`,
      '',
    ]);

    const removed = await run('remove', issuer);
    expect(removed.exitCode, removed.errors).toBe(0);
    expect(await callStatus(issuer, key)).toBe(401);
    expect((await run('remove', issuer)).exitCode).toBe(1);
    expect((await run('list')).output).toBe('issuer\tunit\tkeys\tregistered\tFHIR servers\n');
    expect(await audit()).toEqual([
      { action: 'cds_client_add', target_id: issuer, address: 'command line' },
      { action: 'cds_client_remove', target_id: issuer, address: 'command line' },
    ]);
  });

  it('adds a client whose JWK Set is read from a URL, checked when added', async () => {
    const key = await makeSigningKey('RS384', 'url-key');
    ehr.jwks = { keys: [] };
    const url = `${ehr.origin}/jwks.json`;
    const empty = await run('add', '--issuer', 'https://remote.example', '--jwks-url', url);
    expect(empty.exitCode).toBe(1);
    expect(empty.errors).toContain('no ES384');
    ehr.jwks = { keys: [key.publicJwk] };
    const added = await run('add', '--issuer', 'https://remote.example', '--jwks-url', url);
    expect(added.exitCode, added.errors).toBe(0);
    expect((await run('list')).output).toContain(`https://remote.example\tMAIN\t${url}\t`);
    expect(await callStatus('https://remote.example', key)).toBe(200);
    const insecure = await run(
      'add',
      '--issuer',
      'https://x.example',
      '--jwks-url',
      'http://x.example/jwks',
    );
    expect(insecure.exitCode).toBe(1);
    expect(insecure.errors).toContain('https://');
  });

  it('registers the FHIR servers a client may name, repeatable, and lists them', async () => {
    const key = await makeSigningKey('ES384', 'fhir-key');
    const file = write('fhir-jwks.json', { keys: [key.publicJwk] });
    const issuer = 'https://fhir-ehr.example';
    const added = await run(
      'add',
      '--issuer',
      issuer,
      '--jwks-file',
      file,
      '--fhir-server',
      'https://fhir.clinic.example/r4/',
      '--fhir-server',
      `${ehr.origin}/fhir`,
    );
    expect(added.exitCode, added.errors).toBe(0);
    expect(added.output).toContain(
      `its calls may name FHIR servers under https://fhir.clinic.example/r4, ${ehr.origin}/fhir.`,
    );
    expect((await run('list')).output).toContain(
      `${issuer}\tMAIN\tstored (1 keys)\t2026-11-22T09:00:00.000Z\t${ehr.origin}/fhir https://fhir.clinic.example/r4\n`,
    );
    for (const [url, message] of [
      ['http://fhir.example/r4', 'https://'],
      ['https://user:secret@fhir.example/r4', 'user name'],
      ['https://fhir.example/r4?tenant=1', 'query'],
      ['not a url', 'not a URL'],
    ]) {
      const refused = await run(
        'add',
        '--issuer',
        'https://refused.example',
        '--jwks-file',
        file,
        '--fhir-server',
        url ?? '',
      );
      expect(refused.exitCode, url).toBe(1);
      expect(refused.errors).toContain(message);
    }
    expect((await run('list')).output).not.toContain('https://refused.example');
  });

  it('refuses private keys, symmetric keys, other algorithms and bad usage', async () => {
    const { privateKey } = await generateKeyPair('ES384', { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    const rs256 = { ...(await makeSigningKey('RS384', 'r')).publicJwk, alg: 'RS256' };
    const p256 = await exportJWK((await generateKeyPair('ES256', { extractable: true })).publicKey);
    const cases: Array<[unknown, string]> = [
      [{ keys: [privateJwk] }, 'private or symmetric'],
      [{ keys: [{ kty: 'oct', k: 'c2VjcmV0' }] }, 'private or symmetric'],
      [{ keys: [rs256, p256] }, 'no ES384'],
      [{ keys: [] }, 'no ES384'],
      [[], '"keys" array'],
    ];
    for (const [jwks, message] of cases) {
      const result = await run(
        'add',
        '--issuer',
        'https://bad.example',
        '--jwks-file',
        write('bad.json', jwks),
      );
      expect(result.exitCode, JSON.stringify(jwks)).toBe(1);
      expect(result.errors).toContain(message);
    }
    fs.writeFileSync(path.join(folder, 'text.json'), 'not json');
    expect(
      (
        await run(
          'add',
          '--issuer',
          'https://bad.example',
          '--jwks-file',
          path.join(folder, 'text.json'),
        )
      ).errors,
    ).toContain('not JSON');
    expect((await run('add', '--issuer', 'https://bad.example')).exitCode).toBe(2);
    expect(
      (await run('add', '--issuer', 'x', '--jwks-file', 'a', '--jwks-url', 'b')).exitCode,
    ).toBe(2);
    expect((await run('add', '--nonsense')).exitCode).toBe(2);
    expect((await run('remove')).exitCode).toBe(2);
    expect((await run()).exitCode).toBe(2);
    expect(
      await t.database.db
        .selectFrom('cds_clients')
        .select('issuer')
        .where('issuer', '=', 'https://bad.example')
        .execute(),
    ).toEqual([]);
  });
});
