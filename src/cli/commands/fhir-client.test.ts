import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestApp } from '../../server/testing/app.ts';
import {
  makeSigningKey,
  StandInServer,
  type SigningKey,
} from '../../server/testing/cds-record-system.ts';
import { testDatabases } from '../../server/testing/databases.ts';
import { runFhirClientCommand } from './fhir-client.ts';

describe.each(testDatabases())('triage fhir-client on $engine', (testDatabase) => {
  let t: TestApp;
  let keyServer: StandInServer;
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-fhir-client-'));
  const write = (name: string, value: unknown) => {
    const file = path.join(folder, name);
    fs.writeFileSync(file, JSON.stringify(value));
    return file;
  };

  beforeAll(async () => {
    t = await openTestApp(testDatabase, { PUBLIC_URL: 'https://triage.example' });
    keyServer = new StandInServer();
    await keyServer.start();
  });
  afterAll(async () => {
    await keyServer.stop();
    await t.close();
  });

  async function run(...args: string[]) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let output = '';
    let errors = '';
    stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
    const exitCode = await runFhirClientCommand(args, { stdout, stderr }, (work) =>
      work(t.context),
    );
    return { exitCode, output, errors };
  }

  /** The status of a token request signed by the key for that client id. */
  const tokenStatus = async (key: SigningKey, clientId: string, scope: string) => {
    const now = Math.floor(t.context.now().getTime() / 1000);
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: key.alg, kid: key.kid })
      .setIssuer(clientId)
      .setSubject(clientId)
      .setAudience('https://triage.example/api/oauth/token')
      .setExpirationTime(now + 120)
      .setJti(crypto.randomUUID())
      .sign(key.privateKey);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
        scope,
      }).toString(),
    });
    return response.statusCode;
  };

  it('adds a client from a JWK Set file, lists it, and removes it; each audited', async () => {
    const key = await makeSigningKey('RS384', 'file-key');
    const file = write('jwks.json', { keys: [key.publicJwk] });
    expect(await tokenStatus(key, 'warehouse', 'system/Patient.rs')).toBe(401);

    const added = await run(
      'add',
      '--client-id',
      'warehouse',
      '--jwks-file',
      file,
      '--scope',
      'system/RiskAssessment.rs system/Patient.read',
    );
    expect(added.exitCode, added.errors).toBe(0);
    expect(added.output).toBe(
      'Registered FHIR client warehouse for MAIN: it reads the records of MAIN and the units below it; its JWK Set is stored; it may be granted system/RiskAssessment.rs system/Patient.rs.\n',
    );
    expect(await tokenStatus(key, 'warehouse', 'system/Patient.rs')).toBe(200);
    expect(await tokenStatus(key, 'warehouse', 'system/Observation.rs')).toBe(400);

    const again = await run(
      'add',
      '--client-id',
      'warehouse',
      '--jwks-file',
      file,
      '--scope',
      'system/*.rs',
    );
    expect(again.exitCode).toBe(1);
    expect(again.errors).toContain('already registered');

    expect((await run('list')).output.split('\n')).toEqual([
      'client id\tunit\tkeys\tscopes\tregistered',
      'warehouse\tMAIN\tstored (1 keys)\tsystem/RiskAssessment.rs system/Patient.rs\t2026-11-22T09:00:00.000Z',
      '',
    ]);

    const removed = await run('remove', 'warehouse');
    expect(removed.exitCode, removed.errors).toBe(0);
    expect(await tokenStatus(key, 'warehouse', 'system/Patient.rs')).toBe(401);
    expect((await run('remove', 'warehouse')).exitCode).toBe(1);
    expect((await run('list')).output).toBe('client id\tunit\tkeys\tscopes\tregistered\n');
    expect(
      await t.database.db
        .selectFrom('audit_events')
        .select(['action', 'target_id', 'address'])
        .where('action', 'in', ['fhir_client_add', 'fhir_client_remove'])
        .orderBy('id')
        .execute(),
    ).toEqual([
      { action: 'fhir_client_add', target_id: 'warehouse', address: 'command line' },
      { action: 'fhir_client_remove', target_id: 'warehouse', address: 'command line' },
    ]);
  });

  it('adds a client whose JWK Set is read from a URL, checked when added', async () => {
    const key = await makeSigningKey('ES384', 'url-key');
    const url = `${keyServer.origin}/jwks.json`;
    keyServer.jwks = { keys: [] };
    const args = ['add', '--client-id', 'registry', '--jwks-url', url, '--scope', 'system/*.rs'];
    const empty = await run(...args);
    expect(empty.exitCode).toBe(1);
    expect(empty.errors).toContain('no ES384');
    keyServer.jwks = { keys: [key.publicJwk] };
    const added = await run(...args);
    expect(added.exitCode, added.errors).toBe(0);
    expect((await run('list')).output).toContain(`registry\tMAIN\t${url}\tsystem/*.rs\t`);
    expect(await tokenStatus(key, 'registry', 'system/Condition.rs')).toBe(200);
  });

  it('refuses private keys, scopes it does not grant, and bad usage', async () => {
    const privateJwk = await exportJWK(
      (await generateKeyPair('ES384', { extractable: true })).privateKey,
    );
    const publicKey = (await makeSigningKey('RS384', 'k')).publicJwk;
    const good = write('good.json', { keys: [publicKey] });
    const refusals: Array<[string[], string]> = [
      [
        ['--jwks-file', write('private.json', { keys: [privateJwk] }), '--scope', 'system/*.rs'],
        'private or symmetric',
      ],
      [['--jwks-file', good, '--scope', 'system/Patient.cruds'], 'not a system read scope'],
      [['--jwks-file', good, '--scope', 'patient/*.rs'], 'not a system read scope'],
      [['--jwks-file', good, '--scope', ' '], 'No scope'],
    ];
    for (const [options, message] of refusals) {
      const result = await run('add', '--client-id', 'bad', ...options);
      expect(result.exitCode, options.join(' ')).toBe(1);
      expect(result.errors).toContain(message);
    }
    const badId = await run(
      'add',
      '--client-id',
      'a b',
      '--jwks-file',
      good,
      '--scope',
      'system/*.rs',
    );
    expect(badId.exitCode).toBe(1);
    expect(badId.errors).toContain('client id');

    for (const args of [
      ['add', '--client-id', 'x', '--scope', 'system/*.rs'],
      [
        'add',
        '--client-id',
        'x',
        '--jwks-file',
        good,
        '--jwks-url',
        'https://x.example',
        '--scope',
        'system/*.rs',
      ],
      ['add', '--client-id', 'x', '--jwks-file', good],
      ['add', '--client-id', 'x', '--jwks-file', good, '--scope', 'system/*.rs', '--unit'],
      ['add', '--client-id', 'x', '--jwks-file', good, '--scope', 'system/*.rs', '--units', 'C1'],
      ['list', 'extra'],
      ['remove'],
      ['remove', '--force', 'x'],
      ['rename', 'x'],
    ]) {
      const result = await run(...args);
      expect(result.exitCode, args.join(' ')).toBe(2);
      expect(result.errors).toContain('Usage:');
    }
    expect((await run('list')).output).not.toContain('bad');
  });
});
