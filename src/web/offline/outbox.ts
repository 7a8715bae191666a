import { z } from 'zod';
import { ApiError } from '../api/client.ts';
import { serializeDraft, type AssessmentDraft } from '../assessment/draft.ts';
import { parseDraft } from '../assessment/readDraft.ts';
import { seal, unseal, type Sealed, type WrappedKey } from './outboxCrypto.ts';

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

/** Where each user's outbox key rests (IndexedDB in the browser; maps in tests). */
export interface KeyStore {
  wrappedKey(userId: string): Promise<WrappedKey | undefined>;
  saveWrappedKey(userId: string, wrapped: WrappedKey): Promise<void>;
  /** A key kept unwrapped by the first version of the outbox, until its entries move. */
  legacyKey(userId: string): Promise<CryptoKey | undefined>;
  removeLegacyKey(userId: string): Promise<void>;
}

/** Where entries live. */
export interface OutboxStore {
  /** The user's entries in the order they were added. */
  entries(userId: string): Promise<StoredEntry[]>;
  add(userId: string, sealed: Sealed): Promise<number>;
  replace(entry: StoredEntry): Promise<void>;
  remove(id: number): Promise<void>;
}

/** Where each user's kept patient records live, sealed together. */
export interface PatientStore {
  patients(userId: string): Promise<Sealed | undefined>;
  savePatients(userId: string, sealed: Sealed): Promise<void>;
}

export type OfflineStore = KeyStore & OutboxStore & PatientStore;

/** What an entry holds once unsealed. */
export interface OutboxContent {
  /** The wizard's record: code, the saved assessment's id and version if any, the answers. */
  draft: AssessmentDraft;
  /** The user's display name, which the first save's retry compares with the creator. */
  creatorName: string;
  queuedAt: string;
  /** The server's reason once it refused the entry; a refused entry waits for the user. */
  refusal: string | null;
  /** The refusal's error code and field, which say what the user is offered and where. */
  refusalCode: string | null;
  refusalField: string | null;
}

/** What a save puts in the outbox; the refusal comes later, from the server. */
export type QueuedContent = Omit<OutboxContent, 'refusal' | 'refusalCode' | 'refusalField'>;

const notRefused = { refusal: null, refusalCode: null, refusalField: null } as const;

export interface OutboxEntry extends OutboxContent {
  id: number;
}

const sealedContentSchema = z.object({
  draft: z.string(),
  creatorName: z.string(),
  queuedAt: z.string(),
  refusal: z.string().nullable(),
  // Entries sealed before refusals kept their code have none.
  refusalCode: z.string().nullable().default(null),
  refusalField: z.string().nullable().default(null),
});

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
export async function readOutbox(
  store: OutboxStore,
  key: CryptoKey,
  userId: string,
): Promise<OutboxEntry[]> {
  const entries: OutboxEntry[] = [];
  for (const entry of await store.entries(userId)) {
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
  key: CryptoKey,
  userId: string,
  content: QueuedContent,
): Promise<void> {
  const sealed = await sealContent(key, { ...content, ...notRefused });
  const same = (await readOutbox(store, key, userId)).find(
    (entry) => entry.draft.code === content.draft.code,
  );
  if (same === undefined) await store.add(userId, sealed);
  else await store.replace({ id: same.id, userId, sealed });
}

/** Replaces an entry's content in its place (a refused entry the user answered). */
export async function replaceEntry(
  store: OutboxStore,
  key: CryptoKey,
  userId: string,
  { id, ...content }: OutboxEntry,
): Promise<void> {
  await store.replace({ id, userId, sealed: await sealContent(key, content) });
}

/** Drops the entry of this assessment, once it has been saved some other way. */
export async function removeCode(
  store: OutboxStore,
  key: CryptoKey,
  userId: string,
  code: string,
): Promise<void> {
  for (const entry of await readOutbox(store, key, userId)) {
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
  key: CryptoKey,
  userId: string,
  send: (content: OutboxContent) => Promise<void>,
): Promise<SendOutcome> {
  const outcome: SendOutcome = { sent: 0, refused: 0, stopped: false };
  for (const entry of await readOutbox(store, key, userId)) {
    if (entry.refusal !== null) continue;
    try {
      await send(entry);
    } catch (error) {
      if (!isRefusal(error)) return { ...outcome, stopped: true };
      await replaceEntry(store, key, userId, {
        ...entry,
        refusal: error.message,
        refusalCode: error.code,
        refusalField: error.field ?? null,
      });
      outcome.refused += 1;
      continue;
    }
    await store.remove(entry.id);
    outcome.sent += 1;
  }
  return outcome;
}
