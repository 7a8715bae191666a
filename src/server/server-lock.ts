import fs from 'node:fs';
import path from 'node:path';

/**
 * A running server over the SQLite database under DATA_DIR leaves its process id in this file
 * while it runs; `triage restore` reads it to tell whether the database is in use.
 */
export function serverLockFile(dataDir: string): string {
  return path.join(dataDir, 'server.pid');
}

/** Writes the lock; returns the function that removes it (only if it is still this process's). */
export function holdServerLock(dataDir: string): () => void {
  const file = serverLockFile(dataDir);
  fs.writeFileSync(file, `${process.pid}\n`);
  return () => {
    if (runningServerPid(dataDir) === process.pid) fs.rmSync(file, { force: true });
  };
}

/**
 * The process id of a server running over DATA_DIR's database, or undefined: no lock file, or one
 * left by a server that has since stopped (a crash leaves it behind; the process is gone).
 */
export function runningServerPid(dataDir: string): number | undefined {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(serverLockFile(dataDir), 'utf8').trim());
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: the process exists but belongs to another user, so it runs.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}
