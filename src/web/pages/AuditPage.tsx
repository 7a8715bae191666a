import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import {
  Alert,
  Badge,
  Button,
  Container,
  Group,
  Loader,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { auditActions, type AuditEvent } from '../../shared/api/audit.ts';
import { auditCsvUrl, listAudit, type AuditFilters } from '../api/audit.ts';
import { errorMessage } from '../forms.ts';
import { auditActionLabel, formatLocalDateTime } from '../format.ts';
import { usePageTitle } from '../hooks/usePageTitle.ts';
import { ScrollableTable } from '../components/ScrollableTable.tsx';
import {
  auditDateErrors,
  auditFiltersFromForm,
  auditFiltersFromSearch,
  auditSearchFromFilters,
} from './audit/auditFilters.ts';

const actionOptions = [
  { value: '', label: 'Any action' },
  ...auditActions.map((action) => ({ value: action, label: auditActionLabel(action) })),
];

type TrailLoad =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; events: AuditEvent[]; nextBefore: number | null };

function AuditFilterForm({
  filters,
  onApply,
}: {
  filters: AuditFilters;
  onApply: (filters: AuditFilters) => void;
}) {
  const [user, setUser] = useState(filters.user ?? '');
  const [action, setAction] = useState<string>(filters.action ?? '');
  const [from, setFrom] = useState(filters.from ?? '');
  const [to, setTo] = useState(filters.to ?? '');
  const [dateErrors, setDateErrors] = useState<ReturnType<typeof auditDateErrors>>({
    from: null,
    to: null,
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const errors = auditDateErrors({ from, to });
    setDateErrors(errors);
    if (errors.from === null && errors.to === null) {
      onApply(auditFiltersFromForm({ user, action, from, to }));
    }
  }

  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label="Audit trail filters">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
          <TextInput
            label="User name"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            value={user}
            onChange={(event) => setUser(event.currentTarget.value)}
          />
          <NativeSelect
            label="Action"
            data={actionOptions}
            value={action}
            onChange={(event) => setAction(event.currentTarget.value)}
          />
          <TextInput
            type="date"
            label="From"
            value={from}
            error={dateErrors.from}
            onChange={(event) => setFrom(event.currentTarget.value)}
          />
          <TextInput
            type="date"
            label="To"
            value={to}
            error={dateErrors.to}
            onChange={(event) => setTo(event.currentTarget.value)}
          />
        </SimpleGrid>
        <Group gap="sm">
          <Button type="submit">Apply filters</Button>
          <Button
            variant="default"
            onClick={() => {
              setDateErrors({ from: null, to: null });
              onApply({});
            }}
          >
            Clear filters
          </Button>
          <Button component="a" href={auditCsvUrl(filters)} download variant="default">
            Download CSV
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function AuditTable({ events }: { events: AuditEvent[] }) {
  return (
    <ScrollableTable label="Audit events" minWidth={900}>
      <Table striped verticalSpacing="xs" captionSide="top">
        <Table.Caption ta="left">Audit events, newest first</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Time</Table.Th>
            <Table.Th scope="col">User</Table.Th>
            <Table.Th scope="col">Action</Table.Th>
            <Table.Th scope="col">Target</Table.Th>
            <Table.Th scope="col">Outcome</Table.Th>
            <Table.Th scope="col">Address</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {events.map((event) => (
            <Table.Tr key={event.id}>
              <Table.Td>
                <time dateTime={event.at} style={{ whiteSpace: 'nowrap' }}>
                  {formatLocalDateTime(event.at)}
                </time>
              </Table.Td>
              <Table.Td>
                {event.displayName !== null && <div>{event.displayName}</div>}
                <Text
                  size="sm"
                  c={event.displayName === null ? undefined : 'dimmed'}
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {event.username ?? '—'}
                </Text>
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{auditActionLabel(event.action)}</Table.Td>
              <Table.Td>
                {event.targetType === null ? (
                  event.detail === null && '—'
                ) : (
                  <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                    {event.targetType} {event.targetId}
                  </Text>
                )}
                {/* What the other columns cannot say, such as why a record system was refused. */}
                {event.detail !== null && (
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {event.detail}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                {event.outcome === 'success' ? (
                  <Badge color="green" variant="dot">
                    Success
                  </Badge>
                ) : (
                  <Badge color="red" variant="dot">
                    Failure
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>{event.address ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollableTable>
  );
}

export function AuditPage() {
  usePageTitle('Audit Trail');
  const [searchParams, setSearchParams] = useSearchParams();
  const searchKey = searchParams.toString();
  const filters = useMemo(
    () => auditFiltersFromSearch(new URLSearchParams(searchKey)),
    [searchKey],
  );
  const [load, setLoad] = useState<TrailLoad>({ status: 'loading' });
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreFailure, setMoreFailure] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setLoad({ status: 'loading' });
    setMoreFailure(null);
    listAudit(filters, undefined, controller.signal).then(
      (page) => setLoad({ status: 'loaded', events: page.items, nextBefore: page.nextBefore }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoad({ status: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [filters]);

  async function loadMore(before: number) {
    setLoadingMore(true);
    setMoreFailure(null);
    try {
      const page = await listAudit(filters, before);
      setLoad((current) =>
        current.status === 'loaded'
          ? {
              status: 'loaded',
              events: [...current.events, ...page.items],
              nextBefore: page.nextBefore,
            }
          : current,
      );
    } catch (error) {
      setMoreFailure(errorMessage(error));
    } finally {
      setLoadingMore(false);
    }
  }

  return (
    <Container size="xl">
      <Stack gap="md">
        <Title order={1}>Audit Trail</Title>
        {/* Keyed by the address so that the back button also resets the form. */}
        <AuditFilterForm
          key={searchKey}
          filters={filters}
          onApply={(applied) => setSearchParams(auditSearchFromFilters(applied))}
        />
        {load.status === 'loading' && (
          <Group gap="sm" role="status">
            <Loader size="sm" aria-hidden />
            <Text>Loading the audit trail...</Text>
          </Group>
        )}
        {load.status === 'failed' && (
          <Alert color="red" title="The audit trail could not be loaded">
            {load.message}
          </Alert>
        )}
        {load.status === 'loaded' &&
          (load.events.length === 0 ? (
            <Text>No audit events match these filters.</Text>
          ) : (
            <>
              <AuditTable events={load.events} />
              <Group gap="md">
                <Text size="sm" role="status">
                  {load.events.length} events shown
                  {load.nextBefore === null ? '; this is the whole trail for these filters.' : '.'}
                </Text>
                {load.nextBefore !== null && (
                  <Button
                    variant="default"
                    loading={loadingMore}
                    onClick={() => {
                      if (load.nextBefore !== null) void loadMore(load.nextBefore);
                    }}
                  >
                    Load more
                  </Button>
                )}
              </Group>
              {moreFailure !== null && <Alert color="red">{moreFailure}</Alert>}
            </>
          ))}
      </Stack>
    </Container>
  );
}
