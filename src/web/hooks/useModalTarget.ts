import { useCallback, useState } from 'react';

/**
 * A modal about one item. Closing keeps the item, so the modal's content stays put while its
 * closing transition runs.
 */
export function useModalTarget<T>() {
  const [state, setState] = useState<{ target: T | null; opened: boolean }>({
    target: null,
    opened: false,
  });
  const open = useCallback((target: T) => setState({ target, opened: true }), []);
  const close = useCallback(() => setState((current) => ({ ...current, opened: false })), []);
  return { target: state.target, opened: state.opened, open, close };
}
