import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const projectRoot = path.resolve(import.meta.dirname, '../../..');
const node = path.join(projectRoot, 'node_modules/.bin/node');

let scratch: string;
let server: ChildProcess | undefined;
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-shutdown-'));
});
afterEach(() => {
  if (server?.exitCode === null) server.kill('SIGKILL');
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

async function sparePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Starts `triage serve` and resolves once it listens. */
async function startServer(timeoutSeconds: number) {
  const port = await sparePort();
  const child = spawn(node, ['src/cli/main.ts', 'serve'], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH ?? '',
      DATA_DIR: fs.mkdtempSync(path.join(scratch, 'data-')),
      PORT: String(port),
      SHUTDOWN_TIMEOUT_SECONDS: String(timeoutSeconds),
    },
  });
  server = child;
  child.stderr.resume();
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('Server listening')) resolve();
    });
    void exited.then(() => reject(new Error(`the server stopped: ${output}`)));
  });
  return { child, port, exited };
}

const body = JSON.stringify({ username: 'nobody-here', password: 'not the password at all' });

/** A sign-in whose body is half sent: the request is in flight until the rest arrives. */
async function halfSentRequest(port: number) {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.on('connect', resolve));
  let answer = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(
    `POST /api/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
  );
  return {
    finish: () => socket.write(body.slice(10)),
    answer: () => answer,
    closed,
  };
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.on('error', () => resolve(true));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SIGTERM', () => {
  it(
    'stops taking connections, lets a request in flight finish, then exits 0',
    { timeout: 60_000 },
    async () => {
      const { child, port, exited } = await startServer(30);
      const request = await halfSentRequest(port);
      await sleep(200);
      const signalled = Date.now();
      child.kill('SIGTERM');
      await sleep(1_000);
      expect(child.exitCode).toBeNull();
      expect(await refusesConnections(port)).toBe(true);
      request.finish();
      await request.closed;
      expect(request.answer()).toMatch(/^HTTP\/1\.1 401 /);
      // The kept-alive connection is closed once its request is answered, long before the deadline.
      expect(await exited).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(15_000);
    },
  );

  it(
    'closes a request still in flight at SHUTDOWN_TIMEOUT_SECONDS and exits',
    { timeout: 60_000 },
    async () => {
      const { child, port, exited } = await startServer(1);
      const request = await halfSentRequest(port);
      await sleep(200);
      const signalled = Date.now();
      child.kill('SIGTERM');
      await request.closed;
      expect(await exited).toBe(0);
      const took = Date.now() - signalled;
      expect(took).toBeGreaterThanOrEqual(900);
      expect(took).toBeLessThan(5_000);
      expect(request.answer()).toBe('');
    },
  );
});
