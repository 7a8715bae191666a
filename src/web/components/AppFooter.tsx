import { Stack, Text } from '@mantine/core';
import { productTexts } from '../../shared/texts.ts';

export function AppFooter() {
  return (
    <Stack gap={2} align="center" justify="center" h="100%" component="footer">
      <Text size="sm">
        {productTexts.systemName} {productTexts.systemVersion} · {productTexts.guidelinesVersion}
      </Text>
      <Text size="sm" c="dimmed">
        {productTexts.authorizedOnly}
      </Text>
    </Stack>
  );
}
