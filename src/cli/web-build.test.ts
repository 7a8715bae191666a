import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildWebIfNeeded, sourceHashFile, webSourcesHash } from './web-build.ts';

let root: string;
let webRoot: string;
let builds: number;

function write(relative: string, content: string): void {
  fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
  fs.writeFileSync(path.join(root, relative), content);
}

/** A build that writes what vite would leave: an index.html in the web root. */
async function build(): Promise<void> {
  builds += 1;
  fs.mkdirSync(webRoot, { recursive: true });
  fs.writeFileSync(path.join(webRoot, 'index.html'), `<html>build ${builds}</html>`);
}

function start() {
  return buildWebIfNeeded({ root, webRoot, build, say: () => undefined });
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-web-build-'));
  webRoot = path.join(root, 'dist/web');
  builds = 0;
  write('src/web/index.html', '<div id="root"></div>');
  write('src/web/main.tsx', 'render();');
  write('src/shared/texts.ts', "export const title = 'Triage';");
  write('src/engine/score.ts', 'export const weight = 0.25;');
  write('vite.config.ts', 'export default {};');
  write('package-lock.json', '{}');
  write('src/server/app.ts', 'server();');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('npm start builds the web app when it is missing or its sources changed', () => {
  it('builds on the first start and writes the sources hash beside the build', async () => {
    expect(await start()).toBe('missing');
    expect(builds).toBe(1);
    expect(fs.readFileSync(sourceHashFile(webRoot), 'utf8').trim()).toBe(webSourcesHash(root));
  });

  it('does not build again while the sources are those built', async () => {
    await start();
    expect(await start()).toBeUndefined();
    expect(builds).toBe(1);
  });

  it.each([
    'src/web/main.tsx',
    'src/web/index.html',
    'src/shared/texts.ts',
    'src/engine/score.ts',
    'vite.config.ts',
    'package-lock.json',
  ])('rebuilds after an upgrade changes %s', async (source) => {
    await start();
    write(source, `${fs.readFileSync(path.join(root, source), 'utf8')}\n// upgraded`);
    expect(await start()).toBe('changed');
    expect(builds).toBe(2);
    expect(fs.readFileSync(path.join(webRoot, 'index.html'), 'utf8')).toContain('build 2');
    expect(await start()).toBeUndefined();
  });

  it('rebuilds after an upgrade adds a web source file', async () => {
    await start();
    write('src/web/pages/NewPage.tsx', 'export {};');
    expect(await start()).toBe('changed');
  });

  it('rebuilds a build that has no sources hash (made by an older version)', async () => {
    await build();
    expect(await start()).toBe('changed');
    expect(builds).toBe(2);
  });

  it('does not rebuild for a change outside the web sources', async () => {
    await start();
    write('src/server/app.ts', 'server(); // changed');
    expect(await start()).toBeUndefined();
  });
});
