/**
 * Browser tests need a render error on demand to prove the error screen and its Try Again, and
 * the app has none to offer. With `?renderError=1` in the address this component throws while
 * rendering; otherwise it renders nothing. Try Again and Restart App take the parameter out of the
 * address, so the retry renders normally.
 */
const forcedRenderErrorParameter = 'renderError';

export const forcedRenderErrorMessage = 'Forced render error (renderError=1)';

function forcedRenderErrorRequested(): boolean {
  return new URLSearchParams(window.location.search).get(forcedRenderErrorParameter) === '1';
}

export function ForcedRenderError(): null {
  if (forcedRenderErrorRequested()) throw new Error(forcedRenderErrorMessage);
  return null;
}

export function clearForcedRenderError(): void {
  if (!forcedRenderErrorRequested()) return;
  const url = new URL(window.location.href);
  url.searchParams.delete(forcedRenderErrorParameter);
  window.history.replaceState(window.history.state, '', url);
}
