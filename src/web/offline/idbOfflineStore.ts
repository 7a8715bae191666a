import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { Sealed, WrappedKey } from './outboxCrypto.ts';
import type { OfflineStore, StoredEntry } from './outbox.ts';

interface OfflineDatabase extends DBSchema {
  /**
   * Each user's outbox key as version 1 kept it: a CryptoKey object, unwrapped. Read only to move
   * its entries under a wrapped key at the user's next sign-in, then deleted.
   */
  keys: { key: string; value: CryptoKey };
  /** Each user's outbox key, wrapped under their password. */
  wrappedKeys: { key: string; value: WrappedKey };
  outbox: {
    key: number;
    value: { id?: number; userId: string; sealed: Sealed };
    indexes: { byUser: string };
  };
  /** Each user's kept patient records, sealed together under their outbox key. */
  patients: { key: string; value: Sealed };
}

let database: Promise<IDBPDatabase<OfflineDatabase>> | null = null;

function open(): Promise<IDBPDatabase<OfflineDatabase>> {
  database ??= openDB<OfflineDatabase>('triage-offline', 2, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore('keys');
        const outbox = db.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true });
        outbox.createIndex('byUser', 'userId');
      }
      if (oldVersion < 2) {
        db.createObjectStore('wrappedKeys');
        db.createObjectStore('patients');
      }
    },
  });
  return database;
}

/** What is kept offline, in the browser's IndexedDB, which outlives a reload and a closed tab. */
export const idbOfflineStore: OfflineStore = {
  async wrappedKey(userId) {
    return (await open()).get('wrappedKeys', userId);
  },
  async saveWrappedKey(userId, wrapped) {
    await (await open()).put('wrappedKeys', wrapped, userId);
  },
  async legacyKey(userId) {
    return (await open()).get('keys', userId);
  },
  async removeLegacyKey(userId) {
    await (await open()).delete('keys', userId);
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
  async patients(userId) {
    return (await open()).get('patients', userId);
  },
  async savePatients(userId, sealed) {
    await (await open()).put('patients', sealed, userId);
  },
};
