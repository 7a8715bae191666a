import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeSqliteDatabase } from './sqlite-adapter.ts';

describe('a SQLite connection', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes ahead, syncs every commit, checks foreign keys, keeps temporary storage in memory and caches 64 MiB of pages, each time the file is opened', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-sqlite-'));
    dirs.push(dir);
    const file = path.join(dir, 'triage.sqlite');
    for (let opening = 0; opening < 2; opening++) {
      const db = new NodeSqliteDatabase(file);
      expect(db.pragma('journal_mode')).toEqual({ journal_mode: 'wal' });
      expect(db.pragma('synchronous')).toEqual({ synchronous: 2 });
      expect(db.pragma('foreign_keys')).toEqual({ foreign_keys: 1 });
      expect(db.pragma('temp_store')).toEqual({ temp_store: 2 });
      expect(db.pragma('cache_size')).toEqual({ cache_size: -65536 });
      db.close();
    }
  });
});
