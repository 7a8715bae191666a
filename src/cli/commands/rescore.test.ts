import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULE_SETS } from '../../engine/index.ts';
import type { Assessment } from '../../shared/api/assessments.ts';
import { openDatabase } from '../../server/db/database.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { openTestApp } from '../../server/testing/app.ts';
import { signedInAs } from '../../server/testing/users.ts';
import { runRescoreCommand } from './rescore.ts';

async function run(args: string[], env: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let output = '';
  let errors = '';
  stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  stderr.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const exitCode = await runRescoreCommand(
    args,
    { stdout, stderr },
    { LOG_LEVEL: 'silent', ...env },
  );
  return { exitCode, output, errors };
}

describe('triage rescore', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-rescore-'));
  const version = RULE_SETS.at(-1)?.version ?? '';
  /** The API's answer for the same database, version and dates. */
  let apiAnswer: unknown;

  beforeAll(async () => {
    const t = await openTestApp(
      {
        engine: 'sqlite',
        async open() {
          const handle = openDatabase({ dataDir });
          await migrateToLatest(handle);
          return handle;
        },
      },
      { DATA_DIR: dataDir },
    );
    try {
      const nurse = await signedInAs(t, 'nurse');
      const doctor = await signedInAs(t, 'doctor');
      for (const age of [30, 45, 60]) {
        const saved = await t.app.inject({
          method: 'POST',
          url: '/api/assessments',
          headers: { cookie: nurse.cookie },
          payload: {
            demographics: { age, gender: 'Female', height: 160, weight: 80 },
            symptoms: { DM2: { fatigue: { present: true, severity: 'severe' } } },
          },
        });
        expect(saved.statusCode, saved.body).toBe(201);
        const locked = await t.app.inject({
          method: 'POST',
          url: `/api/assessments/${saved.json<Assessment>().id}/review/lock`,
          headers: { cookie: doctor.cookie },
          payload: { reviews: [{ condition: 'DM2', agreed: true, comments: '' }] },
        });
        expect(locked.statusCode, locked.body).toBe(200);
      }
      const answer = await t.app.inject({
        method: 'POST',
        url: `/api/rule-sets/${version}/impact`,
        headers: { cookie: doctor.cookie },
        payload: { from: '2026-11-01' },
      });
      expect(answer.statusCode, answer.body).toBe(200);
      apiAnswer = answer.json();
    } finally {
      await t.close();
    }
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('--json prints exactly the API’s object on stdout, progress on stderr', async () => {
    const { exitCode, output, errors } = await run(
      ['--rule-set', version, '--from', '2026-11-01', '--json'],
      { DATA_DIR: dataDir },
    );
    expect(exitCode).toBe(0);
    expect(output.endsWith('\n')).toBe(true);
    expect(JSON.parse(output)).toEqual(apiAnswer);
    expect(apiAnswer).toMatchObject({ version, assessments: 3, from: '2026-11-01', to: null });
    expect(errors).toContain('Re-scored 3 of 3 assessments');
  });

  it('prints a table per condition without --json', async () => {
    const { exitCode, output } = await run(['--rule-set', version], { DATA_DIR: dataDir });
    expect(exitCode).toBe(0);
    expect(output).toContain(`Rule set ${version}:`);
    expect(output).toContain('3 live assessments re-scored (all dates)');
    expect(output).toMatch(/Type 2 Diabetes \(DM2\): \d+ change status/);
    expect(output).toMatch(/Stored rules: 3 of 3 reviews agree \(100\.0%\), kappa - over 3/);
    expect(output).toContain('Hyperlipidaemia (Hyperlipidaemia)');
  });

  it.each([
    [['--rule-set', '9.9'], 'There is no rule set version 9.9. Known versions: 2.0'],
    [[], '--rule-set VERSION is required'],
    [['--rule-set', '2.0', '--from', '2026-02-30'], '--from: '],
    [['--rule-set', '2.0', '--to', 'tomorrow'], '--to: '],
    [['--rule-set', '2.0', '--from', '2026-11-02', '--to', '2026-11-01'], '--to: Must not be'],
    [['--rule-set', '2.0', '--verbose'], "Unknown option '--verbose'"],
  ])('refuses %j with a clear message and exit code 2', async (args, message) => {
    // No database is named: a refusal comes before one would be opened.
    const { exitCode, output, errors } = await run(args, { DATA_DIR: '/nonexistent/triage' });
    expect(exitCode).toBe(2);
    expect(output).toBe('');
    expect(errors).toContain(message);
    expect(errors).toContain('Usage: triage rescore');
  });
});
