import fs from 'node:fs';
import path from 'node:path';
import { StartupFault } from './startup.ts';

/**
 * A running server over the SQLite database under DATA_DIR leaves its process id in this file
 * while it runs; `triage restore` reads it to tell whether the database is in use.
 */
export function serverLockFile(dataDir: string): string {
  return path.join(dataDir, 'server.pid');
}

/**
 * Takes the lock before the database is opened, or stops the start in one line when another
 * server runs over DATA_DIR: two servers on one SQLite file, or a restore under one of them,
 * would acknowledge saves that one of them then loses. The file is created exclusively, so two
 * starts cannot both take it; one left by a server that has stopped is taken over. Returns the
 * function that removes it, only while it names this process.
 */
export function holdServerLock(dataDir: string): () => void {
  const file = serverLockFile(dataDir);
  for (let attempt = 0; ; attempt += 1) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
    }
    const pid = runningServerPid(dataDir);
    // A file naming this very process was left by an earlier one that had the same id (a
    // container restarted): it is stale too.
    if (pid !== undefined && pid !== process.pid) {
      throw new StartupFault(
        'DATA_DIR',
        `Cannot start: another server (process ${pid}) runs over DATA_DIR ${dataDir} (${file}); stop it first, or give this one another DATA_DIR`,
      );
    }
    fs.rmSync(file, { force: true });
  }
  return () => {
    if (lockPid(file) === process.pid) fs.rmSync(file, { force: true });
  };
}

function lockPid(file: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The process id of a server running over DATA_DIR's database, or undefined: no lock file, or one
 * left by a server that has since stopped (a crash leaves it behind; the process is gone).
 */
export function runningServerPid(dataDir: string): number | undefined {
  const pid = lockPid(serverLockFile(dataDir));
  if (pid === undefined) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: the process exists but belongs to another user, so it runs.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}
