import type { ReactNode } from 'react';
import { Alert, Button, Container, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { WorklistState } from '../../hooks/useWorklist.ts';

/** The title, the count, the loading and error states and 'Show more' around a worklist's table. */
export function WorklistFrame<T>({
  title,
  intro,
  state,
  empty,
  loadMore,
  retry,
  children,
}: {
  title: string;
  intro: ReactNode;
  state: WorklistState<T>;
  empty: string;
  loadMore: () => void;
  retry: () => void;
  children: (items: T[]) => ReactNode;
}) {
  return (
    <Container size="lg">
      <Stack gap="md">
        <Title order={1} size="h2">
          {title}
        </Title>
        {intro}
        {state.status === 'loading' && (
          <Group gap="sm" role="status">
            <Loader size="sm" aria-hidden />
            <Text>Loading...</Text>
          </Group>
        )}
        {state.status === 'failed' && (
          <Alert color="red" title={`Could not load ${title}`}>
            <Stack gap="sm" align="flex-start">
              <Text size="sm">{state.message}</Text>
              <Button size="xs" variant="default" onClick={retry}>
                Try Again
              </Button>
            </Stack>
          </Alert>
        )}
        {state.status === 'loaded' && (
          <>
            <Text size="sm" role="status">
              {state.total === 0 ? empty : `Showing ${state.items.length} of ${state.total}`}
            </Text>
            {state.items.length > 0 && children(state.items)}
            {state.nextCursor !== null && (
              <Group>
                <Button variant="default" loading={state.more} onClick={loadMore}>
                  Show more
                </Button>
              </Group>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}
