import { useState } from 'react';
import {
  Accordion,
  Alert,
  Button,
  Card,
  Group,
  List,
  Loader,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { CONDITION_DISPLAY_NAMES, RISK_STATUS_LABELS } from '../../../engine/index.ts';
import {
  MATRIX_STATUSES,
  type AgreementSummary as Agreement,
} from '../../../shared/api/reviews.ts';
import { downloadAgreementCsv } from '../../api/reviews.ts';
import { ScrollableTable } from '../ScrollableTable.tsx';
import { errorMessage } from '../../forms.ts';
import { useAgreement } from '../../hooks/useAgreement.ts';
import { offlineTexts } from '../../offline/texts.ts';
import { agreedWithShare } from './reviewDisplay.ts';
import { noDates, type DateRange } from '../dateRange.ts';
import { kappaBands, kappaSentence, kappaText, reviewDay } from './agreementDisplay.ts';
import { DateRangeForm } from '../DateRangeForm.tsx';

type ConditionAgreement = Agreement['conditions'][number];

function asQuery(dates: DateRange, unit: string | undefined) {
  return {
    from: dates.from === '' ? undefined : dates.from,
    to: dates.to === '' ? undefined : dates.to,
    unit,
  };
}

/** The rules' status (rows) against the doctor's (columns), for one condition. */
function AgreementMatrix({ row }: { row: ConditionAgreement }) {
  const name = CONDITION_DISPLAY_NAMES[row.condition];
  return (
    <ScrollableTable label={`${name} agreement matrix`} minWidth={480}>
      <Table verticalSpacing={4} fz="sm" withTableBorder withColumnBorders>
        <Table.Caption>
          {name}: the rules&apos; status (rows) against the doctor&apos;s (columns), over the
          reviews that give a doctor status
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Rules \ Doctor</Table.Th>
            {MATRIX_STATUSES.map((status) => (
              <Table.Th scope="col" key={status} ta="right">
                {RISK_STATUS_LABELS[status]}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {MATRIX_STATUSES.map((rules, i) => (
            <Table.Tr key={rules}>
              <Table.Th scope="row" fw={400}>
                {RISK_STATUS_LABELS[rules]}
              </Table.Th>
              {MATRIX_STATUSES.map((doctor, j) => (
                <Table.Td key={doctor} ta="right" fw={i === j ? 700 : 400}>
                  {row.matrix[i]?.[j] ?? 0}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollableTable>
  );
}

function LatestComments({ row }: { row: ConditionAgreement }) {
  if (row.latestComments.length === 0) {
    return <Text size="sm">No disagreement comments.</Text>;
  }
  return (
    <List size="sm" spacing={6}>
      {row.latestComments.map((comment, index) => (
        <List.Item key={`${comment.reviewedAt} ${index}`}>
          <Text size="sm" span fw={500}>
            {reviewDay(comment.reviewedAt)}
          </Text>{' '}
          <Text size="sm" span c="dimmed">
            (rules {RISK_STATUS_LABELS[comment.ruleStatus]}
            {comment.doctorStatus === null
              ? ''
              : `, doctor ${RISK_STATUS_LABELS[comment.doctorStatus]}`}
            )
          </Text>{' '}
          <Text size="sm" span style={{ whiteSpace: 'pre-wrap' }}>
            {comment.comments}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}

function AgreementFigures({ summary }: { summary: Agreement }) {
  const reviewed = summary.conditions.filter((row) => row.reviewed > 0);
  return (
    <Stack gap="md">
      <Text size="sm">{kappaBands}</Text>
      <Table verticalSpacing={6} fz="sm" aria-labelledby="agreement-summary">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Condition</Table.Th>
            <Table.Th scope="col" ta="right">
              Reviewed
            </Table.Th>
            <Table.Th scope="col">Agreed</Table.Th>
            {/* On a phone the column would not fit; each condition's panel below says it. */}
            <Table.Th scope="col" visibleFrom="sm">
              Kappa
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {summary.conditions.map((row) => (
            <Table.Tr key={row.condition}>
              <Table.Th scope="row" fw={400}>
                {CONDITION_DISPLAY_NAMES[row.condition]}
              </Table.Th>
              <Table.Td ta="right">{row.reviewed}</Table.Td>
              <Table.Td>
                <Group gap="sm" wrap="nowrap">
                  <Text size="sm" miw="5rem">
                    {agreedWithShare(row.agreed, row.share)}
                  </Text>
                  {/* The text says the same; the bar is only a visual aid, left out on a
                      phone so that the table fits. */}
                  <Progress
                    value={(row.share ?? 0) * 100}
                    color="teal.8"
                    size="sm"
                    w="6rem"
                    visibleFrom="sm"
                    aria-hidden
                  />
                </Group>
              </Table.Td>
              <Table.Td visibleFrom="sm">{kappaText(row.kappa, row.matrix)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {reviewed.length > 0 && (
        <Accordion variant="separated" multiple>
          {reviewed.map((row) => (
            <Accordion.Item key={row.condition} value={row.condition}>
              <Accordion.Control>
                {CONDITION_DISPLAY_NAMES[row.condition]}: matrix and latest comments
              </Accordion.Control>
              <Accordion.Panel>
                <Stack gap="sm">
                  <Text size="sm">{kappaSentence(row.kappa, row.matrix)}</Text>
                  <AgreementMatrix row={row} />
                  <Title order={3} size="h5">
                    Latest disagreement comments
                  </Title>
                  <LatestComments row={row} />
                </Stack>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
    </Stack>
  );
}

function DownloadCsvButton({ dates, unit }: { dates: DateRange; unit: string | undefined }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Stack gap={4} align="flex-end">
      <Button
        variant="default"
        loading={busy}
        onClick={() => {
          setBusy(true);
          setError(null);
          downloadAgreementCsv(asQuery(dates, unit)).then(
            () => setBusy(false),
            (failure: unknown) => {
              setBusy(false);
              setError(errorMessage(failure));
            },
          );
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

/**
 * How the rules measure against the doctors, per condition, over finalized reviews: the share
 * agreed, Cohen's kappa, the matrix of statuses and the latest disagreement comments, for the
 * assessments of a date range (of one unit and those below it when `unit` is set); the dashboard
 * shows it to doctors and admins.
 */
export function AgreementSummary({ unit }: { unit?: string | undefined }) {
  const [dates, setDates] = useState<DateRange>(noDates);
  const agreement = useAgreement(asQuery(dates, unit));
  const summary = agreement.data;
  const offline = summary === undefined && agreement.fetchStatus === 'paused';

  return (
    <Card withBorder component="section" aria-labelledby="agreement-summary" padding="md">
      <Group justify="space-between" align="flex-start" gap="sm">
        <div>
          <Title order={2} size="h3" id="agreement-summary">
            Doctor Agreement
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            Finalized doctor reviews that agreed with the risk result, per condition, and
            Cohen&apos;s kappa between the rules&apos; and the doctors&apos; statuses.
          </Text>
        </div>
        <DownloadCsvButton dates={dates} unit={unit} />
      </Group>
      <Stack gap="md">
        <DateRangeForm label="Doctor Agreement dates" applied={dates} onApply={setDates} />
        {summary === undefined && agreement.isPending && !offline && (
          <Group gap="sm" role="status">
            <Loader size="sm" aria-hidden />
            <Text size="sm">Loading agreement...</Text>
          </Group>
        )}
        {offline && (
          <Alert color="gray" title={offlineTexts.offlineTitle} role="status">
            {offlineTexts.needsConnection}
          </Alert>
        )}
        {summary === undefined && agreement.isError && (
          <Alert color="red" title="The agreement summary could not be loaded">
            {errorMessage(agreement.error)}
          </Alert>
        )}
        {summary !== undefined && <AgreementFigures summary={summary} />}
      </Stack>
    </Card>
  );
}
