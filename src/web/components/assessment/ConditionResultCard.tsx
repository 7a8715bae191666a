import { Card, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import { CONDITION_DISPLAY_NAMES, type ConditionResult } from '../../../engine/index.ts';
import { symptomContribution } from './display.ts';
import { formatComorbidity, formatScore } from '../../../shared/display.ts';
import { Figure } from './Figure.tsx';
import { RiskStatusBadge } from './RiskStatusBadge.tsx';

/**
 * One condition's result (spec 2.6): total score, factor count against the threshold, status, the
 * score breakdown with the management cap, each contribution and the interpretation.
 */
export function ConditionResultCard({ result }: { result: ConditionResult }) {
  const name = CONDITION_DISPLAY_NAMES[result.condition];
  const { components, details } = result;
  const headingId = `result-${result.condition}`;
  return (
    <Card withBorder padding="md" radius="md" component="section" aria-labelledby={headingId}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={3} size="h4" id={headingId}>
            {name}
          </Title>
          <RiskStatusBadge status={result.riskStatus} />
        </Group>
        <Group gap="xl" wrap="wrap">
          <Figure label="Total score">{formatScore(result.totalScore)}</Figure>
          <Figure label="Factor count / threshold">
            {result.factorCount} / {details.threshold}
          </Figure>
        </Group>

        <Table withRowBorders={false} verticalSpacing={2} fz="sm">
          <Table.Caption style={{ captionSide: 'top', textAlign: 'left' }}>
            Score breakdown
          </Table.Caption>
          <Table.Tbody>
            <BreakdownRow label="Symptom score" value={formatScore(components.symptomScore)} />
            <BreakdownRow
              label="Risk factor score"
              value={formatScore(components.riskFactorScore)}
            />
            <BreakdownRow
              label="Comorbidity score"
              value={formatComorbidity(components.comorbidityScore)}
            />
            <BreakdownRow
              label={
                details.managementCap === undefined
                  ? 'Management score'
                  : `Management score (cap ${formatScore(details.managementCap)})`
              }
              value={formatScore(components.managementScore)}
            />
            <Table.Tr>
              <Table.Th scope="row">Total</Table.Th>
              <Table.Td ta="right" fw={700}>
                {formatScore(result.totalScore)}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>

        <div>
          <Text size="sm" fw={600}>
            Symptoms
          </Text>
          {details.symptoms.length === 0 ? (
            <Text size="sm" c="dimmed">
              None counted
            </Text>
          ) : (
            <List size="sm" spacing={2}>
              {details.symptoms.map((symptom) => (
                <List.Item key={symptom.name}>{symptomContribution(symptom)}</List.Item>
              ))}
            </List>
          )}
        </div>
        <div>
          <Text size="sm" fw={600}>
            Risk factors
          </Text>
          {details.riskFactors.length === 0 ? (
            <Text size="sm" c="dimmed">
              None applicable
            </Text>
          ) : (
            <List size="sm" spacing={2}>
              {details.riskFactors.map((factor) => (
                <List.Item key={factor.name}>
                  {factor.name}: {formatScore(factor.weight)}
                </List.Item>
              ))}
            </List>
          )}
        </div>
        <div>
          <Text size="sm" fw={600}>
            Clinical interpretation
          </Text>
          <Text size="sm">{result.interpretation}</Text>
        </div>
      </Stack>
    </Card>
  );
}

function BreakdownRow({ label, value }: { label: string; value: string }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" fw={400}>
        {label}
      </Table.Th>
      <Table.Td ta="right">{value}</Table.Td>
    </Table.Tr>
  );
}
