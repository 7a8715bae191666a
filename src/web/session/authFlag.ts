/**
 * The browser flag `triage_authenticated` (decisions.md section 1): a UI hint that this browser
 * was signed in, never a grant of access. Storage can throw when the browser blocks it, and the
 * hint is not worth failing for.
 */
const flagKey = 'triage_authenticated';

export function readAuthFlag(): boolean {
  try {
    return localStorage.getItem(flagKey) === 'true';
  } catch {
    return false;
  }
}

export function setAuthFlag(): void {
  try {
    localStorage.setItem(flagKey, 'true');
  } catch {
    // The flag is only a hint.
  }
}

export function clearAuthFlag(): void {
  try {
    localStorage.removeItem(flagKey);
  } catch {
    // The flag is only a hint.
  }
}
