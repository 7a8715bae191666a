import { useState } from 'react';
import { Button, Center, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';

/** The spec's error screen texts (section 2.2). */
export const errorScreenTexts = {
  title: 'Something went wrong',
  unknownError: 'Unknown error occurred',
  support: 'If this problem persists, please contact technical support',
  logged: 'This error has been logged.',
} as const;

/** The full-page error screen an uncaught rendering error shows (spec section 2.2). */
export function ErrorScreen({
  message,
  errorId,
  onTryAgain,
  onRestart,
}: {
  message: string;
  errorId: string;
  onTryAgain: () => void;
  /** Ends the session and reloads; never resolves when it works. */
  onRestart: () => Promise<void>;
}) {
  const [restarting, setRestarting] = useState(false);

  return (
    <Center mih="100dvh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" maw={560} w="100%">
        <Stack gap="md">
          <Title order={1} size="h2">
            {errorScreenTexts.title}
          </Title>
          <Text style={{ overflowWrap: 'anywhere' }}>
            {message || errorScreenTexts.unknownError}
          </Text>
          <Group gap="sm">
            <Button onClick={onTryAgain} disabled={restarting}>
              Try Again
            </Button>
            <Button
              variant="default"
              loading={restarting}
              onClick={() => {
                setRestarting(true);
                void onRestart();
              }}
            >
              Restart App
            </Button>
          </Group>
          <Text size="sm">{errorScreenTexts.support}</Text>
          <Text size="sm" c="dimmed">
            {errorScreenTexts.logged} Error ID: <Code>{errorId}</Code>
          </Text>
        </Stack>
      </Paper>
    </Center>
  );
}
