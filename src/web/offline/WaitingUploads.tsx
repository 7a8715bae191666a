import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { formatLocalDateTime } from '../format.ts';
import { writeDraft } from '../pages/assessment/draft.ts';
import type { OutboxEntry } from './outbox.ts';
import { useOutbox } from './OutboxContext.ts';
import { offlineTexts } from './texts.ts';

// Mantine's modal is not part of the first view; it loads when a discard is asked for.
const DiscardEntryDialog = lazy(() =>
  import('./DiscardEntryDialog.tsx').then((module) => ({ default: module.DiscardEntryDialog })),
);

/** How an entry is named in lists: its code and, when given, its patient. */
export function entryLabel(entry: OutboxEntry): string {
  const { code, form } = entry.draft;
  const patient = form.patient.chosen?.name ?? form.patient.name.trim();
  return patient === '' ? code : `${code} · ${patient}`;
}

function WaitingRow({
  entry,
  onOpen,
  onDiscard,
}: {
  entry: OutboxEntry;
  onOpen: () => void;
  onDiscard: () => void;
}) {
  const titleId = `outbox-${entry.id}-title`;
  return (
    <Paper component="li" withBorder p="sm" radius="md" aria-labelledby={titleId}>
      <Stack gap={4}>
        <Group gap="xs">
          <Text fw={700} id={titleId}>
            {entryLabel(entry)}
          </Text>
          {entry.refusal === null ? (
            <Badge color="gray.7" variant="outline">
              {offlineTexts.waitingStatus}
            </Badge>
          ) : (
            <Badge color="red.8" variant="filled">
              {offlineTexts.refusedStatus}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          Saved on this device {formatLocalDateTime(entry.queuedAt)}
        </Text>
        {entry.refusal !== null && (
          <Alert color="red" p="xs">
            <Text size="sm">{entry.refusal}</Text>
            <Text size="sm">{offlineTexts.refusedHelp}</Text>
          </Alert>
        )}
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={onOpen}>
            {offlineTexts.open}
          </Button>
          <Button size="xs" variant="default" color="red" onClick={onDiscard}>
            {offlineTexts.discard}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * The user's saves that have not reached the server: waiting ones upload by themselves; refused
 * ones show the server's reason and stay until the user opens them to correct, or discards them.
 */
export function WaitingUploads() {
  const { entries, discard } = useOutbox();
  const navigate = useNavigate();
  const [discarding, setDiscarding] = useState<OutboxEntry | null>(null);
  if (entries.length === 0) return null;

  function open(entry: OutboxEntry) {
    writeDraft(entry.draft);
    const { assessmentId } = entry.draft;
    void navigate(
      assessmentId === null
        ? '/assessments/new'
        : `/assessments/${encodeURIComponent(assessmentId)}`,
    );
  }

  return (
    <Stack gap="sm" component="section" aria-labelledby="waiting-title" id="waiting-uploads">
      <Title order={3} id="waiting-title">
        {offlineTexts.waitingTitle} ({entries.length})
      </Title>
      <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {entries.map((entry) => (
          <WaitingRow
            key={entry.id}
            entry={entry}
            onOpen={() => open(entry)}
            onDiscard={() => setDiscarding(entry)}
          />
        ))}
      </Stack>
      {discarding !== null && (
        <Suspense fallback={null}>
          <DiscardEntryDialog
            label={entryLabel(discarding)}
            onCancel={() => setDiscarding(null)}
            onConfirm={() => {
              void discard(discarding.id);
              setDiscarding(null);
            }}
          />
        </Suspense>
      )}
    </Stack>
  );
}
