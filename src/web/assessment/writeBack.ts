import { z } from 'zod';
import type { SmartLaunch, SmartWriteBackResult } from '../../shared/api/smart-launch.ts';
import { getSmartLaunch, writeBackToRecord } from '../api/smart-launch.ts';
import { errorMessage } from '../forms.ts';
import type { DraftStorage } from './draft.ts';

/**
 * An assessment saved from a launch whose result goes back into the record: the launch, and how
 * far sending it got. Kept in the tab's session storage by assessment id, so that a reload of
 * the saved page neither loses it nor sends it again once sent. Ids only, no patient data.
 */
export interface WriteBackLink {
  launchId: string;
  /** due: not tried yet; tried: sent at least once, without an answer seen; sent: in the record. */
  state: 'due' | 'tried' | 'sent';
}

const linkSchema = z.object({
  launchId: z.string().min(1),
  state: z.enum(['due', 'tried', 'sent']),
});

export const writeBackKeyPrefix = 'triage.smartWriteBack.';

function linkKey(assessmentId: string): string {
  return `${writeBackKeyPrefix}${assessmentId}`;
}

// Storage can throw (blocked, full): without it the page still sends once, as it is shown.

export function readWriteBackLink(
  assessmentId: string,
  storage: DraftStorage = sessionStorage,
): WriteBackLink | null {
  try {
    const text = storage.getItem(linkKey(assessmentId));
    if (text === null) return null;
    const parsed = linkSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function keepWriteBackLink(
  assessmentId: string,
  link: WriteBackLink,
  storage: DraftStorage = sessionStorage,
): void {
  try {
    storage.setItem(linkKey(assessmentId), JSON.stringify(link));
  } catch {
    // See above.
  }
}

export type WriteBackOutcome =
  { status: 'sent'; result: SmartWriteBackResult | null } | { status: 'failed'; message: string };

export interface WriteBackDeps {
  storage?: DraftStorage;
  getLaunch?: (id: string) => Promise<SmartLaunch>;
  writeBack?: (launchId: string, assessmentId: string) => Promise<SmartWriteBackResult>;
}

/** One sending per assessment at a time, whoever asks (a page mounted twice asks twice). */
const sending = new Map<string, Promise<WriteBackOutcome | null>>();

/**
 * Sends the saved assessment into its launch's record, as its link says: nothing when there is no
 * link or it is sent already; once when due; after a try whose answer was not seen (a reload),
 * only when the launch does not already hold this assessment; `again` (the 'Try again' button)
 * sends without asking. Null: no link, nothing to show.
 */
export function sendToRecord(
  assessmentId: string,
  { again = false, ...deps }: WriteBackDeps & { again?: boolean } = {},
): Promise<WriteBackOutcome | null> {
  const running = sending.get(assessmentId);
  if (running !== undefined) return running;
  const send = trySending(assessmentId, again, deps).finally(() => sending.delete(assessmentId));
  sending.set(assessmentId, send);
  return send;
}

async function trySending(
  assessmentId: string,
  again: boolean,
  {
    storage = sessionStorage,
    getLaunch = getSmartLaunch,
    writeBack = writeBackToRecord,
  }: WriteBackDeps,
): Promise<WriteBackOutcome | null> {
  const link = readWriteBackLink(assessmentId, storage);
  if (link === null) return null;
  if (link.state === 'sent') return { status: 'sent', result: null };
  const sent = (result: SmartWriteBackResult | null): WriteBackOutcome => {
    keepWriteBackLink(assessmentId, { ...link, state: 'sent' }, storage);
    return { status: 'sent', result };
  };
  try {
    if (link.state === 'tried' && !again) {
      const launch = await getLaunch(link.launchId);
      if (launch.writtenBack?.assessmentId === assessmentId) return sent(null);
    }
    keepWriteBackLink(assessmentId, { ...link, state: 'tried' }, storage);
    return sent(await writeBack(link.launchId, assessmentId));
  } catch (error) {
    return { status: 'failed', message: errorMessage(error) };
  }
}
