import { useState, type FormEvent } from 'react';
import { Alert, Button, Card, Group, Progress, Stack, Table, Text, Title } from '@mantine/core';
import {
  CONDITION_DISPLAY_NAMES,
  CONDITIONS,
  RISK_STATUS_LABELS,
  RISK_STATUSES,
  type Condition,
} from '../../../engine/index.ts';
import type {
  ConditionImpact,
  ImpactAgreement,
  ImpactResult,
} from '../../../shared/rule-set-impact.ts';
import { DateRangeFields } from '../../components/DateRangeFields.tsx';
import { ScrollableTable } from '../../components/ScrollableTable.tsx';
import { kappaOfPairsText } from '../../components/review/agreementDisplay.ts';
import { errorMessage } from '../../forms.ts';
import { dateRangeError, noDates, type DateRange } from '../../components/dateRange.ts';
import { agreedWithShare } from '../../components/review/reviewDisplay.ts';
import {
  agreedOfReviews,
  downloadImpactCsv,
  impactProgressText,
  impactRangeText,
  scoreChangeText,
} from './impactDisplay.ts';
import { useImpactAnalysis } from './useImpactAnalysis.ts';

/** Stored status (rows) against the status under the version (columns). */
function ImpactMatrix({ condition, impact }: { condition: Condition; impact: ConditionImpact }) {
  const name = CONDITION_DISPLAY_NAMES[condition];
  return (
    <ScrollableTable label={`${name} status matrix`} minWidth={560}>
      <Table verticalSpacing={4} fz="sm" withTableBorder withColumnBorders>
        <Table.Caption>
          {name}: the stored status (rows) against the status under this version (columns)
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Stored \ New</Table.Th>
            {RISK_STATUSES.map((status) => (
              <Table.Th scope="col" key={status} ta="right">
                {RISK_STATUS_LABELS[status]}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {RISK_STATUSES.map((stored) => (
            <Table.Tr key={stored}>
              <Table.Th scope="row" fw={400}>
                {RISK_STATUS_LABELS[stored]}
              </Table.Th>
              {RISK_STATUSES.map((next) => (
                <Table.Td key={next} ta="right" fw={stored === next ? 700 : 400}>
                  {impact.matrix[stored][next]}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollableTable>
  );
}

function AgreementRow({ label, side }: { label: string; side: ImpactAgreement }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" fw={400}>
        {label}
      </Table.Th>
      <Table.Td ta="right">{side.reviews}</Table.Td>
      <Table.Td>{agreedWithShare(side.agreed, side.share)}</Table.Td>
      <Table.Td>{kappaOfPairsText(side.kappa, side.kappaReviews)}</Table.Td>
    </Table.Tr>
  );
}

function ConditionImpactCard({
  condition,
  impact,
}: {
  condition: Condition;
  impact: ConditionImpact;
}) {
  const name = CONDITION_DISPLAY_NAMES[condition];
  const headingId = `impact-${condition}`;
  return (
    <Card withBorder component="section" aria-labelledby={headingId} padding="sm">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Title order={3} size="h4" id={headingId}>
            {name}
          </Title>
          <Text size="sm" fw={600}>
            Changed: {impact.changed} · Scores changed: {scoreChangeText(impact)}
          </Text>
        </Group>
        <ImpactMatrix condition={condition} impact={impact} />
        <ScrollableTable label={`${name} agreement with doctors`} minWidth={480}>
          <Table verticalSpacing={4} fz="sm" withTableBorder>
            <Table.Caption>{name}: agreement with the doctors&apos; reviews</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Rules</Table.Th>
                <Table.Th scope="col" ta="right">
                  Reviews
                </Table.Th>
                <Table.Th scope="col">Agreed</Table.Th>
                <Table.Th scope="col">Kappa</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              <AgreementRow label="Stored" side={impact.agreement.stored} />
              <AgreementRow label="This version" side={impact.agreement.new} />
            </Table.Tbody>
          </Table>
        </ScrollableTable>
      </Stack>
    </Card>
  );
}

function DownloadCsvButton({ result }: { result: ImpactResult }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <Stack gap={4} align="flex-end">
      <Button
        variant="default"
        onClick={() => {
          setError(null);
          try {
            downloadImpactCsv(result);
          } catch (failure) {
            setError(errorMessage(failure));
          }
        }}
      >
        Download CSV
      </Button>
      {error !== null && (
        <Text size="sm" c="red.8" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

/** Each condition's changed count and agreement at a glance; the cards below give the detail. */
function ImpactSummary({ result }: { result: ImpactResult }) {
  return (
    <ScrollableTable label="Impact per condition" minWidth={620}>
      <Table verticalSpacing={4} fz="sm" withTableBorder>
        <Table.Caption>
          Changed statuses and agreement with the doctors, per condition, with the total scores that
          change
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Condition</Table.Th>
            <Table.Th scope="col" ta="right">
              Changed
            </Table.Th>
            <Table.Th scope="col">Scores changed</Table.Th>
            <Table.Th scope="col">Agreed, stored rules</Table.Th>
            <Table.Th scope="col">Agreed, this version</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {CONDITIONS.map((condition) => {
            const impact = result.conditions[condition];
            const { changed, agreement } = impact;
            return (
              <Table.Tr key={condition}>
                <Table.Th scope="row" fw={400}>
                  {CONDITION_DISPLAY_NAMES[condition]}
                </Table.Th>
                <Table.Td ta="right">{changed}</Table.Td>
                <Table.Td>{scoreChangeText(impact)}</Table.Td>
                <Table.Td>{agreedOfReviews(agreement.stored)}</Table.Td>
                <Table.Td>{agreedOfReviews(agreement.new)}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </ScrollableTable>
  );
}

function ImpactResult({ result }: { result: ImpactResult }) {
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Text size="sm" role="status">
          {impactRangeText(result)}
        </Text>
        <DownloadCsvButton result={result} />
      </Group>
      <ImpactSummary result={result} />
      {CONDITIONS.map((condition) => (
        <ConditionImpactCard
          key={condition}
          condition={condition}
          impact={result.conditions[condition]}
        />
      ))}
    </Stack>
  );
}

function ImpactProgress({ done, total }: { done: number; total: number | null }) {
  // Nothing to re-score is a finished run, not one that has not begun.
  const value = total === null ? 0 : total === 0 ? 100 : (done / total) * 100;
  const text = impactProgressText(done, total);
  return (
    <Stack gap={4}>
      <Progress value={value} aria-label="Impact analysis progress" />
      <Text size="sm" role="status">
        {text}
      </Text>
    </Stack>
  );
}

/**
 * What a version would change: every live assessment re-scored with it (optionally those of a
 * date range), the stored status against the new one per condition, and how each agrees with
 * the doctors' reviews. Nothing is saved.
 */
export function ImpactPanel({ version, title }: { version: string; title: string }) {
  const { state, run, cancel } = useImpactAnalysis(version);
  const [dates, setDates] = useState<DateRange>(noDates);
  const [datesError, setDatesError] = useState<string | null>(null);
  const running = state.status === 'running';

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = dateRangeError(dates);
    setDatesError(problem);
    if (problem !== null) return;
    run({
      from: dates.from === '' ? undefined : dates.from,
      to: dates.to === '' ? undefined : dates.to,
    });
  }

  return (
    <Card withBorder component="section" aria-labelledby="impact-title" padding="md">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h3" id="impact-title">
            Impact analysis
          </Title>
          <Text size="sm" c="dimmed">
            Re-scores the live assessments with {title} without saving anything, and compares the
            statuses with the stored ones and with the doctors&apos; locked reviews. Leave the dates
            empty for every assessment.
          </Text>
        </div>
        <form onSubmit={submit} aria-label="Impact analysis dates" noValidate>
          <Group gap="sm" align="flex-end">
            <DateRangeFields dates={dates} error={datesError} onChange={setDates} />
            <Group gap="sm">
              <Button type="submit" loading={running}>
                Run impact analysis
              </Button>
              {running && (
                <Button variant="default" onClick={cancel}>
                  Cancel
                </Button>
              )}
            </Group>
          </Group>
        </form>
        {(state.status === 'running' || state.status === 'done') && (
          <ImpactProgress done={state.done} total={state.total} />
        )}
        {state.status === 'failed' && (
          <Alert color="red" title="The impact analysis failed" role="alert">
            {state.message}
          </Alert>
        )}
        {state.status === 'done' && <ImpactResult result={state.result} />}
      </Stack>
    </Card>
  );
}
