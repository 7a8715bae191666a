import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Sealed } from './outboxCrypto.ts';
import type { OutboxStore, StoredEntry } from './outbox.ts';

interface OfflineDatabase extends DBSchema {
  /** Each user's outbox key: a CryptoKey object, which cannot be exported. */
  keys: { key: string; value: CryptoKey };
  outbox: {
    key: number;
    value: { id?: number; userId: string; sealed: Sealed };
    indexes: { byUser: string };
  };
}

let database: Promise<IDBPDatabase<OfflineDatabase>> | null = null;

function open(): Promise<IDBPDatabase<OfflineDatabase>> {
  database ??= openDB<OfflineDatabase>('triage-offline', 1, {
    upgrade(db) {
      db.createObjectStore('keys');
      const outbox = db.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true });
      outbox.createIndex('byUser', 'userId');
    },
  });
  return database;
}

/** The outbox in the browser's IndexedDB, which outlives a reload and a closed tab. */
export const idbOutboxStore: OutboxStore = {
  async key(userId) {
    return (await open()).get('keys', userId);
  },
  async saveKey(userId, key) {
    await (await open()).put('keys', key, userId);
  },
  async entries(userId) {
    const rows = await (await open()).getAllFromIndex('outbox', 'byUser', userId);
    // The index orders by user then by id: the order the entries were added.
    return rows.flatMap((row) => (row.id === undefined ? [] : [row as StoredEntry]));
  },
  async add(userId, sealed) {
    return (await open()).add('outbox', { userId, sealed });
  },
  async replace(entry) {
    await (await open()).put('outbox', entry);
  },
  async remove(id) {
    await (await open()).delete('outbox', id);
  },
};
