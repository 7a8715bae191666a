import { createContext, use } from 'react';
import type { OutboxContent, OutboxEntry } from './outbox.ts';

export interface OutboxContextValue {
  /** The signed-in user's entries, in order; refused ones carry the server's reason. */
  entries: OutboxEntry[];
  /** Rises each time entries reach the server, so that lists showing the server's data reload. */
  uploads: number;
  queue: (content: Omit<OutboxContent, 'refusal'>) => Promise<void>;
  /** Forgets the entry of an assessment saved some other way (a save that reached the server). */
  forget: (code: string) => Promise<void>;
  discard: (id: number) => Promise<void>;
}

export const OutboxContext = createContext<OutboxContextValue | null>(null);

export function useOutbox(): OutboxContextValue {
  const value = use(OutboxContext);
  if (value === null) throw new Error('useOutbox needs an OutboxProvider');
  return value;
}
