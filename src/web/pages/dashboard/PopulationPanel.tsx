import { lazy, Suspense } from 'react';
import { Alert, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { Population } from '../../../shared/api/population.ts';
import { LoadingText } from '../../components/errors/LoadingText.tsx';
import type { PopulationLoad } from '../../hooks/usePopulation.ts';

// The panel sits below the fold; its chart and table (Mantine's table brings its scroll area
// and more) load after the first paint, once there are counts to show.
const PopulationFigures = lazy(() =>
  import('./PopulationFigures.tsx').then((module) => ({ default: module.PopulationFigures })),
);

/** Every condition counts each matching assessment once, so any one row's sum is the total. */
function assessmentCount(population: Population): number {
  const first = population.conditions[0];
  return first === undefined ? 0 : Object.values(first.counts).reduce((sum, n) => sum + n, 0);
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
          {loading && <Loader size="xs" role="img" aria-label="Updating the overview" />}
        </Group>
        {failure !== null && <Alert color="red">{failure}</Alert>}
        {count !== null && (
          <Text size="sm" c="dimmed">
            Risk status per condition for the {count} assessment{count === 1 ? '' : 's'} in the
            current search and dates.
          </Text>
        )}
        {population !== null && count !== null && count > 0 && (
          <Suspense fallback={<LoadingText />}>
            <PopulationFigures population={population} />
          </Suspense>
        )}
      </Stack>
    </Card>
  );
}
