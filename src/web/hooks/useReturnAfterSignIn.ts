import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { forgetReturnPath, keptReturnPath } from '../session/returnPath.ts';
import type { SessionState } from '../session/sessionState.ts';

/**
 * After a sign-in through the organisation's provider, which comes back to '/', opens the page the
 * gate stood in front of when the browser left (returnPath.ts), once. True while it does: the
 * dashboard is not rendered on the way. Any completed sign-in forgets the kept page, so that it
 * is never opened later by surprise.
 */
export function useReturnAfterSignIn(status: SessionState['status']): boolean {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [previous, setPrevious] = useState(status);
  const [returnTo, setReturnTo] = useState<string | null>(null);
  // Read as the status changes, during render, so that the first signed-in view is the right one.
  if (status !== previous) {
    setPrevious(status);
    setReturnTo(status === 'signedIn' && pathname === '/' ? keptReturnPath() : null);
  } else if (returnTo !== null && pathname !== '/') {
    // There now (or gone elsewhere): done.
    setReturnTo(null);
  }

  useEffect(() => {
    if (status === 'signedIn') forgetReturnPath();
  }, [status]);
  useEffect(() => {
    if (returnTo !== null) void navigate(returnTo, { replace: true });
  }, [returnTo, navigate]);
  return returnTo !== null;
}
