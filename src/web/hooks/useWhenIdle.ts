import { useEffect } from 'react';

/**
 * Calls `work` once, when the browser is first idle after the component mounts (at the latest
 * after `timeoutMs`): for loading what the first view does not need without delaying it.
 */
export function useWhenIdle(work: () => void, timeoutMs = 3000): void {
  useEffect(() => {
    // Safari has no requestIdleCallback.
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(work, { timeout: timeoutMs });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(work, Math.min(1000, timeoutMs));
    return () => window.clearTimeout(timer);
  }, [work, timeoutMs]);
}
