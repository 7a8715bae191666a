import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { Alert, Box } from '@mantine/core';
import { ErrorBannerContext, type ErrorBannerValue } from './ErrorBannerContext.ts';
import { friendlyMessageFor } from './friendlyMessage.ts';

/**
 * Holds the global error banner and shows it above every view, the gate included. It floats at
 * the top of the window so that it is seen wherever the user has scrolled to.
 */
export function ErrorBannerProvider({ children }: { children: ReactNode }) {
  const [message, setMessage] = useState<string | null>(null);
  const showError = useCallback((error: unknown) => setMessage(friendlyMessageFor(error)), []);
  const dismiss = useCallback(() => setMessage(null), []);
  const value = useMemo<ErrorBannerValue>(
    () => ({ showError, showMessage: setMessage, dismiss }),
    [showError, dismiss],
  );

  return (
    <ErrorBannerContext value={value}>
      {children}
      {message !== null && (
        <Box
          pos="fixed"
          top={8}
          left="50%"
          w="min(40rem, calc(100% - 1rem))"
          style={{ transform: 'translateX(-50%)', zIndex: 1000 }}
        >
          <Alert
            color="red"
            variant="light"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={dismiss}
            styles={{
              root: {
                border: '1px solid var(--mantine-color-red-7)',
                boxShadow: 'var(--mantine-shadow-md)',
              },
            }}
          >
            {message}
          </Alert>
        </Box>
      )}
    </ErrorBannerContext>
  );
}
