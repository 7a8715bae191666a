import { createContext } from 'react';
import type { SessionUser, SignInOptions } from '../../shared/api/session.ts';
import type { SessionState } from './sessionState.ts';

export type SignInOutcome =
  | { next: 'signedIn'; user: SessionUser; secondFactorRequiredBy: string | null }
  | { next: 'secondFactor' }
  | { next: 'enrolment' };

export interface SessionContextValue {
  state: SessionState;
  /**
   * How the gate offers sign-in (the provider's button, the password form), as the server's
   * signed-out status said; null until it has said so in this page.
   */
  signInOptions: SignInOptions | null;
  /**
   * Resolves once signed in (with the end of the grace of a second factor the role requires, if
   * any), or once the password is accepted and a code is asked for (`secondFactor`), or setting up
   * a second factor is (`enrolment`); rejects with an ApiError (401 for a wrong user name or
   * password).
   */
  signIn: (username: string, password: string) => Promise<SignInOutcome>;
  /** The second step: resolves once signed in; rejects with an ApiError (401 for a wrong code). */
  answerSecondFactor: (code: string) => Promise<void>;
  /**
   * Enrolment at sign-in: confirms the new factor with a code. The session has begun when it
   * resolves, with the recovery codes to show; `enter` then opens the app. Rejects with an
   * ApiError (400 for a wrong code, 401 when the sign-in has expired).
   */
  confirmEnrolment: (code: string) => Promise<{ recoveryCodes: string[]; enter: () => void }>;
  /** The signed-in user set up a second factor: its requirement no longer applies. */
  secondFactorEnrolled: () => void;
  /**
   * Ends the session on the server, then shows the gate; without a network it ends it on this
   * device at once and on the server when it is reached. After a sign-in through the
   * organisation's provider that has a sign-out page, the browser goes there, and comes back to
   * the gate. Rejects when the server refuses.
   */
  signOut: () => Promise<void>;
}

export const SessionContext = createContext<SessionContextValue | null>(null);
