import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../app.ts';
import { openTestApp, type TestApp } from '../testing/app.ts';
import { testDatabases } from '../testing/databases.ts';
import { signedInAs } from '../testing/users.ts';
import { redactClientText } from './client-errors.ts';

const report = {
  errorId: 'ERR-MI4Z1K2P',
  message: "Cannot read properties of undefined (reading 'bmi') for patient aged 62, 80 kg",
  context: 'render /assessments/new',
  recovered: false,
};

describe('redactClientText', () => {
  it('masks every digit and keeps only the start of a long text', () => {
    expect(redactClientText('age 62, weight 80.5')).toBe('age ##, weight ##.#');
    expect(redactClientText('x'.repeat(300))).toBe(`${'x'.repeat(200)}…`);
  });
});

describe.each(testDatabases())('the client error log API on $engine', (testDatabase) => {
  let t: TestApp;
  let nurse: { cookie: string };
  /** The same application with a logger that writes into `logLines`. */
  let logged: FastifyInstance;
  const logLines: string[] = [];

  beforeAll(async () => {
    t = await openTestApp(testDatabase);
    nurse = await signedInAs(t, 'nurse');
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString('utf8'));
        done();
      },
    });
    logged = await buildApp({
      context: t.context,
      logger: { ...loggerOptions('warn'), stream },
      webRoot: '/nonexistent',
    });
    await logged.ready();
  });
  afterAll(async () => {
    await logged.close();
    await t.close();
  });

  const post = (app: FastifyInstance, payload: object, cookie: string | undefined) =>
    app.inject({
      method: 'POST',
      url: '/api/client-errors',
      headers: cookie === undefined ? {} : { cookie },
      payload,
    });

  it('accepts a report from any signed-in user with 204', async () => {
    const response = await post(t.app, report, nurse.cookie);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
  });

  it('needs a session, like every other route', async () => {
    const response = await post(t.app, report, undefined);
    expect(response.statusCode).toBe(401);
  });

  it('refuses a message over 500 characters, a long context and a made-up id with 400', async () => {
    const longMessage = await post(t.app, { ...report, message: 'x'.repeat(501) }, nurse.cookie);
    expect(longMessage.statusCode).toBe(400);
    expect(longMessage.json<{ error: { field: string } }>().error.field).toBe('message');
    expect(
      (await post(t.app, { ...report, message: 'x'.repeat(500) }, nurse.cookie)).statusCode,
    ).toBe(204);
    expect(
      (await post(t.app, { ...report, context: 'y'.repeat(201) }, nurse.cookie)).statusCode,
    ).toBe(400);
    expect(
      (await post(t.app, { ...report, errorId: 'ERR-1\nforged line' }, nurse.cookie)).statusCode,
    ).toBe(400);
  });

  it('logs a warning with the error id and the masked message, and no patient numbers', async () => {
    logLines.length = 0;
    expect((await post(logged, report, nurse.cookie)).statusCode).toBe(204);
    const entries = logLines.map(
      (line) => JSON.parse(line) as { level: number; msg: string; clientError?: unknown },
    );
    const entry = entries.find((e) => e.msg === 'client error reported');
    expect(entry?.level).toBe(40);
    expect(entry?.clientError).toEqual({
      errorId: 'ERR-MI4Z1K2P',
      message: "Cannot read properties of undefined (reading 'bmi') for patient aged ##, ## kg",
      context: 'render /assessments/new',
      recovered: false,
    });
    expect(logLines.join('')).not.toMatch(/aged 62|80 kg/);
  });
});
