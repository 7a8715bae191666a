import { Alert, Card, Grid, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { CONDITION_DISPLAY_NAMES } from '../../../engine/index.ts';
import type { Population } from '../../../shared/api/population.ts';
import type { PopulationLoad } from '../../hooks/usePopulation.ts';
import { ScrollableTable } from '../../components/ScrollableTable.tsx';
import { PopulationChart } from './PopulationChart.tsx';
import { populationStatusLabels, riskStatusOrder } from './riskStatusStyle.ts';

/** Every condition counts each matching assessment once, so any one row's sum is the total. */
function assessmentCount(population: Population): number {
  const first = population.conditions[0];
  return first === undefined ? 0 : Object.values(first.counts).reduce((sum, n) => sum + n, 0);
}

function PopulationTable({ population }: { population: Population }) {
  return (
    <ScrollableTable label="Risk status counts" minWidth={420}>
      <Table striped verticalSpacing={4} horizontalSpacing="xs" fz="sm" captionSide="top">
        <Table.Caption ta="left">Assessments per risk status, by condition</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Condition</Table.Th>
            {riskStatusOrder.map((status) => (
              <Table.Th key={status} scope="col" ta="right">
                {populationStatusLabels[status]}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {population.conditions.map(({ condition, counts }) => (
            <Table.Tr key={condition}>
              <Table.Th scope="row" fw={400}>
                {CONDITION_DISPLAY_NAMES[condition]}
              </Table.Th>
              {riskStatusOrder.map((status) => (
                <Table.Td key={status} ta="right">
                  {counts[status]}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollableTable>
  );
}

/**
 * How many of the assessments in the current search and dates are High, Moderate, Low, Diagnosed
 * and Insufficient Data, for each condition: a stacked bar chart and the same numbers as a table.
 */
export function PopulationPanel({ load }: { load: PopulationLoad }) {
  const { population, loading, failure } = load;
  const count = population === null ? null : assessmentCount(population);
  return (
    <Card
      withBorder
      padding="md"
      radius="md"
      component="section"
      aria-labelledby="population-title"
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={3} size="h4" id="population-title">
            Population Risk Overview
          </Title>
          {loading && <Loader size="xs" aria-label="Updating the overview" />}
        </Group>
        {failure !== null && <Alert color="red">{failure}</Alert>}
        {count !== null && (
          <Text size="sm" c="dimmed">
            Risk status per condition for the {count} assessment{count === 1 ? '' : 's'} in the
            current search and dates.
          </Text>
        )}
        {population !== null && count !== null && count > 0 && (
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, lg: 5 }}>
              <PopulationChart population={population} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 7 }}>
              <PopulationTable population={population} />
            </Grid.Col>
          </Grid>
        )}
      </Stack>
    </Card>
  );
}
