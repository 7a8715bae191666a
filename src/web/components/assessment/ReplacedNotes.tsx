import { Alert, Button, CopyButton, Group, Textarea } from '@mantine/core';

/**
 * After a reload replaced the user's notes with the stored ones, what they had typed stays here
 * to copy from, so nothing typed is lost.
 */
export function ReplacedNotes({ notes, onDismiss }: { notes: string; onDismiss: () => void }) {
  return (
    <Alert color="red" title="Your unsaved notes" role="region">
      The assessment was reloaded with the other person&apos;s changes. The notes you had typed were
      not saved; copy what you still need into Clinical Notes.
      <Textarea
        mt="sm"
        label="Notes you had typed"
        value={notes}
        readOnly
        autosize
        minRows={3}
        maxRows={10}
      />
      <Group mt="sm" gap="sm">
        <CopyButton value={notes}>
          {({ copied, copy }) => (
            <Button size="xs" variant="default" onClick={copy}>
              {copied ? 'Copied' : 'Copy notes'}
            </Button>
          )}
        </CopyButton>
        <Button size="xs" variant="subtle" onClick={onDismiss}>
          Dismiss
        </Button>
      </Group>
    </Alert>
  );
}
