import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { buildApp } from './app.ts';
import { openTestApp, testPasswordCost, type TestApp } from './testing/app.ts';
import { testDatabases } from './testing/databases.ts';

describe.each(testDatabases())('the app on $engine', (testDatabase) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(testDatabase);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers health without a session, naming its database', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ok',
      database: testDatabase.engine,
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/) as unknown,
    });
  });

  it('answers unknown API routes with a 404 envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/no-such-route' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: 'not_found', message: 'Not found' } });
  });

  it('publishes an OpenAPI 3 document and a browsable page of it', async () => {
    const document = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(document.statusCode).toBe(200);
    const body = document.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(body.openapi).toMatch(/^3\./);
    expect(Object.keys(body.paths)).toContain('/api/health');
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
  });
});

describe('request validation', () => {
  let t: TestApp;
  beforeAll(async () => {
    const [sqlite] = testDatabases();
    t = await openTestApp(sqlite!);
  });
  afterAll(async () => {
    await t.close();
  });

  // A probe route stands in for the product's routes, which all share this error handling.
  it('turns malformed JSON, schema failures and crashes into the one envelope', async () => {
    const app = await buildApp({
      context: {
        config: t.config,
        database: t.database,
        now: () => new Date(),
        passwordCost: testPasswordCost,
      },
      logger: false,
      webRoot: '/nonexistent',
    });
    app.withTypeProvider<ZodTypeProvider>().post(
      '/api/probe',
      {
        config: { access: 'public' },
        schema: { body: z.object({ demographics: z.object({ age: z.number().max(120) }) }) },
      },
      (request) => {
        if (request.body.demographics.age === 13) throw new Error('secret internals');
        return { ok: true };
      },
    );
    await app.ready();
    const post = (payload: string) =>
      app.inject({
        method: 'POST',
        url: '/api/probe',
        payload,
        headers: { 'content-type': 'application/json' },
      });

    const malformed = await post('{"demographics":');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ error: { code: 'invalid_json' } });

    const invalid = await post('{"demographics":{"age":130}}');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({
      error: { code: 'validation_failed', field: 'demographics.age' },
    });

    const crash = await post('{"demographics":{"age":13}}');
    expect(crash.statusCode).toBe(500);
    expect(crash.body).not.toContain('secret internals');
    expect(crash.body).not.toContain('at ');
    expect(crash.json()).toMatchObject({ error: { code: 'internal' } });

    expect((await post('{"demographics":{"age":40}}')).json()).toEqual({ ok: true });
    await app.close();
  });
});

describe('the built web app', () => {
  let t: TestApp;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-web-'));
  const script = 'console.log("the app");'.repeat(50);
  beforeAll(async () => {
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>app</title>');
    fs.writeFileSync(path.join(webRoot, 'index.html.gz'), zlib.gzipSync('<!doctype html>'));
    fs.writeFileSync(path.join(webRoot, 'assets/main-4f2a.js'), script);
    fs.writeFileSync(path.join(webRoot, 'assets/main-4f2a.js.br'), zlib.brotliCompressSync(script));
    fs.writeFileSync(path.join(webRoot, 'assets/main-4f2a.js.gz'), zlib.gzipSync(script));
    const [sqlite] = testDatabases();
    t = await openTestApp(sqlite!);
    app = await buildApp({ context: t.context, logger: false, webRoot });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await t.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  it('sends the compressed copy a browser accepts, and caches hashed assets for good', async () => {
    const brotli = await app.inject({
      method: 'GET',
      url: '/assets/main-4f2a.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(brotli.rawPayload).toString()).toBe(script);
    expect(brotli.headers['content-type']).toContain('javascript');
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const plain = await app.inject({ method: 'GET', url: '/assets/main-4f2a.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);

    const page = await app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.headers['cache-control']).not.toContain('immutable');
  });
});
