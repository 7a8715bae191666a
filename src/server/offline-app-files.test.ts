import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { openTestApp, type TestApp } from './testing/app.ts';
import { testDatabases } from './testing/databases.ts';

/** The files that make the web app installable and usable offline (vite-plugin-pwa's output). */
describe('the offline app files', () => {
  let t: TestApp;
  let app: Awaited<ReturnType<typeof buildApp>>;
  const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-web-'));
  beforeAll(async () => {
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>app</title>');
    fs.writeFileSync(path.join(webRoot, 'sw.js'), 'self.skipWaiting;');
    fs.writeFileSync(path.join(webRoot, 'manifest.webmanifest'), '{"name":"app"}');
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

  it('serves the service worker as a script the browser checks again on every visit', async () => {
    const worker = await app.inject({ method: 'GET', url: '/sw.js' });
    expect(worker.statusCode).toBe(200);
    expect(worker.headers['content-type']).toContain('javascript');
    // A long cache would keep an old worker, and with it an old app, past a release.
    expect(worker.headers['cache-control']).toMatch(/max-age=0|no-cache|no-store/);
    expect(worker.headers['cache-control']).not.toContain('immutable');
  });

  it('serves the web manifest with its media type', async () => {
    const manifest = await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toContain('application/manifest+json');
  });
});
