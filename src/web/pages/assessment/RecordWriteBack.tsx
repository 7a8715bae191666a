import { useEffect, useRef } from 'react';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useRecordWriteBack } from '../../hooks/useRecordWriteBack.ts';

export const writeBackTexts = {
  sending: 'Sending to the record...',
  sent: 'Sent to the record.',
  failed: 'Not sent to the record',
  tryAgain: 'Try again',
} as const;

/**
 * Whether a saved assessment made from a launch went back into the record; nothing for any other
 * assessment. A failure says the server's sentence, with 'Try again' (the server makes no second
 * copy).
 */
export function RecordWriteBack({ assessmentId }: { assessmentId: string }) {
  const { view, attempt, tryAgain } = useRecordWriteBack(assessmentId);
  const failedAgain = view?.status === 'failed' && !view.tryingAgain && attempt > 0;
  const tryAgainButton = useRef<HTMLButtonElement>(null);
  // The button is disabled while it works, which takes the focus away: it gets it back.
  useEffect(() => {
    if (failedAgain) tryAgainButton.current?.focus();
  }, [failedAgain, attempt]);

  if (view === null) return null;
  switch (view.status) {
    case 'sending':
      return (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text>{writeBackTexts.sending}</Text>
        </Group>
      );
    case 'sent':
      return (
        <Alert color="green" role="status">
          {writeBackTexts.sent}
        </Alert>
      );
    case 'failed':
      return (
        <Alert color="red" title={writeBackTexts.failed}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{view.message}</Text>
            <Button ref={tryAgainButton} size="xs" loading={view.tryingAgain} onClick={tryAgain}>
              {writeBackTexts.tryAgain}
            </Button>
          </Stack>
        </Alert>
      );
  }
}
