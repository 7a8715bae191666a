import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Box } from '@mantine/core';
import { CONDITION_DISPLAY_NAMES } from '../../../engine/index.ts';
import type { Population } from '../../../shared/api/population.ts';
import { populationStatusLabels, riskStatusColors, riskStatusOrder } from './riskStatusStyle.ts';

const series = riskStatusOrder.map((status) => ({
  name: status,
  label: populationStatusLabels[status],
  color: riskStatusColors[status],
}));

/** The population panel's stacked bars, one per condition, in the spec's status colours. */
export function PopulationChart({
  population,
  height,
}: {
  population: Population;
  height: number;
}) {
  const data = population.conditions.map(({ condition, counts }) => ({
    condition: CONDITION_DISPLAY_NAMES[condition],
    ...counts,
  }));
  return (
    // The table below carries the same numbers for screen readers and keyboard users.
    <Box aria-hidden>
      <BarChart
        h={height}
        data={data}
        dataKey="condition"
        type="stacked"
        orientation="vertical"
        series={series}
        withLegend
        legendProps={{ verticalAlign: 'bottom', itemSorter: null }}
        yAxisProps={{ width: 110, interval: 0 }}
        xAxisProps={{ allowDecimals: false, domain: [0, 'dataMax'] }}
        gridAxis="none"
        barChartProps={{ accessibilityLayer: false }}
        tooltipAnimationDuration={0}
      />
    </Box>
  );
}
