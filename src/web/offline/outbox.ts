import { z } from 'zod';
import { ApiError } from '../api/client.ts';
import { serializeDraft, type AssessmentDraft } from '../pages/assessment/draft.ts';
import { parseDraft } from '../pages/assessment/readDraft.ts';
import { makeOutboxKey, seal, unseal, type Sealed } from './outboxCrypto.ts';

/**
 * The outbox: saves that could not reach the server, kept on the device per user, each sealed
 * under that user's key, and sent in the order they were made once the network is back. Only
 * the user id and the order are in the clear; the answers, the code and any refusal are sealed.
 */

export interface StoredEntry {
  /** Given by the store when added, rising: the order the saves were made in. */
  id: number;
  userId: string;
  sealed: Sealed;
}

/** Where entries and keys live (IndexedDB in the browser; a map in tests). */
export interface OutboxStore {
  key(userId: string): Promise<CryptoKey | undefined>;
  saveKey(userId: string, key: CryptoKey): Promise<void>;
  /** The user's entries in the order they were added. */
  entries(userId: string): Promise<StoredEntry[]>;
  add(userId: string, sealed: Sealed): Promise<number>;
  replace(entry: StoredEntry): Promise<void>;
  remove(id: number): Promise<void>;
}

/** What an entry holds once unsealed. */
export interface OutboxContent {
  /** The wizard's record: code, the saved assessment's id and version if any, the answers. */
  draft: AssessmentDraft;
  /** The user's display name, which the first save's retry compares with the creator. */
  creatorName: string;
  queuedAt: string;
  /** The server's reason once it refused the entry; a refused entry waits for the user. */
  refusal: string | null;
}

export interface OutboxEntry extends OutboxContent {
  id: number;
}

const sealedContentSchema = z.object({
  draft: z.string(),
  creatorName: z.string(),
  queuedAt: z.string(),
  refusal: z.string().nullable(),
});

async function keyFor(store: OutboxStore, userId: string): Promise<CryptoKey> {
  const existing = await store.key(userId);
  if (existing !== undefined) return existing;
  const key = await makeOutboxKey();
  await store.saveKey(userId, key);
  return key;
}

function sealContent(key: CryptoKey, content: OutboxContent): Promise<Sealed> {
  return seal(key, { ...content, draft: serializeDraft(content.draft) });
}

async function unsealContent(key: CryptoKey, sealed: Sealed): Promise<OutboxContent | null> {
  let value: unknown;
  try {
    value = await unseal(key, sealed);
  } catch {
    return null;
  }
  const parsed = sealedContentSchema.safeParse(value);
  if (!parsed.success) return null;
  const draft = parseDraft(parsed.data.draft);
  return draft === null ? null : { ...parsed.data, draft };
}

/**
 * The user's entries that their key opens, in order. Another user's entries are never read; an
 * entry that does not open (changed on disk) is left where it is rather than deleted.
 */
export async function readOutbox(store: OutboxStore, userId: string): Promise<OutboxEntry[]> {
  const stored = await store.entries(userId);
  if (stored.length === 0) return [];
  const key = await store.key(userId);
  if (key === undefined) return [];
  const entries: OutboxEntry[] = [];
  for (const entry of stored) {
    if (entry.userId !== userId) continue;
    const content = await unsealContent(key, entry.sealed);
    if (content !== null) entries.push({ id: entry.id, ...content });
  }
  return entries;
}

/**
 * Keeps a save for later. A second save of the same assessment (same code) replaces the first
 * in its place, so each assessment is sent once, with its latest answers.
 */
export async function queueSave(
  store: OutboxStore,
  userId: string,
  content: Omit<OutboxContent, 'refusal'>,
): Promise<void> {
  const key = await keyFor(store, userId);
  const sealed = await sealContent(key, { ...content, refusal: null });
  const same = (await readOutbox(store, userId)).find(
    (entry) => entry.draft.code === content.draft.code,
  );
  if (same === undefined) await store.add(userId, sealed);
  else await store.replace({ id: same.id, userId, sealed });
}

/** Drops the entry of this assessment, once it has been saved some other way. */
export async function removeCode(store: OutboxStore, userId: string, code: string): Promise<void> {
  for (const entry of await readOutbox(store, userId)) {
    if (entry.draft.code === code) await store.remove(entry.id);
  }
}

/** Whether the server's answer refuses the entry itself, so sending it again cannot help. */
function isRefusal(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    // An ended session, a timeout and too many requests pass; the entry waits for the next try.
    ![401, 408, 429].includes(error.status)
  );
}

export interface SendOutcome {
  sent: number;
  refused: number;
  /** Sending stopped at an entry the network or the server could not take now. */
  stopped: boolean;
}

/**
 * Sends the user's waiting entries in order. A sent entry leaves the outbox; a refused one stays
 * with the server's reason, and the next is sent; a failure of the network or the server stops
 * sending, keeping that entry and those after it for the next try.
 */
export async function sendOutbox(
  store: OutboxStore,
  userId: string,
  send: (content: OutboxContent) => Promise<void>,
): Promise<SendOutcome> {
  const outcome: SendOutcome = { sent: 0, refused: 0, stopped: false };
  const key = await store.key(userId);
  if (key === undefined) return outcome;
  for (const entry of await readOutbox(store, userId)) {
    if (entry.refusal !== null) continue;
    try {
      await send(entry);
    } catch (error) {
      if (!isRefusal(error)) return { ...outcome, stopped: true };
      const { id, ...content } = entry;
      const sealed = await sealContent(key, { ...content, refusal: error.message });
      await store.replace({ id, userId, sealed });
      outcome.refused += 1;
      continue;
    }
    await store.remove(entry.id);
    outcome.sent += 1;
  }
  return outcome;
}
