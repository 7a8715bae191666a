import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Container,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { CONDITION_DISPLAY_NAMES, CONDITIONS } from '../../../engine/index.ts';
import type { OrgUnitSummary, OrgUnitSummaryRow } from '../../../shared/api/org-units.ts';
import { ApiError } from '../../api/client.ts';
import { DateRangeForm } from '../../components/DateRangeForm.tsx';
import type { DateRange } from '../../components/dateRange.ts';
import { friendlyMessageFor } from '../../components/errors/friendlyMessage.ts';
import { ScrollableTable } from '../../components/ScrollableTable.tsx';
import { useOrgUnitSummary } from '../../hooks/useOrgUnitSummary.ts';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { offlineTexts } from '../../offline/texts.ts';
import { agreementText, districtPath, rowLabel, unitDashboardPath } from './districtDisplay.ts';

/**
 * A condition's High and Moderate counts on one line ('2 · 0'), each in the status colour the
 * dashboard uses when it is not zero; a screen reader hears each with its name.
 */
function RiskCell({ high, moderate }: { high: number; moderate: number }) {
  return (
    <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
      <VisuallyHidden>High </VisuallyHidden>
      <Text span inherit c={high > 0 ? 'red.8' : 'dimmed'} fw={high > 0 ? 600 : undefined}>
        {high}
      </Text>
      <span aria-hidden> · </span>
      <VisuallyHidden>, Moderate </VisuallyHidden>
      <Text
        span
        inherit
        c={moderate > 0 ? 'yellow.9' : 'dimmed'}
        fw={moderate > 0 ? 600 : undefined}
      >
        {moderate}
      </Text>
    </Text>
  );
}

