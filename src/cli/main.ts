import { runCommandLine } from './command-line.ts';

const code = await runCommandLine(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
if (code !== 0) process.exitCode = code;
