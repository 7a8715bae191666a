import type { KeyStore, OutboxStore } from './outbox.ts';
import { makeWrappedOutboxKey, seal, unseal, unwrapOutboxKey } from './outboxCrypto.ts';

/**
 * Each user's outbox key while it is unlocked: in this page's memory only, never on the device.
 * It is unlocked by the password at sign-in, or typed again after a reload; signing out forgets it.
 */
const unlocked = new Map<string, CryptoKey>();
const listeners = new Set<() => void>();

function changed(): void {
  for (const listener of listeners) listener();
}

export function subscribeToKeys(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function unlockedKey(userId: string): CryptoKey | undefined {
  return unlocked.get(userId);
}

/** Forgets every unlocked key (signing out, an ended session). */
export function lockOutboxes(): void {
  unlocked.clear();
  changed();
}

export type Unlock = 'unlocked' | 'wrongPassword';

/**
 * Opens the user's outbox key with their password: the wrapped key kept on this device, or, the
 * first time (`create`: only at sign-in, where the server has checked the password), a new one,
 * wrapped before anything is sealed under it. Entries sealed under a key of the first version,
 * which rested unwrapped, move under this one, and that key is deleted once none needs it.
 */
export async function unlockOutbox(
  store: KeyStore & OutboxStore,
  userId: string,
  password: string,
  { create }: { create: boolean },
): Promise<Unlock> {
  const wrapped = await store.wrappedKey(userId);
  let key = wrapped === undefined ? null : await unwrapOutboxKey(password, wrapped);
  if (key === null) {
    if (!create) return 'wrongPassword';
    // A password the server accepted that does not open the key has changed since it was
    // wrapped. While entries are sealed under that key it stays (the old password, typed to
    // unlock, opens them); otherwise a new key replaces it.
    if (wrapped !== undefined && (await store.entries(userId)).length > 0) return 'wrongPassword';
    const made = await makeWrappedOutboxKey(password);
    await store.saveWrappedKey(userId, made.wrapped);
    key = made.key;
  }
  await moveLegacyEntries(store, userId, key);
  unlocked.set(userId, key);
  changed();
  return 'unlocked';
}

/**
 * Reseals, in place, each entry that the first version's key opens, under the wrapped key. An
 * interrupted move is finished at the next unlock: the old key is deleted only once every entry
 * opens under the new one, so no entry is ever left that neither opens.
 */
async function moveLegacyEntries(
  store: KeyStore & OutboxStore,
  userId: string,
  key: CryptoKey,
): Promise<void> {
  const legacy = await store.legacyKey(userId);
  if (legacy === undefined) return;
  let allMoved = true;
  for (const entry of await store.entries(userId)) {
    const content = await openWith(legacy, entry.sealed);
    if (content !== undefined) {
      await store.replace({ ...entry, sealed: await seal(key, content) });
    } else if ((await openWith(key, entry.sealed)) === undefined) {
      // Opens under neither (changed on disk): the old key stays, and so does the entry.
      allMoved = false;
    }
  }
  if (allMoved) await store.removeLegacyKey(userId);
}

async function openWith(key: CryptoKey, sealed: Parameters<typeof unseal>[1]): Promise<unknown> {
  try {
    return await unseal(key, sealed);
  } catch {
    return undefined;
  }
}
