import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orgUnitsRepository } from '../../server/db/repositories/org-units.ts';
import { closeOrgUnit, createOrgUnit } from '../../server/services/org-units.ts';
import { openTestApp, type TestApp } from '../../server/testing/app.ts';
import { makeSigningKey } from '../../server/testing/cds-record-system.ts';
import { testDatabases } from '../../server/testing/databases.ts';
import { runApiTokenCommand } from './api-token.ts';
import { runCdsClientCommand } from './cds-client.ts';
import { runFhirClientCommand } from './fhir-client.ts';

type Command = typeof runApiTokenCommand;

/** API tokens, CDS clients and FHIR clients are registered for a unit, named by --unit CODE. */
describe.each(testDatabases())(
  'the --unit of triage api-token, cds-client and fhir-client on $engine',
  (testDatabase) => {
    let t: TestApp;
    let jwksFile: string;
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-client-units-'));

    beforeAll(async () => {
      t = await openTestApp(testDatabase);
      jwksFile = path.join(folder, 'jwks.json');
      const key = await makeSigningKey('ES384', 'k1');
      fs.writeFileSync(jwksFile, JSON.stringify({ keys: [key.publicJwk] }));
    });
    afterAll(async () => {
      await t.close();
    });

    async function run(command: Command, ...args: string[]) {
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      let output = '';
      let errors = '';
      stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
      const exitCode = await command(args, { stdout, stderr }, (work) => work(t.context));
      return { exitCode, output, errors };
    }

    /** The `add`/`create` of each command for a name, with the options given. */
    const adds: Array<
      [string, (name: string, ...options: string[]) => Promise<Awaited<ReturnType<typeof run>>>]
    > = [
      [
        'api-token',
        (name, ...options) => run(runApiTokenCommand, 'create', '--name', name, ...options),
      ],
      [
        'cds-client',
        (name, ...options) =>
          run(
            runCdsClientCommand,
            'add',
            '--issuer',
            `https://${name}.example`,
            '--jwks-file',
            jwksFile,
            ...options,
          ),
      ],
      [
        'fhir-client',
        (name, ...options) =>
          run(
            runFhirClientCommand,
            'add',
            '--client-id',
            name,
            '--jwks-file',
            jwksFile,
            '--scope',
            'system/*.rs',
            ...options,
          ),
      ],
    ];

    const unitOf = async (table: 'api_tokens' | 'cds_clients' | 'fhir_clients', id: string) => {
      const column =
        table === 'api_tokens' ? 'name' : table === 'cds_clients' ? 'issuer' : 'client_id';
      const { rows } = await sql<{ code: string }>`select org_units.code from ${sql.table(table)}
      join org_units on org_units.id = ${sql.ref(`${table}.org_unit_id`)}
      where ${sql.ref(`${table}.${column}`)} = ${id}`.execute(t.database.db);
      return rows.map((row) => row.code);
    };

    it('takes the one unit when --unit is left out while the tree has one, else requires it', async () => {
      for (const [, add] of adds) {
        const added = await add('only-one');
        expect(added.exitCode, added.errors).toBe(0);
      }
      expect(await unitOf('api_tokens', 'only-one')).toEqual(['MAIN']);
      expect(await unitOf('cds_clients', 'https://only-one.example')).toEqual(['MAIN']);
      expect(await unitOf('fhir_clients', 'only-one')).toEqual(['MAIN']);

      const operator = { user: null, address: 'command line' };
      const main = await orgUnitsRepository.findMain(t.database.db);
      const district = await createOrgUnit(t.context, operator, {
        code: 'D1',
        name: 'District',
        parentId: main?.id ?? null,
      });
      await createOrgUnit(t.context, operator, {
        code: 'Fac-A',
        name: 'Facility A',
        parentId: district.id,
      });
      const closed = await createOrgUnit(t.context, operator, {
        code: 'OLD',
        name: 'Old clinic',
        parentId: district.id,
      });
      await closeOrgUnit(t.context, operator, closed.id, undefined);

      for (const [command, add] of adds) {
        const omitted = await add(`omitted-${command}`);
        expect(omitted.exitCode, command).toBe(1);
        expect(omitted.errors, command).toBe(
          '--unit: The unit is required: there are 4 units; name the one whose records it reaches (and those below) by its code.\n',
        );
        const unknown = await add(`unknown-${command}`, '--unit', 'NOWHERE');
        expect(unknown.exitCode, command).toBe(1);
        expect(unknown.errors, command).toBe('--unit: No unit has the code NOWHERE.\n');
        const refused = await add(`closed-${command}`, '--unit', 'old');
        expect(refused.exitCode, command).toBe(1);
        expect(refused.errors, command).toBe(
          '--unit: The unit OLD (Old clinic) is closed: it takes no new tokens or clients.\n',
        );
        const missing = await add(`missing-${command}`, '--unit');
        expect(missing.exitCode, command).toBe(2);

        // The code is compared without case.
        const added = await add(`facility-${command}`, '--unit', 'fac-a');
        expect(added.exitCode, added.errors).toBe(0);
      }
      expect(await unitOf('api_tokens', 'facility-api-token')).toEqual(['Fac-A']);
      expect(await unitOf('cds_clients', 'https://facility-cds-client.example')).toEqual(['Fac-A']);
      expect(await unitOf('fhir_clients', 'facility-fhir-client')).toEqual(['Fac-A']);
      // Nothing refused was registered.
      for (const table of ['api_tokens', 'cds_clients', 'fhir_clients'] as const) {
        expect(await t.database.db.selectFrom(table).selectAll().execute(), table).toHaveLength(2);
      }

      // The lists show each one's unit.
      const tokens = (await run(runApiTokenCommand, 'list')).output;
      expect(tokens).toMatch(/^only-one\tMAIN\t/m);
      expect(tokens).toMatch(/^facility-api-token\tFac-A\t/m);
      const cds = (await run(runCdsClientCommand, 'list')).output;
      expect(cds).toMatch(/^https:\/\/only-one\.example\tMAIN\t/m);
      expect(cds).toMatch(/^https:\/\/facility-cds-client\.example\tFac-A\t/m);
      const fhir = (await run(runFhirClientCommand, 'list')).output;
      expect(fhir).toMatch(/^only-one\tMAIN\t/m);
      expect(fhir).toMatch(/^facility-fhir-client\tFac-A\t/m);

      // The audit rows name the unit.
      const audited = await t.database.db
        .selectFrom('audit_events')
        .select(['action', 'target_id', 'detail'])
        .where('action', 'in', ['api_token_create', 'cds_client_add', 'fhir_client_add'])
        .orderBy('id')
        .execute();
      expect(audited).toEqual([
        { action: 'api_token_create', target_id: 'only-one', detail: 'unit MAIN' },
        { action: 'cds_client_add', target_id: 'https://only-one.example', detail: 'unit MAIN' },
        { action: 'fhir_client_add', target_id: 'only-one', detail: 'unit MAIN; system/*.rs' },
        { action: 'api_token_create', target_id: 'facility-api-token', detail: 'unit Fac-A' },
        {
          action: 'cds_client_add',
          target_id: 'https://facility-cds-client.example',
          detail: 'unit Fac-A',
        },
        {
          action: 'fhir_client_add',
          target_id: 'facility-fhir-client',
          detail: 'unit Fac-A; system/*.rs',
        },
      ]);
    });
  },
);
