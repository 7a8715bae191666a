import { Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { CONDITION_DISPLAY_NAMES, type ConditionResult } from '../../../engine/index.ts';
import { needsAttention } from './display.ts';
import { formatScore } from '../../../shared/display.ts';
import { RiskStatusBadge } from './RiskStatusBadge.tsx';

/** 'Conditions Requiring Attention': only High, Moderate and Diagnosed (spec 2.6). */
export function AttentionGrid({ conditions }: { conditions: readonly ConditionResult[] }) {
  const flagged = conditions.filter((c) => needsAttention(c.riskStatus));
  return (
    <Stack gap="xs" component="section" aria-labelledby="attention-heading">
      <Title order={2} size="h3" id="attention-heading">
        Conditions Requiring Attention
      </Title>
      {flagged.length === 0 ? (
        <Text>No conditions require attention.</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
          {flagged.map((result) => (
            <Card key={result.condition} withBorder padding="sm" radius="md">
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text fw={700}>{CONDITION_DISPLAY_NAMES[result.condition]}</Text>
                <RiskStatusBadge status={result.riskStatus} />
              </Group>
              <Text size="sm" mt={4}>
                Score {formatScore(result.totalScore)} · {result.factorCount}{' '}
                {result.factorCount === 1 ? 'factor' : 'factors'}, threshold{' '}
                {result.details.threshold}
              </Text>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
