import { Stack, Text, Title } from '@mantine/core';
import { CONDITION_DISPLAY_NAMES, type ConditionResult } from '../../../engine/index.ts';
import { LazyBarChart } from '../charts/LazyBarChart.tsx';

/** Each condition's factor count beside its threshold; the cards above give the same numbers. */
export function FactorCountChart({ conditions }: { conditions: readonly ConditionResult[] }) {
  const data = conditions.map((c) => ({
    condition: CONDITION_DISPLAY_NAMES[c.condition],
    'Factor count': c.factorCount,
    Threshold: c.details.threshold,
  }));
  const summary = conditions
    .map(
      (c) => `${CONDITION_DISPLAY_NAMES[c.condition]} ${c.factorCount} of ${c.details.threshold}`,
    )
    .join(', ');
  return (
    <Stack gap="xs" component="figure" m={0} aria-labelledby="factor-chart-heading">
      <Title order={2} size="h3" id="factor-chart-heading">
        Factor Count vs Threshold
      </Title>
      <Text size="sm" c="dimmed" component="figcaption">
        Factor count against threshold: {summary}.
      </Text>
      <LazyBarChart
        h={340}
        data={data}
        dataKey="condition"
        orientation="vertical"
        series={[
          { name: 'Factor count', color: 'blue.8' },
          { name: 'Threshold', color: 'gray.6' },
        ]}
        withLegend
        gridAxis="y"
        xAxisProps={{ allowDecimals: false }}
        yAxisProps={{ width: 110, interval: 0 }}
        // The caption above carries the numbers; the drawing is left out for screen readers.
        accessibilityLayer={false}
        withTooltip={false}
        aria-hidden="true"
      />
    </Stack>
  );
}
