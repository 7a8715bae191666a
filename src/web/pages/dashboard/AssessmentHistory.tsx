import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { AssessmentSummary } from '../../../shared/api/assessments.ts';
import type { SessionUser } from '../../../shared/api/session.ts';
import { can } from '../../../shared/permissions.ts';
import { DateRangeForm } from '../../components/DateRangeForm.tsx';
import { LoadingText } from '../../components/errors/LoadingText.tsx';
import { errorMessage } from '../../forms.ts';
import { useAssessmentHistory, useDeleteAssessment } from '../../hooks/useAssessmentHistory.ts';
import {
  bulkReportFailureMessage,
  useBulkReportDownload,
} from '../../hooks/useBulkReportDownload.ts';
import { useErrorBanner } from '../../hooks/useErrorBanner.ts';
import { useModalTarget } from '../../hooks/useModalTarget.ts';
import { usePopulation } from '../../hooks/usePopulation.ts';
import { assessmentListsChanged } from '../../hooks/serverState.ts';
import { useOutbox } from '../../offline/OutboxContext.ts';
import { offlineTexts } from '../../offline/texts.ts';
import { useOnline } from '../../offline/useOnline.ts';
import { WaitingUploads } from '../../offline/WaitingUploads.tsx';
import { noDates, type DateRange } from '../../components/dateRange.ts';
import { historyFilter } from './historyFilters.ts';
import { byteCountText, foundText } from './historyFormat.ts';
import { historyView } from '../../hooks/historyState.ts';
import { HistoryRow, type RowActions } from './HistoryRow.tsx';
import { PopulationPanel } from './PopulationPanel.tsx';

/** The spec's search placeholder (section 2.4). */
const searchPlaceholder = 'Search assessments by patient info, date, status, or ID...';

/** Typing pauses this long before the server is asked. */
const searchDebounceMs = 300;

// Mantine's modal brings its scroll and focus machinery; the dashboard loads it on the first delete.
const DeleteAssessmentModal = lazy(() =>
  import('./DeleteAssessmentModal.tsx').then((module) => ({
    default: module.DeleteAssessmentModal,
  })),
);

function DownloadAllReports({ filter }: { filter: ReturnType<typeof historyFilter> }) {
  const banner = useErrorBanner();
  const onFailure = useCallback(() => banner.showMessage(bulkReportFailureMessage), [banner]);
  const { progress, start } = useBulkReportDownload(filter, onFailure);
  const busy = progress !== null;
  const online = useOnline();
  return (
    <Stack gap={4} align="flex-end">
      <Button
        onClick={() => {
          banner.dismiss();
          void start();
        }}
        disabled={busy || !online}
      >
        {busy ? 'Generating Report...' : 'Download All Reports'}
      </Button>
      <Text size="xs" c="dimmed" role="status" mih={18}>
        {progress === null
          ? online
            ? ''
            : offlineTexts.needsConnection
          : `${progress.format === 'txt' ? 'Text report' : 'CSV'}: ${byteCountText(progress.receivedBytes)} received`}
      </Text>
    </Stack>
  );
}

/**
 * The assessment history (spec section 2.4): search and whole-day dates run on the server over
 * every assessment, 20 rows a page; the population panel counts the same matches.
 */
