import { Center, Loader, Stack, Text } from '@mantine/core';

/** The spec's full-screen 'Loading...' state (section 2.8). */
export function FullScreenLoading() {
  return (
    <Center mih="100dvh" role="status">
      <Stack align="center" gap="sm">
        <Loader aria-hidden />
        <Text>Loading...</Text>
      </Stack>
    </Center>
  );
}
