import { createContext } from 'react';

/** The global error banner (spec section 2.8): one message at a time, until dismissed. */
export interface ErrorBannerValue {
  /** Shows the friendly message for the failure's cause (network, database, validation, sign-in). */
  showError: (error: unknown) => void;
  /** Shows a message the view words itself, such as the spec's bulk report failure. */
  showMessage: (message: string) => void;
  dismiss: () => void;
}

export const ErrorBannerContext = createContext<ErrorBannerValue | null>(null);
