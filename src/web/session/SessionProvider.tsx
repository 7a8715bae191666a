import {
  startTransition,
  useCallback,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { ApiError, onSignedOut } from '../api/client.ts';
import type { SessionResponse, SignInOptions } from '../../shared/api/session.ts';
import { confirmSignInEnrolment } from '../api/second-factor.ts';
import {
  createSession,
  getSessionStatus,
  sendSecondFactorCode,
  signOutOfSession,
} from '../api/session.ts';
import { forgetUser, keepUser, keptUser } from '../offline/keptUser.ts';
import { lockOutboxes } from '../offline/outboxKeys.ts';
import { clearAssessmentDraft } from '../assessment/draft.ts';
import { clearAuthFlag, readAuthFlag, setAuthFlag } from './authFlag.ts';
import { keepClinicTimeZone } from './clinicCalendar.ts';
import {
  clearServerSignOutPending,
  endPendingServerSession,
  markServerSignOutPending,
  serverSignOutPending,
} from './pendingSignOut.ts';
import { SessionContext, type SessionContextValue } from './SessionContext.ts';
import { noticeForFailedCheck, noticeForNoSession, sessionReducer } from './sessionState.ts';

/** The spec's login check delay (section 9.1): 'Authenticating...' shows at least this long. */
export const minimumCheckMs = 500;

/**
 * Opens the user's outbox key with the password the server has just accepted (making the key
 * the first time). The password goes no further: it is neither kept nor sent anywhere else.
 */
async function unlockAtSignIn(userId: string, password: string): Promise<void> {
  const [{ idbOfflineStore }, { unlockOutbox }] = await Promise.all([
    import('../offline/idbOfflineStore.ts'),
    import('../offline/outboxKeys.ts'),
  ]);
  await unlockOutbox(idbOfflineStore, userId, password, { create: true });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(sessionReducer, { status: 'checking' });
  const [signInOptions, setSignInOptions] = useState<SignInOptions | null>(null);
  /** The password of a sign-in whose session has not started yet (a second step may follow). */
  const signInPassword = useRef<string | null>(null);

  useEffect(() => {
    if (serverSignOutPending()) {
      // Signed out offline: the cookie may still be good, but this device stays signed out.
      void endPendingServerSession();
      dispatch({ type: 'signedOut', notice: null });
      return;
    }
    const controller = new AbortController();
    const flagWasSet = readAuthFlag();
    getSessionStatus(controller.signal).then(
      (status) => {
        if (controller.signal.aborted) return;
        if (!status.signedIn) {
          setSignInOptions(status.signIn);
          clearAuthFlag();
          forgetUser();
          dispatch({ type: 'signedOut', notice: noticeForNoSession(flagWasSet) });
          return;
        }
        const { user, secondFactorRequiredBy } = status;
        setAuthFlag();
        keepUser(user);
        keepClinicTimeZone(status.timeZone);
        // The first view is the app's largest render; as a transition React renders it in
        // slices between which the page stays responsive, keeping the loading view till done.
        startTransition(() => dispatch({ type: 'signedIn', user, secondFactorRequiredBy }));
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // Offline, the user of a session not ended on this device goes on working; the server
        // asks again for a sign-in when it is reached if the session has ended meanwhile.
        const offlineUser =
          error instanceof ApiError && error.code === 'network' && flagWasSet ? keptUser() : null;
        if (offlineUser !== null) {
          dispatch({ type: 'signedIn', user: offlineUser });
          return;
        }
        clearAuthFlag();
        forgetUser();
        dispatch({ type: 'signedOut', notice: noticeForFailedCheck(error, flagWasSet) });
      },
    );
    return () => controller.abort();
  }, []);

  // The server's half of a sign-out made offline is sent as soon as there is a connection.
  useEffect(() => {
    const send = () => void endPendingServerSession();
    window.addEventListener('online', send);
    return () => window.removeEventListener('online', send);
  }, []);

  useEffect(
    () =>
      onSignedOut(() => {
        clearAuthFlag();
        forgetUser();
        lockOutboxes();
        dispatch({ type: 'expired' });
      }),
    [],
  );

  const signedIn = useCallback(({ user, secondFactorRequiredBy, timeZone }: SessionResponse) => {
    const password = signInPassword.current;
    signInPassword.current = null;
    // Saves cannot be kept offline while this fails; they say so, and none is lost.
    if (password !== null) unlockAtSignIn(user.id, password).catch(() => undefined);
    clearServerSignOutPending();
    setAuthFlag();
    keepUser(user);
    keepClinicTimeZone(timeZone);
    dispatch({ type: 'signedIn', user, secondFactorRequiredBy });
  }, []);

  const signIn = useCallback(
    async (username: string, password: string) => {
      // An owed DELETE sent after the new cookie was set would end the new session instead.
      await endPendingServerSession();
      signInPassword.current = null;
      const [outcome] = await Promise.allSettled([
        createSession(username, password),
        delay(minimumCheckMs),
      ]);
      if (outcome.status === 'rejected') throw outcome.reason;
      signInPassword.current = password;
      const answer = outcome.value;
      if ('secondFactorRequired' in answer) return { next: 'secondFactor' } as const;
      if ('secondFactorEnrolmentRequired' in answer) return { next: 'enrolment' } as const;
      signedIn(answer);
      return {
        next: 'signedIn',
        user: answer.user,
        secondFactorRequiredBy: answer.secondFactorRequiredBy,
      } as const;
    },
    [signedIn],
  );

  const answerSecondFactor = useCallback(
    async (code: string) => {
      const [outcome] = await Promise.allSettled([
        sendSecondFactorCode(code),
        delay(minimumCheckMs),
      ]);
      if (outcome.status === 'rejected') throw outcome.reason;
      signedIn(outcome.value);
    },
    [signedIn],
  );

  const confirmEnrolment = useCallback(
    async (code: string) => {
      const [outcome] = await Promise.allSettled([
        confirmSignInEnrolment(code),
        delay(minimumCheckMs),
      ]);
      if (outcome.status === 'rejected') throw outcome.reason;
      const { recoveryCodes, ...answer } = outcome.value;
      return { recoveryCodes, enter: () => signedIn({ ...answer, secondFactorRequiredBy: null }) };
    },
    [signedIn],
  );

  const secondFactorEnrolled = useCallback(() => dispatch({ type: 'secondFactorEnrolled' }), []);

  const signOut = useCallback(async () => {
    let providerSignOutUrl: string | null = null;
    try {
      providerSignOutUrl = await signOutOfSession();
    } catch (error) {
      // Without a network the device signs out now and the server's session ends when it is
      // reached; a 401 means the session had already ended, which is what signing out wants.
      if (error instanceof ApiError && error.code === 'network') markServerSignOutPending();
      else if (!(error instanceof ApiError && error.status === 401)) throw error;
    }
    clearAuthFlag();
    forgetUser();
    lockOutboxes();
    signInPassword.current = null;
    clearAssessmentDraft(); // An assessment in progress is not left in the tab for the next user.
    dispatch({ type: 'signedOut', notice: null });
    // The provider signs out too, and sends the browser back to the gate.
    if (providerSignOutUrl !== null) window.location.assign(providerSignOutUrl);
  }, []);

  const value = useMemo<SessionContextValue>(
    () => ({
      state,
      signInOptions,
      signIn,
      answerSecondFactor,
      confirmEnrolment,
      secondFactorEnrolled,
      signOut,
    }),
    [
      state,
      signInOptions,
      signIn,
      answerSecondFactor,
      confirmEnrolment,
      secondFactorEnrolled,
      signOut,
    ],
  );
  return <SessionContext value={value}>{children}</SessionContext>;
}
