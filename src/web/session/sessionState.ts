import { incorrectPasswordMessage, type SessionUser } from '../../shared/api/session.ts';
import { friendlyMessages } from '../../shared/texts.ts';
import { ApiError } from '../api/client.ts';

/**
 * Whether someone is signed in, as the server says: `checking` until GET /api/session/status answers.
 * A signed-out state may carry a notice that tells the gate why it is back.
 */
export type SessionState =
  | { status: 'checking' }
  | { status: 'signedOut'; notice: string | null }
  | {
      status: 'signedIn';
      user: SessionUser;
      /** While the user's role requires a second factor they have not set up: the grace's end. */
      secondFactorRequiredBy?: string;
    };

export type SessionEvent =
  | { type: 'signedIn'; user: SessionUser; secondFactorRequiredBy?: string | null }
  /** The signed-in user set up a second factor: no longer required of them. */
  | { type: 'secondFactorEnrolled' }
  | { type: 'signedOut'; notice: string | null }
  /** The server answered 401 to a call made while signed in. */
  | { type: 'expired' };

export function sessionReducer(state: SessionState, event: SessionEvent): SessionState {
  switch (event.type) {
    case 'signedIn':
      return event.secondFactorRequiredBy == null
        ? { status: 'signedIn', user: event.user }
        : {
            status: 'signedIn',
            user: event.user,
            secondFactorRequiredBy: event.secondFactorRequiredBy,
          };
    case 'secondFactorEnrolled':
      return state.status === 'signedIn' ? { status: 'signedIn', user: state.user } : state;
    case 'signedOut':
      return { status: 'signedOut', notice: event.notice };
    case 'expired':
      // A 401 while checking or signed out only confirms what the app already shows.
      return state.status === 'signedIn'
        ? { status: 'signedOut', notice: friendlyMessages.auth }
        : state;
  }
}

/**
 * What the gate says when the session check on load finds no session: nothing on a first visit,
 * the sign-in-again message when the browser flag says this browser was signed in.
 */
export function noticeForNoSession(flagWasSet: boolean): string | null {
  return flagWasSet ? friendlyMessages.auth : null;
}

/**
 * What the gate says when the session check on load fails: as for no session on a 401, and the
 * failure's own message when the check itself failed (network, server).
 */
export function noticeForFailedCheck(error: unknown, flagWasSet: boolean): string | null {
  if (!(error instanceof ApiError)) return friendlyMessages.unexpected;
  if (error.status === 401) return noticeForNoSession(flagWasSet);
  return error.message;
}

/** What a failed sign-in says, and whether it was a refused login (which clears the password). */
export function signInFailure(error: unknown): { message: string; refused: boolean } {
  if (!(error instanceof ApiError)) return { message: friendlyMessages.unexpected, refused: false };
  if (error.status === 401) return { message: incorrectPasswordMessage, refused: true };
  return { message: error.message, refused: error.status === 429 };
}
