import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { notifications } from '@mantine/notifications';
import { useWhenIdle } from '../hooks/useWhenIdle.ts';
import { idbOutboxStore } from './idbOutboxStore.ts';
import type { OutboxEntry } from './outbox.ts';
import { listRuleSetsOrCopy } from './ruleSetCopy.ts';
import { OutboxContext, type OutboxContextValue } from './OutboxContext.ts';
import { offlineTexts } from './texts.ts';
import { useOnline } from './useOnline.ts';

// Reading and sending entries (the draft's schema, the assessment API and theirs) load only when
// the user has entries or queues one: the first view of most visits builds none of it.
const loadOutbox = () => import('./outbox.ts');
const loadSendEntry = () => import('./sendEntry.ts');

/**
 * Loads them once the first view is done, so that a save queued after the network drops finds
 * them in the page even before the service worker has stored the app's files.
 */
function preloadOutbox(): void {
  Promise.all([loadOutbox(), loadSendEntry()]).catch(() => undefined);
}

async function hasEntries(userId: string): Promise<boolean> {
  return (await idbOutboxStore.entries(userId)).length > 0;
}

/**
 * The signed-in user's outbox: read at start, sent at start and whenever the browser comes back
 * online. One send runs at a time; a repeat after a lost answer is harmless (the code).
 */
export function OutboxProvider({ userId, children }: { userId: string; children: ReactNode }) {
  const [entries, setEntries] = useState<OutboxEntry[]>([]);
  const [uploads, setUploads] = useState(0);
  const online = useOnline();
  const sending = useRef(false);
  useWhenIdle(preloadOutbox);

  const refresh = useCallback(async () => {
    if (!(await hasEntries(userId))) {
      setEntries([]);
      return;
    }
    const { readOutbox } = await loadOutbox();
    setEntries(await readOutbox(idbOutboxStore, userId));
  }, [userId]);

  const send = useCallback(async () => {
    if (sending.current) return;
    sending.current = true;
    try {
      if (!(await hasEntries(userId))) return;
      const [{ sendOutbox }, { sendEntry }] = await Promise.all([loadOutbox(), loadSendEntry()]);
      const outcome = await sendOutbox(idbOutboxStore, userId, sendEntry);
      if (outcome.sent > 0) {
        setUploads((count) => count + 1);
        notifications.show({ color: 'green', message: offlineTexts.uploaded(outcome.sent) });
      }
    } finally {
      sending.current = false;
      await refresh();
    }
  }, [userId, refresh]);

  // The wizard scores offline with the copy of the rule sets this keeps on the device.
  useEffect(() => {
    listRuleSetsOrCopy().catch(() => undefined);
  }, [userId]);

  useEffect(() => {
    if (online) void send();
    else void refresh();
  }, [online, send, refresh]);

  const value = useMemo<OutboxContextValue>(
    () => ({
      entries,
      uploads,
      queue: async (content) => {
        const { queueSave } = await loadOutbox();
        await queueSave(idbOutboxStore, userId, content);
        await refresh();
      },
      forget: async (code) => {
        const { removeCode } = await loadOutbox();
        await removeCode(idbOutboxStore, userId, code);
        await refresh();
      },
      discard: async (id) => {
        await idbOutboxStore.remove(id);
        await refresh();
      },
    }),
    [entries, uploads, userId, refresh],
  );
  return <OutboxContext value={value}>{children}</OutboxContext>;
}
