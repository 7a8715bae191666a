import { useMemo } from 'react';
import {
  Box,
  Card,
  getThemeColor,
  SimpleGrid,
  Text,
  Title,
  useMantineTheme,
  VisuallyHidden,
} from '@mantine/core';
import { CONDITION_DISPLAY_NAMES, CONDITIONS, type Condition } from '../../../engine/index.ts';
import type { PatientAssessment } from '../../../shared/api/patients.ts';
import { formatBmi } from '../../../shared/display.ts';
import { LazyLineChart } from '../../components/charts/LazyLineChart.tsx';
import { riskStatusColors } from '../../components/assessment/display.ts';
import {
  axisLabels,
  bmiAxis,
  bmiPoints,
  bmiShortSummary,
  bmiThreshold,
  bmiSummary,
  statusAxisLabel,
  statusAxisTicks,
  statusChartCaption,
  statusPoints,
  statusShortSummary,
  unknownLevel,
  type DateFormatters,
  type StatusPoint,
} from './patientTimeline.ts';

const dayFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dayAndTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
});

const dayAndSecondFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'medium',
});

const dateFormatters: DateFormatters = {
  date: (iso) => dayFormat.format(new Date(iso)),
  dateTime: (iso) => dayAndTimeFormat.format(new Date(iso)),
  dateTimeSeconds: (iso) => dayAndSecondFormat.format(new Date(iso)),
};

/**
 * A chart's caption: one short line to see, the whole description for screen readers (the
 * drawing is hidden from them), and that description shown on request.
 */
function ChartCaption({ short, full }: { short: string; full: string }) {
  return (
    <Box component="figcaption" mb="xs">
      <VisuallyHidden>{full}</VisuallyHidden>
      <Text size="sm" c="dimmed" aria-hidden>
        {short}
      </Text>
      <details>
        <Text component="summary" size="sm" c="dimmed" style={{ cursor: 'pointer' }}>
          Details
        </Text>
        <Text size="sm" aria-hidden>
          {full}
        </Text>
      </details>
    </Box>
  );
}

/** What a dot renderer is handed for each point of a line. */
interface DotArguments {
  cx?: number | undefined;
  cy?: number | undefined;
  index: number;
  payload: StatusPoint;
}

const statusChartHeight = 190;
const bmiChartHeight = 240;

/** A solid line sets Insufficient Data apart from the ordered statuses above it. */
const unknownSeparator = [{ y: unknownLevel + 0.5, color: 'gray.5' }];

/**
 * A status on the y-axis, on one line (the chart library would break 'Moderate Risk' in two);
 * Insufficient Data in italics, as it is not one of the ordered statuses.
 */
function StatusTick({
  x,
  y,
  payload,
}: {
  x?: number | string;
  y?: number | string;
  payload?: { value: unknown };
}) {
  if (typeof x !== 'number' || typeof y !== 'number' || typeof payload?.value !== 'number') {
    return <g />;
  }
  const unknown = payload.value === unknownLevel;
  return (
    <text
      x={x - 6}
      y={y}
      dy={4}
      textAnchor="end"
      fontSize={12}
      fill="var(--mantine-color-gray-7)"
      fontStyle={unknown ? 'italic' : undefined}
    >
      {statusAxisLabel(payload.value)}
    </text>
  );
}

/** The x-axis settings both kinds of chart share. */
function xAxisProps(labels: Map<string, string>) {
  return {
    tickFormatter: (key: string) => labels.get(key) ?? '',
    // Room for the first and last dates, which are centred on the chart's edges.
    padding: { left: 48, right: 48 },
  };
}

/**
 * One condition's risk status at each assessment, oldest first: a step line over the ordered
 * statuses (Low, Moderate, High, Diagnosed), each point in its status colour, and Insufficient
 * Data as hollow grey points on a row of its own, off the line. The caption says the same in
 * words; the drawing is left out for screen readers.
 */
