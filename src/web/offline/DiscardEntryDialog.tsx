import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { offlineTexts } from './texts.ts';

/** Asks before an outbox entry, which has not reached the server, is thrown away. */
export function DiscardEntryDialog({
  label,
  onCancel,
  onConfirm,
}: {
  label: string;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Modal opened onClose={onCancel} title={offlineTexts.discardTitle}>
      <Stack gap="md">
        <Text size="sm">{label}</Text>
        <Text size="sm">{offlineTexts.discardBody}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            {offlineTexts.cancel}
          </Button>
          <Button color="red" onClick={onConfirm}>
            {offlineTexts.discard}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
