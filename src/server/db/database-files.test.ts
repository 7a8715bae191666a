import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, sqliteFileIn, sqliteFilesOf } from './database.ts';
import { DatabaseReplacedError } from './failures.ts';
import { migrateToLatest } from './migrate.ts';

let scratch: string;
beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'triage-db-files-'));
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

const at = '2026-11-28T09:00:00.000Z';
function addUser(id: string) {
  return {
    id,
    username: id,
    display_name: id,
    role: 'nurse' as const,
    password_hash: 'x',
    disabled: false,
    created_at: at,
    updated_at: at,
  };
}

describe('the SQLite files under DATA_DIR', () => {
  it('are for the server user alone: the folder 0700, the database and its -wal and -shm 0600', async () => {
    const dataDir = path.join(scratch, 'new', 'data');
    const database = openDatabase({ dataDir });
    try {
      await migrateToLatest(database);
      await database.transaction((trx) => trx.insertInto('users').values(addUser('u1')).execute());
      expect(modeOf(dataDir)).toBe(0o700);
      const files = sqliteFilesOf(sqliteFileIn(dataDir));
      // All three exist while the database is open in WAL mode.
      expect(files.map(modeOf)).toEqual([0o600, 0o600, 0o600]);
    } finally {
      await database.close();
    }
  });

  it('are narrowed to 0600 when they open, if others could read them', async () => {
    const dataDir = fs.mkdtempSync(path.join(scratch, 'loose-'));
    const file = sqliteFileIn(dataDir);
    const first = openDatabase({ dataDir });
    await migrateToLatest(first);
    await first.close();
    fs.chmodSync(file, 0o644);
    const again = openDatabase({ dataDir });
    try {
      expect(modeOf(file)).toBe(0o600);
      expect(sqliteFilesOf(file).filter(fs.existsSync).map(modeOf)).toEqual(
        sqliteFilesOf(file)
          .filter(fs.existsSync)
          .map(() => 0o600),
      );
    } finally {
      await again.close();
    }
  });
});

describe('a SQLite database whose file is replaced while it is open', () => {
  it('refuses the commit, and every one after, rolling it back', async () => {
    const dataDir = fs.mkdtempSync(path.join(scratch, 'replaced-'));
    const file = sqliteFileIn(dataDir);
    const database = openDatabase({ dataDir });
    try {
      await migrateToLatest(database);
      await database.transaction((trx) =>
        trx.insertInto('users').values(addUser('kept')).execute(),
      );
      expect(database.stillAtItsPath?.()).toBe(true);
      // What a restore does: the open file moves aside and another takes its name.
      for (const each of sqliteFilesOf(file)) {
        if (fs.existsSync(each)) fs.renameSync(each, `${each}.aside`);
      }
      fs.writeFileSync(file, '');
      await expect(
        database.transaction((trx) => trx.insertInto('users').values(addUser('lost')).execute()),
      ).rejects.toThrow(DatabaseReplacedError);
      expect(database.stillAtItsPath?.()).toBe(false);
      // The old file, moved aside, has what was committed before and nothing of the refused one.
      const names = await database.db.selectFrom('users').select('id').execute();
      expect(names.map((row) => row.id)).toEqual(['kept']);
      // Put back, it is still not the file this handle opened.
      fs.rmSync(file);
      fs.renameSync(`${file}.aside`, file);
      expect(database.stillAtItsPath?.()).toBe(false);
    } finally {
      await database.close();
    }
  });
});
