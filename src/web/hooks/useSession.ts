import { use } from 'react';
import type { SessionUser } from '../../shared/api/session.ts';
import { SessionContext, type SessionContextValue } from '../session/SessionContext.ts';

export function useSession(): SessionContextValue {
  const session = use(SessionContext);
  if (session === null) throw new Error('useSession needs a SessionProvider above it');
  return session;
}

/** The signed-in user, for views that only render inside the signed-in shell. */
export function useSignedInUser(): SessionUser {
  const { state } = useSession();
  if (state.status !== 'signedIn') throw new Error('useSignedInUser needs a signed-in session');
  return state.user;
}
