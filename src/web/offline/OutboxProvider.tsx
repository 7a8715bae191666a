import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { notifications } from '@mantine/notifications';
import { saveNewAssessment, updateAssessment } from '../api/assessments.ts';
import { assessmentBody } from '../pages/assessment/form.ts';
import { idbOutboxStore } from './idbOutboxStore.ts';
import {
  queueSave,
  readOutbox,
  removeCode,
  sendOutbox,
  type OutboxContent,
  type OutboxEntry,
} from './outbox.ts';
import { listRuleSetsOrCopy } from './ruleSetCopy.ts';
import { OutboxContext, type OutboxContextValue } from './OutboxContext.ts';
import { offlineTexts } from './texts.ts';
import { useOnline } from './useOnline.ts';

/** Sends one entry as the wizard would have: a first save by its code, or an update. */
async function sendEntry({ draft, creatorName }: OutboxContent): Promise<void> {
  const body = assessmentBody(draft.form);
  if (draft.assessmentId === null) {
    await saveNewAssessment({ ...body, code: draft.code }, creatorName);
  } else {
    await updateAssessment(draft.assessmentId, draft.baseVersion ?? 1, body);
  }
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

  const refresh = useCallback(async () => {
    setEntries(await readOutbox(idbOutboxStore, userId));
  }, [userId]);

  const send = useCallback(async () => {
    if (sending.current) return;
    sending.current = true;
    try {
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
        await queueSave(idbOutboxStore, userId, content);
        await refresh();
      },
      forget: async (code) => {
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
