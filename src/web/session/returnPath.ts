/**
 * Sign-in through the organisation's provider leaves the app and comes back to '/'. The page the
 * gate stood in front of (a launch from a record system, a linked assessment) is kept in the
 * tab's session storage as the browser leaves, and opened once the sign-in completes. Only a path
 * of this origin is ever kept or opened: a stored value is no place to send the browser elsewhere.
 */
const returnPathKey = 'triage.returnAfterSignIn';

export type ReturnPathStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const probeOrigin = 'https://app.invalid';

/**
 * The path itself when it is a same-origin path to return to: it starts with one '/', names no
 * other host (no '//' or '/\', which browsers read as one), holds no control characters or
 * backslashes, and is not the dashboard (where the sign-in comes back anyway) or the API.
 */
export function safeReturnPath(path: unknown): string | null {
  if (typeof path !== 'string' || path.length > 2000) return null;
  if (!path.startsWith('/') || path.startsWith('//')) return null;
  if (/[\\\s\p{Cc}]/u.test(path)) return null;
  let url: URL;
  try {
    url = new URL(path, probeOrigin);
  } catch {
    return null;
  }
  if (url.origin !== probeOrigin) return null;
  if (url.pathname === '/' || url.pathname === '/api' || url.pathname.startsWith('/api/')) {
    return null;
  }
  return path;
}

/**
 * Keeps the page to come back to, as the browser leaves for the provider. Leaving from '/' (the
 * gate after a refused provider sign-in) keeps the page kept before, so that trying again still
 * comes back there.
 */
export function keepReturnPath(path: string, storage: ReturnPathStorage = sessionStorage): void {
  const safe = safeReturnPath(path);
  if (safe === null) return;
  try {
    storage.setItem(returnPathKey, safe);
  } catch {
    // Without storage the sign-in comes back to the dashboard, as before.
  }
}

/** The page to come back to after the sign-in, if one is kept (read only: see forgetReturnPath). */
export function keptReturnPath(storage: ReturnPathStorage = sessionStorage): string | null {
  try {
    return safeReturnPath(storage.getItem(returnPathKey));
  } catch {
    return null;
  }
}

/** A sign-in completed: the kept page is opened at most once. */
export function forgetReturnPath(storage: ReturnPathStorage = sessionStorage): void {
  try {
    storage.removeItem(returnPathKey);
  } catch {
    // Nothing was kept.
  }
}
