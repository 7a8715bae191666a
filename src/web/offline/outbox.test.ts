import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.ts';
import { newDraft } from '../pages/assessment/draft.ts';
import { emptyForm } from '../pages/assessment/form.ts';
import { makeOutboxKey, seal, unseal, type Sealed } from './outboxCrypto.ts';
import {
  queueSave,
  readOutbox,
  removeCode,
  sendOutbox,
  type OutboxContent,
  type OutboxStore,
  type StoredEntry,
} from './outbox.ts';

/** The store behind the same interface as IndexedDB's, in memory. */
function memoryStore(): OutboxStore & { rows: Map<number, StoredEntry> } {
  const keys = new Map<string, CryptoKey>();
  const rows = new Map<number, StoredEntry>();
  let nextId = 1;
  return {
    rows,
    key: (userId) => Promise.resolve(keys.get(userId)),
    saveKey: (userId, key) => {
      keys.set(userId, key);
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
  };
}

function save(code: string, notes = ''): Omit<OutboxContent, 'refusal'> {
  return {
    draft: { ...newDraft('user-a', code, { ...emptyForm, notes }), resultsCalculated: true },
    creatorName: 'Nurse A',
    queuedAt: '2026-11-25T03:00:00.000Z',
  };
}

describe('outbox encryption', () => {
  it('keeps no plaintext: the stored bytes do not contain what was sealed', async () => {
    const key = await makeOutboxKey();
    const secret = 'Patient Mary Example, TB contact';
    const sealed = await seal(key, { notes: secret });
    const stored = new TextDecoder().decode(sealed.ciphertext);
    expect(stored).not.toContain('Mary');
    expect(sealed.iv).toHaveLength(12);
    expect(await unseal(key, sealed)).toEqual({ notes: secret });
  });

  it('uses a new IV for every entry, so the same content seals differently', async () => {
    const key = await makeOutboxKey();
    const first = await seal(key, { notes: 'same' });
    const second = await seal(key, { notes: 'same' });
    expect(Buffer.from(first.iv).equals(Buffer.from(second.iv))).toBe(false);
    expect(Buffer.from(first.ciphertext).equals(Buffer.from(second.ciphertext))).toBe(false);
  });

  it('makes keys that cannot be exported', async () => {
    const key = await makeOutboxKey();
    expect(key.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
  });

  it("refuses another user's key", async () => {
    const sealed = await seal(await makeOutboxKey(), { notes: 'mine' });
    await expect(unseal(await makeOutboxKey(), sealed)).rejects.toThrow();
  });

  it('refuses changed bytes', async () => {
    const key = await makeOutboxKey();
    const sealed = await seal(key, { notes: 'mine' });
    const bytes = new Uint8Array(sealed.ciphertext.slice(0));
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    const tampered: Sealed = { iv: sealed.iv, ciphertext: bytes.buffer };
    await expect(unseal(key, tampered)).rejects.toThrow();
  });
});

describe('outbox', () => {
  it("keeps each user's entries apart: another user reads and sends none of them", async () => {
    const store = memoryStore();
    await queueSave(store, 'user-a', save('A-1'));
    expect(await readOutbox(store, 'user-b')).toEqual([]);
    const sent: string[] = [];
    await sendOutbox(store, 'user-b', (content) => {
      sent.push(content.draft.code);
      return Promise.resolve();
    });
    expect(sent).toEqual([]);
    expect(await readOutbox(store, 'user-a')).toHaveLength(1);
  });

  it("does not open an entry moved under another user's id", async () => {
    const store = memoryStore();
    await queueSave(store, 'user-a', save('A-1'));
    await queueSave(store, 'user-b', save('B-1'));
    const [entryA] = await store.entries('user-a');
    if (entryA === undefined) throw new Error('no entry');
    await store.replace({ ...entryA, userId: 'user-b' });
    expect((await readOutbox(store, 'user-b')).map((entry) => entry.draft.code)).toEqual(['B-1']);
  });

  it('sends in the order saved, and a second save of one code replaces the first in place', async () => {
    const store = memoryStore();
    await queueSave(store, 'user-a', save('A-1', 'first'));
    await queueSave(store, 'user-a', save('A-2'));
    await queueSave(store, 'user-a', save('A-1', 'changed'));
    const sent: string[] = [];
    const outcome = await sendOutbox(store, 'user-a', (content) => {
      sent.push(`${content.draft.code}:${content.draft.form.notes}`);
      return Promise.resolve();
    });
    expect(sent).toEqual(['A-1:changed', 'A-2:']);
    expect(outcome).toEqual({ sent: 2, refused: 0, stopped: false });
    expect(await readOutbox(store, 'user-a')).toEqual([]);
  });

  it('stops at a network failure, keeping that entry and the later ones in order', async () => {
    const store = memoryStore();
    for (const code of ['A-1', 'A-2', 'A-3']) await queueSave(store, 'user-a', save(code));
    const outcome = await sendOutbox(store, 'user-a', (content) =>
      content.draft.code === 'A-2'
        ? Promise.reject(new ApiError(0, 'network', 'offline'))
        : Promise.resolve(),
    );
    expect(outcome).toEqual({ sent: 1, refused: 0, stopped: true });
    expect((await readOutbox(store, 'user-a')).map((entry) => entry.draft.code)).toEqual([
      'A-2',
      'A-3',
    ]);
  });

  it("keeps a refused entry with the server's reason, sends the next, and skips it later", async () => {
    const store = memoryStore();
    await queueSave(store, 'user-a', save('A-1'));
    await queueSave(store, 'user-a', save('A-2'));
    const refusal = new ApiError(409, 'conflict', 'This code is taken.', 'code');
    const outcome = await sendOutbox(store, 'user-a', (content) =>
      content.draft.code === 'A-1' ? Promise.reject(refusal) : Promise.resolve(),
    );
    expect(outcome).toEqual({ sent: 1, refused: 1, stopped: false });
    const [kept] = await readOutbox(store, 'user-a');
    expect(kept?.draft.code).toBe('A-1');
    expect(kept?.refusal).toBe('This code is taken.');
    let calls = 0;
    await sendOutbox(store, 'user-a', () => {
      calls += 1;
      return Promise.resolve();
    });
    expect(calls).toBe(0);
    await removeCode(store, 'user-a', 'A-1');
    expect(await readOutbox(store, 'user-a')).toEqual([]);
  });

  it('keeps an entry when the session has ended (401): it waits for the same user', async () => {
    const store = memoryStore();
    await queueSave(store, 'user-a', save('A-1'));
    const outcome = await sendOutbox(store, 'user-a', () =>
      Promise.reject(new ApiError(401, 'unauthenticated', 'Signed out')),
    );
    expect(outcome.stopped).toBe(true);
    const [kept] = await readOutbox(store, 'user-a');
    expect(kept?.refusal).toBeNull();
  });
});
