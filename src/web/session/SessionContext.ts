import { createContext } from 'react';
import type { SessionState } from './sessionState.ts';

export interface SessionContextValue {
  state: SessionState;
  /**
   * Resolves once signed in, or once the password is accepted and a second factor is asked for
   * (`secondFactor`); rejects with an ApiError (401 for a wrong user name or password).
   */
  signIn: (username: string, password: string) => Promise<'signedIn' | 'secondFactor'>;
  /** The second step: resolves once signed in; rejects with an ApiError (401 for a wrong code). */
  answerSecondFactor: (code: string) => Promise<void>;
  /**
   * Ends the session on the server, then shows the gate; without a network it ends it on this
   * device at once and on the server when it is reached. Rejects when the server refuses.
   */
  signOut: () => Promise<void>;
}

export const SessionContext = createContext<SessionContextValue | null>(null);
