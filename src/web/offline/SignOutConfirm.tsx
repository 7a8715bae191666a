import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import type { OutboxEntry } from './outbox.ts';
import { offlineTexts } from './texts.ts';
import { entryLabel } from './WaitingUploads.tsx';

/** Asked before signing out while saves wait to upload, naming each of them. */
export function SignOutConfirm({
  entries,
  opened,
  onCancel,
  onConfirm,
}: {
  entries: OutboxEntry[];
  opened: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onCancel} title={offlineTexts.signOutTitle}>
      <Stack gap="md">
        <Text size="sm">{offlineTexts.signOutBody}</Text>
        <List size="sm">
          {entries.map((entry) => (
            <List.Item key={entry.id}>
              {entryLabel(entry)}
              {entry.refusal === null ? '' : ` (${offlineTexts.refusedStatus})`}
            </List.Item>
          ))}
        </List>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel} data-autofocus>
            {offlineTexts.stayTitle}
          </Button>
          <Button color="red" onClick={onConfirm}>
            {offlineTexts.signOutAnyway}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
