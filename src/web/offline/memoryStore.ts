import type { OfflineStore, StoredEntry } from './outbox.ts';
import type { Sealed, WrappedKey } from './outboxCrypto.ts';

// For tests: what the browser keeps in IndexedDB, in memory, with its maps open to inspection.

/** The store behind the same interface as IndexedDB's, in memory. */
export function memoryStore(): OfflineStore & {
  rows: Map<number, StoredEntry>;
  wrapped: Map<string, WrappedKey>;
  legacy: Map<string, CryptoKey>;
  patientRows: Map<string, Sealed>;
} {
  const wrapped = new Map<string, WrappedKey>();
  const legacy = new Map<string, CryptoKey>();
  const rows = new Map<number, StoredEntry>();
  const patientRows = new Map<string, Sealed>();
  let nextId = 1;
  return {
    rows,
    wrapped,
    legacy,
    patientRows,
    wrappedKey: (userId) => Promise.resolve(wrapped.get(userId)),
    saveWrappedKey: (userId, value) => {
      wrapped.set(userId, value);
      return Promise.resolve();
    },
    legacyKey: (userId) => Promise.resolve(legacy.get(userId)),
    removeLegacyKey: (userId) => {
      legacy.delete(userId);
      return Promise.resolve();
    },
    entries: (userId) =>
      Promise.resolve(
        [...rows.values()].filter((row) => row.userId === userId).sort((a, b) => a.id - b.id),
      ),
    add: (userId, sealed) => {
      const id = nextId++;
      rows.set(id, { id, userId, sealed });
      return Promise.resolve(id);
    },
    replace: (entry) => {
      rows.set(entry.id, entry);
      return Promise.resolve();
    },
    remove: (id) => {
      rows.delete(id);
      return Promise.resolve();
    },
    patients: (userId) => Promise.resolve(patientRows.get(userId)),
    savePatients: (userId, sealed) => {
      patientRows.set(userId, sealed);
      return Promise.resolve();
    },
  };
}

/** A key as the outbox uses one once unlocked (the wrapping is tested in outboxKeys.test.ts). */
export function testKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}
