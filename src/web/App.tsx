import { AppShell, Container, Stack, Text, Title } from '@mantine/core';
import { productTexts } from '../shared/texts.ts';
import { AppFooter } from './components/AppFooter.tsx';

export function App() {
  return (
    <AppShell header={{ height: 64 }} footer={{ height: 72 }} padding="md">
      <AppShell.Header px="md">
        <Stack justify="center" h="100%" gap={0}>
          <Title order={1} size="h3">
            {productTexts.systemName}
          </Title>
        </Stack>
      </AppShell.Header>
      <AppShell.Main>
        <Container size="lg">
          <Text>Clinical triage and decision support for six chronic conditions.</Text>
        </Container>
      </AppShell.Main>
      <AppShell.Footer>
        <AppFooter />
      </AppShell.Footer>
    </AppShell>
  );
}
