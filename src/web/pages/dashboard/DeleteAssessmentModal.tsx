import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { AssessmentSummary } from '../../../shared/api/assessments.ts';

/** The spec's delete confirmation (section 5). */
export const deleteConfirmText = 'Are you sure you want to delete this assessment?';

export function DeleteAssessmentModal({
  target,
  opened,
  onCancel,
  onConfirm,
}: {
  target: AssessmentSummary | null;
  opened: boolean;
  onCancel: () => void;
  onConfirm: (row: AssessmentSummary) => void;
}) {
  return (
    <Modal opened={opened} onClose={onCancel} title="Delete assessment" centered>
      <Stack gap="md">
        <Text>{deleteConfirmText}</Text>
        {target !== null && (
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {target.code ?? target.id}
          </Text>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button
            color="red.8"
            onClick={() => {
              if (target !== null) onConfirm(target);
            }}
          >
            Delete
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
