import { afterEach, describe, expect, it } from 'vitest';
import type { Patient } from '../../shared/api/patients.ts';
import { newDraft } from '../assessment/draft.ts';
import { emptyForm } from '../assessment/form.ts';
import { keepPatients, searchKeptPatients } from './keptPatients.ts';
import { memoryStore, testKey } from './memoryStore.ts';
import { queueSave, readOutbox, type QueuedContent } from './outbox.ts';
import { passwordIterations, seal, unwrapOutboxKey } from './outboxCrypto.ts';
import { lockOutboxes, unlockedKey, unlockOutbox } from './outboxKeys.ts';

const password = 'correct horse battery staple';
const patientName = 'Thandeka Mbeki-Example';

const thandeka: Patient = {
  id: 'p-1',
  number: 'MRN-4471',
  name: patientName,
  birthDate: '1961-04-30',
  age: 65,
  gender: 'Female',
  version: 1,
  createdAt: '2026-10-01T08:00:00.000Z',
  updatedAt: '2026-10-01T08:00:00.000Z',
  deletedAt: null,
  lastHeight: 162,
};

function save(code: string): QueuedContent {
  return {
    draft: newDraft('user-a', code, {
      ...emptyForm,
      patient: { ...emptyForm.patient, number: 'MRN-4471', byNumber: true, name: patientName },
      notes: 'Night sweats for three weeks; lives with her sister.',
    }),
    creatorName: 'Nurse A',
    queuedAt: '2026-11-28T02:00:00.000Z',
  };
}

function key(userId: string): CryptoKey {
  const found = unlockedKey(userId);
  if (found === undefined) throw new Error('locked');
  return found;
}

/** Every byte the store holds, as one string: what a copy of the profile's files would show. */
function storedText(store: ReturnType<typeof memoryStore>): string {
  const decoder = new TextDecoder();
  const buffers: ArrayBuffer[] = [
    ...[...store.rows.values()].map((row) => row.sealed.ciphertext),
    ...[...store.patientRows.values()].map((sealed) => sealed.ciphertext),
    ...[...store.wrapped.values()].map((wrapped) => wrapped.wrapped),
  ];
  return buffers.map((buffer) => decoder.decode(buffer)).join('');
}

afterEach(() => lockOutboxes());

