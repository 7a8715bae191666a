import { Link } from 'react-router';
import { Anchor, Container, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../hooks/usePageTitle.ts';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <Container size="lg">
      <Stack gap="sm">
        <Title order={1}>Page not found</Title>
        <Text>There is no page at this address.</Text>
        <Anchor component={Link} to="/">
          Go to the dashboard
        </Anchor>
      </Stack>
    </Container>
  );
}
