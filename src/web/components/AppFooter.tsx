import { Stack, Text } from '@mantine/core';
import { productTexts } from '../../shared/texts.ts';

/**
 * How the main page's footer names the rules saves score with (decisions.md section 3): the
 * shipped default reads 'Clinical Guidelines Version 2.0', as the spec words it.
 */
export function guidelinesVersionText(version: string): string {
  return `Clinical Guidelines Version ${version}`;
}

/**
 * The provider line and the audience notice. The gate gives guidelines version 2.2 (spec section
 * 1); the main page names the active rule set's version, and leaves it out until it is known.
 */
export function AppFooter({ guidelinesVersion }: { guidelinesVersion: string | undefined }) {
  return (
    <Stack gap={2} align="center" justify="center" h="100%" ta="center">
      <Text size="sm">
        {productTexts.systemName} {productTexts.systemVersion}
        {guidelinesVersion !== undefined && ` · ${guidelinesVersion}`}
      </Text>
      <Text size="sm" c="dimmed">
        {productTexts.authorizedOnly}
      </Text>
    </Stack>
  );
}