describe('the outbox key, wrapped under the password', { timeout: 30_000 }, () => {
  it('a copy of the profile without the password opens nothing, and with it everything', async () => {
    const store = memoryStore();
    expect(await unlockOutbox(store, 'user-a', password, { create: true })).toBe('unlocked');
    await queueSave(store, key('user-a'), 'user-a', save('ASS-MIGXA1B2-AB12'));
    await keepPatients(store, key('user-a'), 'user-a', [thandeka], new Date());

    // The copy: what rests on the device, with no key in any page's memory.
    const copy = memoryStore();
    for (const [id, row] of store.rows) copy.rows.set(id, structuredClone(row));
    for (const [user, sealed] of store.patientRows)
      copy.patientRows.set(user, structuredClone(sealed));
    for (const [user, wrapped] of store.wrapped) copy.wrapped.set(user, structuredClone(wrapped));
    lockOutboxes();

    // No key object rests on the device (a CryptoKey in IndexedDB is its bytes on disk).
    expect(store.legacy.size).toBe(0);
    const wrapped = copy.wrapped.get('user-a');
    expect(wrapped?.iterations).toBe(passwordIterations);
    expect(wrapped?.salt).toHaveLength(16);
    const text = storedText(copy);
    for (const secret of [patientName, 'MRN-4471', 'Night sweats', 'ASS-MIGXA1B2']) {
      expect(text).not.toContain(secret);
    }

    for (const guess of ['', 'password', 'Correct horse battery staple']) {
      expect(await unlockOutbox(copy, 'user-a', guess, { create: false })).toBe('wrongPassword');
      expect(await unwrapOutboxKey(guess, wrapped!)).toBeNull();
    }
    expect(unlockedKey('user-a')).toBeUndefined();

    expect(await unlockOutbox(copy, 'user-a', password, { create: false })).toBe('unlocked');
    const [entry] = await readOutbox(copy, key('user-a'), 'user-a');
    expect(entry?.draft.form.notes).toContain('Night sweats');
    const found = await searchKeptPatients(copy, key('user-a'), 'user-a', 'mbeki', new Date());
    expect(found.map((patient) => patient.id)).toEqual(['p-1']);
  });

  it('keeps the unlocked key unexportable, and makes a salt per user and device', async () => {
    const store = memoryStore();
    await unlockOutbox(store, 'user-a', password, { create: true });
    await unlockOutbox(store, 'user-b', password, { create: true });
    expect(key('user-a').extractable).toBe(false);
    await expect(crypto.subtle.exportKey('raw', key('user-a'))).rejects.toThrow();
    const [saltA, saltB] = ['user-a', 'user-b'].map((user) => store.wrapped.get(user)?.salt);
    expect(Buffer.from(saltA!).equals(Buffer.from(saltB!))).toBe(false);
  });

  it('never makes a key from a password typed to unlock, which the server has not checked', async () => {
    const store = memoryStore();
    expect(await unlockOutbox(store, 'user-a', password, { create: false })).toBe('wrongPassword');
    expect(store.wrapped.size).toBe(0);
  });

  it('after a password change, keeps the key that entries need, and replaces one that none needs', async () => {
    const store = memoryStore();
    await unlockOutbox(store, 'user-a', password, { create: true });
    await queueSave(store, key('user-a'), 'user-a', save('ASS-MIGXA1B2-AB12'));
    const before = store.wrapped.get('user-a');
    lockOutboxes();
    expect(await unlockOutbox(store, 'user-a', 'new password', { create: true })).toBe(
      'wrongPassword',
    );
    expect(store.wrapped.get('user-a')).toBe(before);
    // The old password, typed to unlock, opens the entries.
    expect(await unlockOutbox(store, 'user-a', password, { create: false })).toBe('unlocked');
    expect(await readOutbox(store, key('user-a'), 'user-a')).toHaveLength(1);

    const empty = memoryStore();
    await unlockOutbox(empty, 'user-a', password, { create: true });
    lockOutboxes();
    expect(await unlockOutbox(empty, 'user-a', 'new password', { create: true })).toBe('unlocked');
    expect(await unwrapOutboxKey('new password', empty.wrapped.get('user-a')!)).not.toBeNull();
  });

  it("moves the first version's entries under the wrapped key at sign-in, dropping none", async () => {
    const store = memoryStore();
    const legacy = await testKey();
    store.legacy.set('user-a', legacy);
    await queueSave(store, legacy, 'user-a', save('ASS-MIGXA1B2-AB12'));
    await queueSave(store, legacy, 'user-a', save('ASS-MIGXA1B3-CD34'));
    // One entry that opens under no key (changed on disk) keeps the old key on the device.
    const broken = await store.add('user-a', await seal(await testKey(), { notes: 'lost' }));

    expect(await unlockOutbox(store, 'user-a', password, { create: true })).toBe('unlocked');
    const codes = (await readOutbox(store, key('user-a'), 'user-a')).map((e) => e.draft.code);
    expect(codes).toEqual(['ASS-MIGXA1B2-AB12', 'ASS-MIGXA1B3-CD34']);
    expect(await readOutbox(store, legacy, 'user-a')).toEqual([]);
    expect(store.legacy.has('user-a')).toBe(true);
    expect(store.rows.has(broken)).toBe(true);

    // Once every entry opens under the wrapped key, the old key is deleted.
    await store.remove(broken);
    lockOutboxes();
    expect(await unlockOutbox(store, 'user-a', password, { create: false })).toBe('unlocked');
    expect(store.legacy.has('user-a')).toBe(false);
    expect(await readOutbox(store, key('user-a'), 'user-a')).toHaveLength(2);
  });
});

describe('kept patient records', () => {
  it('are found by number or name and kept for 30 days from when last seen', async () => {
    const store = memoryStore();
    const sealKey = await testKey();
    const other = { ...thandeka, id: 'p-2', number: 'MRN-9000', name: 'Sipho Dlamini' };
    await keepPatients(store, sealKey, 'user-a', [thandeka], new Date('2026-10-20T08:00:00Z'));
    await keepPatients(store, sealKey, 'user-a', [other], new Date('2026-11-01T08:00:00Z'));
    const search = (text: string, now: string) =>
      searchKeptPatients(store, sealKey, 'user-a', text, new Date(now));

    const both = '2026-11-18T08:00:00Z';
    expect((await search('mrn-44', both)).map((p) => p.id)).toEqual(['p-1']);
    expect((await search('THAN', both)).map((p) => p.id)).toEqual(['p-1']);
    expect((await search('sipho dl', both)).map((p) => p.id)).toEqual(['p-2']);
    expect((await search('MRN', both)).map((p) => p.id)).toEqual(['p-1', 'p-2']);
    expect(await search('nobody', both)).toEqual([]);
    // The age is counted again for the day of the search.
    expect((await search('mrn-4471', both))[0]?.age).toBe(65);

    const later = '2026-11-25T08:00:00Z';
    expect((await search('MRN', later)).map((p) => p.id)).toEqual(['p-2']);
    // Seen again, a record is kept 30 days from then.
    await keepPatients(store, sealKey, 'user-a', [thandeka], new Date(later));
    expect((await search('MRN', later)).map((p) => p.id)).toEqual(['p-1', 'p-2']);
    // Another user's key opens none of them.
    expect(
      await searchKeptPatients(store, await testKey(), 'user-a', 'MRN', new Date(later)),
    ).toEqual([]);
  });
});
