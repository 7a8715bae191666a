import { Badge, Group, Text } from '@mantine/core';
import { wizardTexts } from './messages.ts';

/** The assessment code on every step, and the read-only badge once signed off (spec 2.6). */
export function AssessmentBadges({ code, signedOff }: { code: string; signedOff: boolean }) {
  return (
    <Group gap="xs" wrap="wrap">
      <Text size="sm" c="dimmed" component="span">
        Assessment code
      </Text>
      <Badge variant="outline" color="blue.8" size="lg" style={{ textTransform: 'none' }}>
        {code}
      </Badge>
      {signedOff && (
        <Badge color="grape.9" size="lg" style={{ textTransform: 'none' }}>
          {wizardTexts.signedOffBadge}
        </Badge>
      )}
    </Group>
  );
}
