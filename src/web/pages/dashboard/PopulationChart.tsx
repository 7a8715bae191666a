import { useRef } from 'react';
import { Box } from '@mantine/core';
import { CONDITION_DISPLAY_NAMES } from '../../../engine/index.ts';
import type { Population } from '../../../shared/api/population.ts';
import { LazyBarChart } from '../../components/charts/LazyBarChart.tsx';
import { useNearViewport } from '../../hooks/useNearViewport.ts';
import { populationStatusLabels, riskStatusColors, riskStatusOrder } from './riskStatusStyle.ts';

const series = riskStatusOrder.map((status) => ({
  name: status,
  label: populationStatusLabels[status],
  color: riskStatusColors[status],
}));

const height = 260;

/**
 * The population panel's stacked bars, one per condition, in the spec's status colours. The
 * panel sits below the fold, so the chart is drawn only when it is scrolled towards.
 */
export function PopulationChart({ population }: { population: Population }) {
  const placeholder = useRef<HTMLDivElement>(null);
  const near = useNearViewport(placeholder);
  const data = population.conditions.map(({ condition, counts }) => ({
    condition: CONDITION_DISPLAY_NAMES[condition],
    ...counts,
  }));
  return (
    // The table below carries the same numbers for screen readers and keyboard users.
    <Box ref={placeholder} mih={height} aria-hidden>
      {near && (
        <LazyBarChart
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
      )}
    </Box>
  );
}
