import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.ts';
import { newDraft } from '../assessment/draft.ts';
import { assessmentBody, emptyForm } from '../assessment/form.ts';
import { memoryStore, testKey } from './memoryStore.ts';
import { seal, unseal, type Sealed } from './outboxCrypto.ts';
import { queueSave, readOutbox, removeCode, sendOutbox, type QueuedContent } from './outbox.ts';

function save(code: string, notes = ''): QueuedContent {
  return {
    draft: { ...newDraft('user-a', code, { ...emptyForm, notes }), resultsCalculated: true },
    creatorName: 'Nurse A',
    queuedAt: '2026-11-25T03:00:00.000Z',
  };
}

describe('outbox encryption', () => {
  it('keeps no plaintext: the stored bytes do not contain what was sealed', async () => {
    const key = await testKey();
    const secret = 'Patient Mary Example, TB contact';
    const sealed = await seal(key, { notes: secret });
    const stored = new TextDecoder().decode(sealed.ciphertext);
    expect(stored).not.toContain('Mary');
    expect(sealed.iv).toHaveLength(12);
    expect(await unseal(key, sealed)).toEqual({ notes: secret });
  });

  it('uses a new IV for every entry, so the same content seals differently', async () => {
    const key = await testKey();
    const first = await seal(key, { notes: 'same' });
    const second = await seal(key, { notes: 'same' });
    expect(Buffer.from(first.iv).equals(Buffer.from(second.iv))).toBe(false);
    expect(Buffer.from(first.ciphertext).equals(Buffer.from(second.ciphertext))).toBe(false);
  });

  it("refuses another user's key", async () => {
    const sealed = await seal(await testKey(), { notes: 'mine' });
    await expect(unseal(await testKey(), sealed)).rejects.toThrow();
  });

  it('refuses changed bytes', async () => {
    const key = await testKey();
    const sealed = await seal(key, { notes: 'mine' });
    const bytes = new Uint8Array(sealed.ciphertext.slice(0));
    bytes[0] = (bytes[0] ?? 0) ^ 1;
    const tampered: Sealed = { iv: sealed.iv, ciphertext: bytes.buffer };
    await expect(unseal(key, tampered)).rejects.toThrow();
  });
});

describe('outbox', () => {
  let a: CryptoKey;
  let b: CryptoKey;
  beforeEach(async () => {
    [a, b] = await Promise.all([testKey(), testKey()]);
  });

  it("keeps each user's entries apart: another user reads and sends none of them", async () => {
    const store = memoryStore();
    await queueSave(store, a, 'user-a', save('A-1'));
    expect(await readOutbox(store, b, 'user-b')).toEqual([]);
    const sent: string[] = [];
    await sendOutbox(store, b, 'user-b', (content) => {
      sent.push(content.draft.code);
      return Promise.resolve();
    });
    expect(sent).toEqual([]);
    expect(await readOutbox(store, a, 'user-a')).toHaveLength(1);
  });

  it('keeps the unit chosen in step 1, so that a save made offline is sent to it', async () => {
    const store = memoryStore();
    const atAlder = save('A-1');
    atAlder.draft.form = { ...atAlder.draft.form, orgUnitId: 'u-alder' };
    await queueSave(store, a, 'user-a', atAlder);
    const sent: unknown[] = [];
    await sendOutbox(store, a, 'user-a', (content) => {
      sent.push(assessmentBody(content.draft.form).orgUnitId);
      return Promise.resolve();
    });
    expect(sent).toEqual(['u-alder']);
  });

  it("does not open an entry moved under another user's id", async () => {
    const store = memoryStore();
    await queueSave(store, a, 'user-a', save('A-1'));
    await queueSave(store, b, 'user-b', save('B-1'));
    const [entryA] = await store.entries('user-a');
    if (entryA === undefined) throw new Error('no entry');
    await store.replace({ ...entryA, userId: 'user-b' });
    expect((await readOutbox(store, b, 'user-b')).map((entry) => entry.draft.code)).toEqual([
      'B-1',
    ]);
  });

  it('sends in the order saved, and a second save of one code replaces the first in place', async () => {
    const store = memoryStore();
    await queueSave(store, a, 'user-a', save('A-1', 'first'));
    await queueSave(store, a, 'user-a', save('A-2'));
    await queueSave(store, a, 'user-a', save('A-1', 'changed'));
    const sent: string[] = [];
    const outcome = await sendOutbox(store, a, 'user-a', (content) => {
      sent.push(`${content.draft.code}:${content.draft.form.notes}`);
      return Promise.resolve();
    });
    expect(sent).toEqual(['A-1:changed', 'A-2:']);
    expect(outcome).toEqual({ sent: 2, refused: 0, stopped: false });
    expect(await readOutbox(store, a, 'user-a')).toEqual([]);
  });

  it('stops at a network failure, keeping that entry and the later ones in order', async () => {
    const store = memoryStore();
    for (const code of ['A-1', 'A-2', 'A-3']) await queueSave(store, a, 'user-a', save(code));
    const outcome = await sendOutbox(store, a, 'user-a', (content) =>
      content.draft.code === 'A-2'
        ? Promise.reject(new ApiError(0, 'network', 'offline'))
        : Promise.resolve(),
    );
    expect(outcome).toEqual({ sent: 1, refused: 0, stopped: true });
    expect((await readOutbox(store, a, 'user-a')).map((entry) => entry.draft.code)).toEqual([
      'A-2',
      'A-3',
    ]);
  });

  it("keeps a refused entry with the server's reason, sends the next, and skips it later", async () => {
    const store = memoryStore();
    await queueSave(store, a, 'user-a', save('A-1'));
    await queueSave(store, a, 'user-a', save('A-2'));
    const refusal = new ApiError(409, 'conflict', 'This code is taken.', 'code');
    const outcome = await sendOutbox(store, a, 'user-a', (content) =>
      content.draft.code === 'A-1' ? Promise.reject(refusal) : Promise.resolve(),
    );
    expect(outcome).toEqual({ sent: 1, refused: 1, stopped: false });
    const [kept] = await readOutbox(store, a, 'user-a');
    expect(kept?.draft.code).toBe('A-1');
    expect(kept?.refusal).toBe('This code is taken.');
    // What the refusal offers and where it is answered go with it.
    expect(kept?.refusalCode).toBe('conflict');
    expect(kept?.refusalField).toBe('code');
    let calls = 0;
    await sendOutbox(store, a, 'user-a', () => {
      calls += 1;
      return Promise.resolve();
    });
    expect(calls).toBe(0);
    await removeCode(store, a, 'user-a', 'A-1');
    expect(await readOutbox(store, a, 'user-a')).toEqual([]);
  });

  it('keeps an entry when the session has ended (401): it waits for the same user', async () => {
    const store = memoryStore();
    await queueSave(store, a, 'user-a', save('A-1'));
    const outcome = await sendOutbox(store, a, 'user-a', () =>
      Promise.reject(new ApiError(401, 'unauthenticated', 'Signed out')),
    );
    expect(outcome.stopped).toBe(true);
    const [kept] = await readOutbox(store, a, 'user-a');
    expect(kept?.refusal).toBeNull();
  });
});
