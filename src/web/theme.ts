import {
  createTheme,
  type CSSVariablesResolver,
  type ModalProps,
  type NotificationProps,
} from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  // Shade 6 with white text is below the WCAG AA contrast ratio of 4.5:1; shade 8 meets it.
  primaryShade: { light: 8, dark: 8 },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  components: {
    // Mantine's close button is an icon without a name. Written out rather than through
    // Modal.extend, which would put the modal's code in the first download.
    Modal: {
      defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } satisfies Partial<ModalProps>,
    },
    // A badge never cuts its word short ('691 days o…'): in a tight table column it keeps its
    // width and the table scrolls in its own box instead.
    Badge: { styles: { root: { minWidth: 'max-content' } } },
    // Every notification's close button, wherever it is shown from, says what it closes.
    Notification: {
      defaultProps: {
        closeButtonProps: { 'aria-label': 'Close notification' },
      } satisfies Partial<NotificationProps>,
      // Under a title Mantine greys the message to gray 6 (3.3:1 on white); the dimmed colour
      // below meets 4.5:1.
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    },
  },
});

/**
 * Mantine's light-scheme dimmed, link and error texts fall below 4.5:1 on white; these meet it.
 * Light blue text (shade 9) on its hover background (shade 2) is 4.0:1, as on the hovered active
 * navigation item; this darker blue is 5.6:1 there.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-anchor': 'var(--mantine-color-blue-8)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-color-blue-light-color': '#124e86',
  },
  dark: {},
});