export function AssessmentHistory({
  user,
  unit,
}: {
  user: SessionUser;
  /** The organisation unit the dashboard shows (with those below it); all the user's when unset. */
  unit?: string | undefined;
}) {
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, searchDebounceMs);
  const [dates, setDates] = useState<DateRange>(noDates);
  // The form's inputs remount with the applied dates when a clear link resets them.
  const [dateFormKey, setDateFormKey] = useState(0);
  const filter = useMemo(
    () => historyFilter(debouncedSearch, dates, unit),
    [debouncedSearch, dates, unit],
  );

  const { state, loadMore, retry, dismissError } = useAssessmentHistory(filter);
  const population = usePopulation(filter);
  const deleteAssessment = useDeleteAssessment();
  const queryClient = useQueryClient();
  const deleteDialog = useModalTarget<AssessmentSummary>();
  const [deletingIds, setDeletingIds] = useState<ReadonlySet<string>>(new Set());

  const view = historyView(state);
  // Saves made offline that have reached the server since belong in the list now.
  const { uploads } = useOutbox();
  const online = useOnline();
  useEffect(() => {
    if (uploads === 0) return;
    void assessmentListsChanged(queryClient);
  }, [uploads, queryClient]);
  const filtersApplied = dates.from !== '' || dates.to !== '';

  function clearSearch() {
    setSearch('');
    setDates(noDates);
    setDateFormKey((key) => key + 1);
  }

  async function confirmDelete(row: AssessmentSummary) {
    deleteDialog.close();
    setDeletingIds((ids) => new Set(ids).add(row.id));
    try {
      // The delete names the version the row shows, so that it never removes someone's newer work.
      await deleteAssessment.mutateAsync({ id: row.id, version: row.version });
      notifications.show({ color: 'green', message: `Assessment ${row.code ?? row.id} deleted.` });
    } catch (error) {
      // A 412 (someone changed it since the list was loaded) deleted nothing; the hook reads the
      // lists again to show it as it is now.
      notifications.show({ color: 'red', title: 'Delete failed', message: errorMessage(error) });
    } finally {
      setDeletingIds((ids) => {
        const next = new Set(ids);
        next.delete(row.id);
        return next;
      });
    }
  }

  const rowActions = (row: AssessmentSummary): RowActions => ({
    canReview: can(user.role, 'review.view'),
    canDelete:
      can(user.role, 'assessment.delete') &&
      (!row.signedOff || can(user.role, 'assessment.deleteSignedOff')),
    deleting: deletingIds.has(row.id),
    onDelete: deleteDialog.open,
  });

  return (
    <Stack gap="md" component="section" aria-labelledby="history-title">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Title order={2} id="history-title">
          Assessment History
        </Title>
        {can(user.role, 'export.bulk') && <DownloadAllReports filter={filter} />}
      </Group>

      <Paper withBorder p="md" radius="md">
        <Stack gap="md">
          <DateRangeForm
            label="Date-range filter"
            key={dateFormKey}
            applied={dates}
            onApply={setDates}
          />
          <TextInput
            type="search"
            aria-label="Search assessments"
            placeholder={searchPlaceholder}
            value={search}
            maxLength={200}
            onChange={(event) => setSearch(event.currentTarget.value)}
          />
          <Group gap="xs" mih={24}>
            {/* Always present, so that screen readers announce each new count. */}
            <Text size="sm" role="status">
              {view === 'list' || view === 'filteredEmpty'
                ? foundText(state.total, state.overallTotal)
                : ''}
            </Text>
            {state.status === 'loading' && view !== 'loading' && (
              <Loader size="xs" role="img" aria-label="Updating the list" />
            )}
          </Group>
        </Stack>
      </Paper>

      {state.failure !== null && (
        <Alert
          color={online ? 'red' : 'gray'}
          title={online ? 'Error Loading Assessments' : offlineTexts.offlineTitle}
        >
          <Stack gap="sm">
            <Text size="sm">{online ? state.failure.message : offlineTexts.historyOffline}</Text>
            <Group gap="sm">
              <Button size="xs" color="red.8" onClick={retry}>
                Try Again
              </Button>
              <Button size="xs" variant="default" onClick={dismissError}>
                Dismiss Error
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}

      <WaitingUploads />

      <PopulationPanel load={population} />

      {view === 'loading' && <LoadingText />}
      {view === 'empty' && (
        <Paper withBorder p="xl" radius="md" ta="center">
          <Title order={3}>No Assessments Found</Title>
          <Text mt="xs">Complete your first assessment to see it here</Text>
        </Paper>
      )}
      {view === 'filteredEmpty' && (
        <Paper withBorder p="xl" radius="md" ta="center">
          <Title order={3}>No Matching Assessments</Title>
          <Text mt="xs">Try adjusting your search terms</Text>
          <Anchor component="button" type="button" mt="xs" onClick={clearSearch}>
            {filtersApplied ? 'Clear search and filters' : 'Clear search'}
          </Anchor>
        </Paper>
      )}
      {view === 'list' && (
        <Stack gap="sm">
          <Stack
            gap="sm"
            component="ul"
            p={0}
            m={0}
            style={{ listStyle: 'none' }}
            aria-label="Assessments"
          >
            {state.items.map((row) => (
              <HistoryRow key={row.id} row={row} actions={rowActions(row)} />
            ))}
          </Stack>
          <Group gap="md">
            <Text size="sm" c="dimmed">
              Showing {state.items.length} of {state.total}
            </Text>
            {state.nextCursor !== null && (
              <Button variant="default" loading={state.loadingMore} onClick={loadMore}>
                Load more
              </Button>
            )}
          </Group>
        </Stack>
      )}

      {deleteDialog.target !== null && (
        <Suspense fallback={null}>
          <DeleteAssessmentModal
            target={deleteDialog.target}
            opened={deleteDialog.opened}
            onCancel={deleteDialog.close}
            onConfirm={(row) => void confirmDelete(row)}
          />
        </Suspense>
      )}
    </Stack>
  );
}
