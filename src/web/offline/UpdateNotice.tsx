import { Button, Group, Paper, Text } from '@mantine/core';
import { useRegisterSW } from 'virtual:pwa-register/react';
import { offlineTexts } from './texts.ts';

/**
 * Activates the waiting worker and reloads once it controls the page. The plugin reloads only for
 * an update it found itself; one the browser found while the tab stayed open needs this.
 */
function switchToNewVersion(updateServiceWorker: (reloadPage?: boolean) => Promise<void>): void {
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
    once: true,
  });
  void updateServiceWorker(true);
}

/**
 * Registers the service worker and, when a new version of the app is waiting, says so with a
 * button that switches to it (never on its own: a form being filled would be reloaded away).
 */
export function UpdateNotice() {
  // Registered after the page's load event, so that the worker's precaching does not compete with
  // the first view for the network.
  const {
    needRefresh: [needRefresh],
    updateServiceWorker,
  } = useRegisterSW({ immediate: false });
  if (!needRefresh) return null;
  return (
    <Paper
      role="status"
      withBorder
      shadow="md"
      p="sm"
      radius="md"
      pos="fixed"
      bottom={16}
      left={16}
      style={{ zIndex: 1000 }}
    >
      <Group gap="sm">
        <Text size="sm">{offlineTexts.updateReady}</Text>
        <Button size="xs" onClick={() => switchToNewVersion(updateServiceWorker)}>
          {offlineTexts.reload}
        </Button>
      </Group>
    </Paper>
  );
}
