import { Stack, Text } from '@mantine/core';
import { productTexts } from '../../shared/texts.ts';

/**
 * The provider line and the audience notice. The gate gives guidelines version 2.2 and the main
 * page 2.0 (spec section 1 keeps both readings).
 */
export function AppFooter({
  guidelinesVersion = productTexts.guidelinesVersion,
}: {
  guidelinesVersion?: string;
}) {
  return (
    <Stack gap={2} align="center" justify="center" h="100%" ta="center">
      <Text size="sm">
        {productTexts.systemName} {productTexts.systemVersion} · {guidelinesVersion}
      </Text>
      <Text size="sm" c="dimmed">
        {productTexts.authorizedOnly}
      </Text>
    </Stack>
  );
}