function StatusChart({
  condition,
  items,
  labels,
}: {
  condition: Condition;
  items: readonly PatientAssessment[];
  labels: Map<string, string>;
}) {
  const theme = useMantineTheme();
  const points = useMemo(() => statusPoints(items, condition), [items, condition]);
  const headingId = `status-chart-${condition}`;

  function statusDot({ cx, cy, index, payload }: DotArguments) {
    if (cx === undefined || cy === undefined || payload.status === null || payload.level === null) {
      return <g key={`status-${index}`} />;
    }
    return (
      <circle
        key={`status-${index}`}
        cx={cx}
        cy={cy}
        r={6}
        fill={getThemeColor(riskStatusColors[payload.status], theme)}
        stroke="white"
        strokeWidth={2}
      />
    );
  }

  function unknownDot({ cx, cy, index, payload }: DotArguments) {
    if (cx === undefined || cy === undefined || payload.unknown === null) {
      return <g key={`unknown-${index}`} />;
    }
    return (
      <circle
        key={`unknown-${index}`}
        cx={cx}
        cy={cy}
        r={5}
        fill="white"
        stroke={getThemeColor(riskStatusColors.UNKNOWN, theme)}
        strokeWidth={2}
      />
    );
  }

  return (
    <Card withBorder padding="sm" radius="md" component="figure" m={0} aria-labelledby={headingId}>
      <Title order={3} size="h5" id={headingId}>
        {CONDITION_DISPLAY_NAMES[condition]}
      </Title>
      <ChartCaption short={statusShortSummary(points)} full={statusChartCaption(points)} />
      <LazyLineChart
        h={statusChartHeight}
        data={points}
        dataKey="key"
        series={[
          { name: 'level', label: 'Risk status', color: 'gray.5' },
          { name: 'unknown', label: 'Insufficient Data', color: 'gray.7' },
        ]}
        curveType="stepAfter"
        connectNulls={false}
        lineProps={(series) =>
          series.name === 'unknown'
            ? { dot: unknownDot, activeDot: false, strokeWidth: 0 }
            : { dot: statusDot, activeDot: false }
        }
        yAxisProps={{
          domain: [unknownLevel - 0.5, 4.5],
          ticks: [...statusAxisTicks],
          interval: 0,
          width: 116,
          tick: StatusTick,
        }}
        xAxisProps={xAxisProps(labels)}
        referenceLines={unknownSeparator}
        gridAxis="x"
        gridProps={{ horizontalValues: [...statusAxisTicks] }}
        textColor="gray.7"
        withTooltip={false}
        accessibilityLayer={false}
        aria-hidden="true"
      />
    </Card>
  );
}

/** Each condition's risk status over the patient's assessments, one small chart per condition. */
export function StatusCharts({ items }: { items: readonly PatientAssessment[] }) {
  const labels = useMemo(() => axisLabels(items, dateFormatters), [items]);
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md">
      {CONDITIONS.map((condition) => (
        <StatusChart key={condition} condition={condition} items={items} labels={labels} />
      ))}
    </SimpleGrid>
  );
}

/**
 * The BMI measured at each assessment, oldest first, with the line above which BMI counts in the
 * risk calculations (spec 2.6: 'BMI >25').
 */
export function BmiChart({ items }: { items: readonly PatientAssessment[] }) {
  const labels = useMemo(() => axisLabels(items, dateFormatters), [items]);
  const points = useMemo(() => bmiPoints(items), [items]);
  const axis = useMemo(() => bmiAxis(points), [points]);
  if (points.every((point) => point.bmi === null)) {
    return <Text size="sm">No BMI was measured at this patient's assessments.</Text>;
  }
  return (
    <Card withBorder padding="sm" radius="md" component="figure" m={0}>
      <ChartCaption
        short={bmiShortSummary(points)}
        full={`BMI at each assessment, oldest first: ${bmiSummary(points)}.`}
      />
      <LazyLineChart
        h={bmiChartHeight}
        data={points}
        dataKey="key"
        series={[{ name: 'bmi', label: 'BMI', color: 'blue.8' }]}
        curveType="linear"
        valueFormatter={formatBmi}
        yAxisProps={{ domain: axis.domain, ticks: axis.ticks, interval: 0, width: 48 }}
        xAxisProps={xAxisProps(labels)}
        referenceLines={[
          {
            y: bmiThreshold,
            label: `BMI ${bmiThreshold}`,
            color: 'orange.9',
            strokeDasharray: '4 4',
            labelPosition: 'insideTopLeft',
          },
        ]}
        gridAxis="x"
        textColor="gray.7"
        withTooltip={false}
        accessibilityLayer={false}
        aria-hidden="true"
      />
    </Card>
  );
}
