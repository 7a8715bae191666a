import { lazy, Suspense } from 'react';
import type { LineChartProps } from '@mantine/charts';
import { Box } from '@mantine/core';

// Recharts is the largest part of the app's JavaScript and no view needs it to first paint.
const LineChart = lazy(() => import('./lineChart.ts'));

/**
 * Mantine's LineChart, loaded with the first chart drawn. Until then an empty box of the chart's
 * height holds its place, so nothing below it moves when it arrives.
 */
export function LazyLineChart(props: LineChartProps & { h: number }) {
  return (
    <Suspense fallback={<Box h={props.h} />}>
      <LineChart {...props} />
    </Suspense>
  );
}
