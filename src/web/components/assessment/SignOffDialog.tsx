import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { wizardTexts } from './messages.ts';

/** The confirmation sign-off needs (spec 5). */
export function SignOffDialog({
  opened,
  signingOff,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  signingOff: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Sign Off Results" centered>
      <Stack gap="md">
        <Text>{wizardTexts.signOffConfirm}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={signingOff}>
            Cancel
          </Button>
          <Button color="grape.9" onClick={onConfirm} loading={signingOff}>
            Sign Off
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
