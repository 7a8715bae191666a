import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { Patient } from '../../shared/api/patients.ts';
import { useWhenIdle } from '../hooks/useWhenIdle.ts';
import { idbOfflineStore } from './idbOfflineStore.ts';
import type { OutboxEntry } from './outbox.ts';
import { subscribeToKeys, unlockedKey, unlockOutbox } from './outboxKeys.ts';
import { listRuleSetsOrCopy } from './ruleSetCopy.ts';
import { OutboxContext, OutboxLockedError, type OutboxContextValue } from './OutboxContext.ts';
import { offlineTexts } from './texts.ts';
import { useOnline } from './useOnline.ts';

// Reading and sending entries (the draft's schema, the assessment API and theirs) load only when
// the user has entries or queues one: the first view of most visits builds none of it.
const loadOutbox = () => import('./outbox.ts');
const loadSendEntry = () => import('./sendEntry.ts');
const loadKeptPatients = () => import('./keptPatients.ts');

/**
 * Loads them once the first view is done, so that a save queued after the network drops finds
 * them in the page even before the service worker has stored the app's files.
 */
function preloadOutbox(): void {
  Promise.all([loadOutbox(), loadSendEntry(), loadKeptPatients()]).catch(() => undefined);
}

async function storedCount(userId: string): Promise<number> {
  return (await idbOfflineStore.entries(userId)).length;
}

/**
 * The signed-in user's outbox: read at start, sent at start and whenever the browser comes back
 * online, once its key is unlocked (by the password at sign-in, or typed after a reload). One send
 * runs at a time; a repeat after a lost answer is harmless (the code).
 */
export function OutboxProvider({ userId, children }: { userId: string; children: ReactNode }) {
  const [entries, setEntries] = useState<OutboxEntry[]>([]);
  const [lockedCount, setLockedCount] = useState(0);
  /** This device keeps a wrapped key for the user (so the password can open it here). */
  const [hasWrappedKey, setHasWrappedKey] = useState(false);
  const [uploads, setUploads] = useState(0);
  const online = useOnline();
  const key = useSyncExternalStore(subscribeToKeys, () => unlockedKey(userId));
  const sending = useRef(false);
  /** Records found while the key was locked (after a reload), kept once it is unlocked. */
  const foundWhileLocked = useRef<Patient[]>([]);
  const queryClient = useQueryClient();
  useWhenIdle(preloadOutbox);

  const refresh = useCallback(async () => {
    setHasWrappedKey((await idbOfflineStore.wrappedKey(userId)) !== undefined);
    const count = await storedCount(userId);
    if (key === undefined || count === 0) {
      setEntries([]);
      setLockedCount(key === undefined ? count : 0);
      return;
    }
    const { readOutbox } = await loadOutbox();
    setEntries(await readOutbox(idbOfflineStore, key, userId));
    setLockedCount(0);
  }, [userId, key]);

  const send = useCallback(async () => {
    if (sending.current) return;
    // Locked, nothing can be read or sent: the list shows how many wait and asks for the password.
    if (key === undefined) return refresh();
    sending.current = true;
    try {
      if ((await storedCount(userId)) === 0) return;
      const [{ sendOutbox }, { sendEntry }] = await Promise.all([loadOutbox(), loadSendEntry()]);
      const outcome = await sendOutbox(idbOfflineStore, key, userId, sendEntry);
      if (outcome.sent > 0) {
        setUploads((count) => count + 1);
        notifications.show({ color: 'green', message: offlineTexts.uploaded(outcome.sent) });
      }
    } finally {
      sending.current = false;
      await refresh();
    }
  }, [userId, key, refresh]);

  // The wizard scores offline with the copy of the rule sets this keeps on the device.
  useEffect(() => {
    listRuleSetsOrCopy().catch(() => undefined);
  }, [userId]);

  useEffect(() => {
    if (online) void send();
    else void refresh();
  }, [online, send, refresh]);

  /** Keeps records found or opened, or holds them in memory until the key is unlocked. */
  const keep = useCallback(
    async (patients: readonly Patient[]) => {
      if (patients.length === 0) return;
      if (key === undefined) {
        foundWhileLocked.current.push(...patients);
        return;
      }
      const { keepPatients } = await loadKeptPatients();
      await keepPatients(idbOfflineStore, key, userId, patients, new Date());
    },
    [key, userId],
  );

  useEffect(() => {
    if (key === undefined || foundWhileLocked.current.length === 0) return;
    const found = foundWhileLocked.current;
    foundWhileLocked.current = [];
    keep(found).catch(() => undefined);
  }, [key, keep]);

  // A patient record opened (its page, read through the query cache) stays on the device.
  useEffect(
    () =>
      queryClient.getQueryCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'success') return;
        const [kind] = event.query.queryKey as readonly unknown[];
        if (kind !== 'patient') return;
        // The patient page's answer, checked against the contract as it was read.
        const data = event.query.state.data as { patient?: Patient } | undefined;
        if (data?.patient !== undefined) keep([data.patient]).catch(() => undefined);
      }),
    [queryClient, keep],
  );

  const value = useMemo<OutboxContextValue>(() => {
    const needKey = (): CryptoKey => {
      if (key === undefined) throw new OutboxLockedError();
      return key;
    };
    return {
      entries,
      uploads,
      locked: key === undefined && hasWrappedKey,
      lockedCount,
      unlock: async (password) => {
        const outcome = await unlockOutbox(idbOfflineStore, userId, password, { create: false });
        return outcome;
      },
      queue: async (content) => {
        const { queueSave } = await loadOutbox();
        await queueSave(idbOfflineStore, needKey(), userId, content);
        await refresh();
      },
      answer: async (entry) => {
        const { replaceEntry } = await loadOutbox();
        await replaceEntry(idbOfflineStore, needKey(), userId, entry);
        await refresh();
        if (online) await send();
      },
      forget: async (code) => {
        const { removeCode } = await loadOutbox();
        await removeCode(idbOfflineStore, needKey(), userId, code);
        await refresh();
      },
      discard: async (id) => {
        await idbOfflineStore.remove(id);
        await refresh();
      },
      keepPatients: keep,
      searchKeptPatients: async (text) => {
        if (key === undefined) return null;
        const { searchKeptPatients } = await loadKeptPatients();
        return searchKeptPatients(idbOfflineStore, key, userId, text, new Date());
      },
    };
  }, [entries, uploads, key, hasWrappedKey, lockedCount, userId, refresh, online, send, keep]);
  return <OutboxContext value={value}>{children}</OutboxContext>;
}
