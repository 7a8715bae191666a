import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

export const projectRoot = path.resolve(import.meta.dirname, '../../..');
// The project's Node 24 (the system node may be older).
const node = path.join(projectRoot, 'node_modules/.bin/node');

export interface TriageRun {
  /** null when it was still running at the deadline and was killed. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `triage ARGS` as an operator would, in a process of its own with only the given settings,
 * standard input closed, killed at the deadline. `as` runs it as another user (through setpriv).
 */
export async function runTriage(
  args: string[],
  env: Record<string, string> = {},
  options: { deadlineMillis?: number; as?: { uid: number; gid: number } } = {},
): Promise<TriageRun> {
  const command = [node, 'src/cli/main.ts', ...args];
  const [file, ...fileArgs] =
    options.as === undefined
      ? command
      : [
          'setpriv',
          `--reuid=${options.as.uid}`,
          `--regid=${options.as.gid}`,
          '--clear-groups',
          ...command,
        ];
  const child = spawn(file ?? node, fileArgs, {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.deadlineMillis ?? 15_000);
  const exitCode = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  return { exitCode, stdout, stderr };
}

/** A port nothing listens on now (the system picks it, then it is let go). */
export async function sparePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
