import { useCallback, useEffect, useState } from 'react';
import { readWriteBackLink, sendToRecord, type WriteBackOutcome } from '../assessment/writeBack.ts';

/** Sending, sent, or failed (and, while the nurse tries again, the failure stays on screen). */
export type WriteBackView =
  | { status: 'sending' }
  | Extract<WriteBackOutcome, { status: 'sent' }>
  | (Extract<WriteBackOutcome, { status: 'failed' }> & { tryingAgain: boolean });

/**
 * The saved assessment's sending into the record of the launch it was made from, when it goes
 * back (SMART_WRITE_BACK): sent as the page opens (once: see sendToRecord), then each time the
 * nurse tries again. Null: not an assessment that goes back.
 */
export function useRecordWriteBack(assessmentId: string): {
  view: WriteBackView | null;
  /** How many times the nurse has tried again. */
  attempt: number;
  tryAgain: () => void;
} {
  const [view, setView] = useState<WriteBackView | null>(() => {
    const link = readWriteBackLink(assessmentId);
    if (link === null) return null;
    return link.state === 'sent' ? { status: 'sent', result: null } : { status: 'sending' };
  });
  const [attempt, setAttempt] = useState(0);
  const sending =
    view !== null && (view.status === 'sending' || (view.status === 'failed' && view.tryingAgain));

  useEffect(() => {
    if (!sending) return;
    let shown = true;
    void sendToRecord(assessmentId, { again: attempt > 0 }).then((outcome) => {
      if (!shown) return;
      setView(outcome?.status === 'failed' ? { ...outcome, tryingAgain: false } : outcome);
    });
    return () => {
      shown = false;
    };
  }, [assessmentId, sending, attempt]);

  const tryAgain = useCallback(() => {
    setView((current) =>
      current?.status === 'failed' && !current.tryingAgain
        ? { ...current, tryingAgain: true }
        : current,
    );
    setAttempt((n) => n + 1);
  }, []);
  return { view, attempt, tryAgain };
}
