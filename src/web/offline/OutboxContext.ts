import { createContext, use } from 'react';
import type { Patient } from '../../shared/api/patients.ts';
import type { OutboxEntry, QueuedContent } from './outbox.ts';
import type { Unlock } from './outboxKeys.ts';
import { offlineTexts } from './texts.ts';

/** A save cannot be sealed: the outbox key has not been unlocked with the password yet. */
export class OutboxLockedError extends Error {
  constructor() {
    super(offlineTexts.lockedQueue);
    this.name = 'OutboxLockedError';
  }
}

export interface OutboxContextValue {
  /** The signed-in user's entries, in order; refused ones carry the server's reason. */
  entries: OutboxEntry[];
  /** Rises each time entries reach the server, so that lists showing the server's data reload. */
  uploads: number;
  /** This device keeps the user's outbox key, wrapped, and it waits for their password. */
  locked: boolean;
  /** How many entries wait under the locked key (their number is all that is in the clear). */
  lockedCount: number;
  unlock: (password: string) => Promise<Unlock>;
  queue: (content: QueuedContent) => Promise<void>;
  /** Replaces a refused entry with the user's answer to it, and sends it when online. */
  answer: (entry: OutboxEntry) => Promise<void>;
  /** Forgets the entry of an assessment saved some other way (a save that reached the server). */
  forget: (code: string) => Promise<void>;
  discard: (id: number) => Promise<void>;
  /** Keeps records the user found, for step 1 to offer offline (once unlocked, when locked). */
  keepPatients: (patients: readonly Patient[]) => Promise<void>;
  /** The kept records matching the text, or null while the key is locked. */
  searchKeptPatients: (text: string) => Promise<Patient[] | null>;
}

export const OutboxContext = createContext<OutboxContextValue | null>(null);

export function useOutbox(): OutboxContextValue {
  const value = use(OutboxContext);
  if (value === null) throw new Error('useOutbox needs an OutboxProvider');
  return value;
}
