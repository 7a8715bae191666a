import { Group, Text } from '@mantine/core';
import { CONDITION_DISPLAY_NAMES } from '../../../engine/index.ts';
import type { WorklistCondition } from '../../../shared/api/worklists.ts';
import { RiskStatusBadge } from '../../components/assessment/RiskStatusBadge.tsx';

/** Each condition at High or Moderate beside its status badge. */
export function WorklistConditions({ conditions }: { conditions: readonly WorklistCondition[] }) {
  if (conditions.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        None at High or Moderate
      </Text>
    );
  }
  return (
    <Group gap="xs">
      {conditions.map((c) => (
        <Group key={c.condition} gap={4} wrap="nowrap">
          <Text size="sm">{CONDITION_DISPLAY_NAMES[c.condition]}</Text>
          <RiskStatusBadge status={c.riskStatus} />
        </Group>
      ))}
    </Group>
  );
}