function RollUpTable({ summary, dates }: { summary: OrgUnitSummary; dates: DateRange }) {
  const navigate = useNavigate();
  const caption = summary.unit === null ? 'Your units' : `Units of ${summary.unit.name}`;
  const drillable = (row: OrgUnitSummaryRow) => row.unit.hasChildren && !row.ownRecordsOnly;
  return (
    <ScrollableTable label={caption} minWidth={1100}>
      <Table striped highlightOnHover verticalSpacing="xs" fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Unit</Table.Th>
            <Table.Th scope="col">Assessments</Table.Th>
            {CONDITIONS.map((condition) => (
              <Table.Th scope="col" key={condition}>
                {CONDITION_DISPLAY_NAMES[condition]}
                <Text size="xs" c="dimmed" fw={400} style={{ whiteSpace: 'nowrap' }}>
                  High · Moderate
                </Text>
              </Table.Th>
            ))}
            <Table.Th scope="col">Awaiting review</Table.Th>
            <Table.Th scope="col">Follow-up overdue</Table.Th>
            <Table.Th scope="col">Doctor agreement</Table.Th>
            <Table.Th scope="col">Dashboard</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {summary.rows.map((row) => (
            <Table.Tr
              key={`${row.unit.id}${row.ownRecordsOnly ? '-own' : ''}`}
              style={drillable(row) ? { cursor: 'pointer' } : undefined}
              onClick={
                drillable(row) ? () => void navigate(districtPath(row.unit.id, dates)) : undefined
              }
            >
              <Table.Th scope="row" fw={500} style={{ whiteSpace: 'nowrap' }}>
                {drillable(row) ? (
                  <Anchor
                    component={Link}
                    to={districtPath(row.unit.id, dates)}
                    size="sm"
                    aria-label={`Roll-up of ${rowLabel(row)}`}
                    onClick={(event) => event.stopPropagation()}
                  >
                    {rowLabel(row)}
                  </Anchor>
                ) : (
                  rowLabel(row)
                )}
                {row.unit.closed && (
                  <Badge ml="xs" size="xs" color="gray" variant="light">
                    Closed
                  </Badge>
                )}
              </Table.Th>
              <Table.Td>{row.assessments}</Table.Td>
              {row.conditions.map((condition) => (
                <Table.Td key={condition.condition}>
                  <RiskCell high={condition.high} moderate={condition.moderate} />
                </Table.Td>
              ))}
              <Table.Td>{row.awaitingReview}</Table.Td>
              <Table.Td>{row.followUpOverdue}</Table.Td>
              <Table.Td>{agreementText(row.agreementShare)}</Table.Td>
              <Table.Td>
                {!row.ownRecordsOnly && (
                  <Anchor
                    component={Link}
                    to={unitDashboardPath(row.unit.id)}
                    size="sm"
                    aria-label={`Dashboard of ${rowLabel(row)}`}
                    onClick={(event) => event.stopPropagation()}
                  >
                    Dashboard
                  </Anchor>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollableTable>
  );
}

/**
 * The District page (issue 36): a unit's roll-up, one row per unit below it, over the days chosen;
 * without a unit in the address, the top of the user's scope. The days stay in the address, so a
 * drill-down and the way back keep them.
 */
export function DistrictPage() {
  usePageTitle('District');
  const { id } = useParams();
  const [search, setSearch] = useSearchParams();
  const dates: DateRange = { from: search.get('from') ?? '', to: search.get('to') ?? '' };
  const summary = useOrgUnitSummary(id, {
    from: dates.from === '' ? undefined : dates.from,
    to: dates.to === '' ? undefined : dates.to,
  });
  const data = summary.data;
  const notFound = summary.error instanceof ApiError && summary.error.status === 404;
  const offline = data === undefined && summary.fetchStatus === 'paused';

  return (
    <Container size="xl">
      <Stack gap="md">
        <Group justify="space-between" align="flex-end">
          <div>
            <Title order={1} size="h2">
              District
            </Title>
            <Text size="lg" fw={500}>
              {data === undefined
                ? ''
                : data.unit === null
                  ? 'Your units'
                  : `${data.unit.name} (${data.unit.code})`}
            </Text>
          </div>
          {summary.isFetching && data !== undefined && (
            <Loader size="xs" role="img" aria-label="Updating the roll-up" />
          )}
        </Group>
        <Text size="sm" c="dimmed">
          Each row counts its unit and every unit below it: live assessments made in the dates, how
          many are at High and Moderate per condition, and the share of reviewed conditions the
          doctor agreed with. Awaiting review and overdue follow-ups are as they stand today. A unit
          with units below it opens their roll-up; Dashboard opens the unit's own dashboard.
        </Text>
        {data?.unit?.parentId != null && (
          <Group>
            <Button
              component={Link}
              to={districtPath(data.unit.parentId, dates)}
              variant="default"
              size="xs"
            >
              Up one level
            </Button>
          </Group>
        )}
        <DateRangeForm
          // The inputs start anew from the address when it changes (a link, the browser's back).
          key={`${dates.from}|${dates.to}`}
          label="Roll-up dates"
          applied={dates}
          onApply={(next) => {
            const query = new URLSearchParams();
            if (next.from !== '') query.set('from', next.from);
            if (next.to !== '') query.set('to', next.to);
            setSearch(query);
          }}
        />
        {data === undefined && summary.isPending && !offline && (
          <Group gap="sm" role="status">
            <Loader size="sm" aria-hidden />
            <Text>Loading...</Text>
          </Group>
        )}
        {offline && (
          <Alert color="gray" title={offlineTexts.offlineTitle} role="status">
            {offlineTexts.needsConnection}
          </Alert>
        )}
        {summary.error !== null && (
          <Alert color="red" title="Could not load the roll-up">
            <Stack gap="sm" align="flex-start">
              <Text size="sm">
                {notFound ? 'No such unit.' : friendlyMessageFor(summary.error)}
              </Text>
              {notFound ? (
                <Button component={Link} to={districtPath(undefined, dates)} size="xs">
                  Show my units
                </Button>
              ) : (
                <Button size="xs" variant="default" onClick={() => void summary.refetch()}>
                  Try Again
                </Button>
              )}
            </Stack>
          </Alert>
        )}
        {data !== undefined && summary.error === null && (
          <RollUpTable summary={data} dates={dates} />
        )}
      </Stack>
    </Container>
  );
}
