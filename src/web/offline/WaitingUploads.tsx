import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { formatLocalDateTime } from '../format.ts';
import { notifications } from '@mantine/notifications';
import { generateAssessmentCode } from '../../engine/index.ts';
import { writeDraft, type AssessmentDraft } from '../assessment/draft.ts';
import type { OutboxEntry } from './outbox.ts';
import { useOutbox } from './OutboxContext.ts';
import { OutboxUnlock } from './OutboxUnlock.tsx';
import { useOnline } from './useOnline.ts';
import { offlineTexts } from './texts.ts';

// Mantine's modal is not part of the first view; it loads when a discard is asked for.
const DiscardEntryDialog = lazy(() =>
  import('./DiscardEntryDialog.tsx').then((module) => ({ default: module.DiscardEntryDialog })),
);

/** How an entry is named in lists: its code and, when given, its patient's name or number. */
export function entryLabel(entry: OutboxEntry): string {
  const { code, form } = entry.draft;
  const patient =
    form.patient.chosen?.name ?? (form.patient.name.trim() || form.patient.number.trim());
  return patient === '' ? code : `${code} · ${patient}`;
}

/** The wizard's step where a refusal's field is answered; the results (with Save) otherwise. */
export function stepToFix(field: string | null): number {
  const top = field?.split('.')[0] ?? '';
  if (['orgUnitId', 'patientId', 'newPatient', 'patientByNumber', 'demographics'].includes(top)) {
    return 1;
  }
  if (top === 'riskFactors') return 2;
  if (top === 'symptoms') return 3;
  if (top === 'management') return 4;
  return 5;
}

/** An update the server can no longer take (signed off or deleted meanwhile) opens as a new one. */
function reopensAsNew(entry: OutboxEntry): boolean {
  return (
    entry.draft.assessmentId !== null &&
    (entry.refusalCode === 'signed_off' || entry.refusalCode === 'not_found')
  );
}

function WaitingRow({
  entry,
  onOpen,
  onLinkAnyway,
  onDiscard,
}: {
  entry: OutboxEntry;
  onOpen: () => void;
  onLinkAnyway: () => void;
  onDiscard: () => void;
}) {
  const titleId = `outbox-${entry.id}-title`;
  const genderDiffers = entry.refusalCode === 'patient_gender_differs';
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
            <Text size="sm">
              {genderDiffers ? offlineTexts.genderDiffersHelp : offlineTexts.refusedHelp}
            </Text>
          </Alert>
        )}
        <Group gap="xs">
          {genderDiffers && (
            <Button size="xs" onClick={onLinkAnyway}>
              {offlineTexts.linkAnyway}
            </Button>
          )}
          <Button size="xs" variant="default" onClick={onOpen}>
            {genderDiffers ? offlineTexts.changeNumber : offlineTexts.open}
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
  const { entries, locked, lockedCount, discard, answer } = useOutbox();
  const online = useOnline();
  const navigate = useNavigate();
  const [discarding, setDiscarding] = useState<OutboxEntry | null>(null);
  // Locked, the list shows how many wait and asks for the password; offline, it asks even when
  // none wait, since a save or a kept patient record needs the key.
  if (entries.length === 0 && lockedCount === 0 && !(locked && !online)) return null;

  /** Opens the entry's own answers in the wizard, at the step where the refusal is answered. */
  async function open(entry: OutboxEntry) {
    const step = stepToFix(entry.refusalField);
    if (reopensAsNew(entry)) {
      // Under a new code, in the outbox's place of the old one: saving it sends it once.
      const draft: AssessmentDraft = {
        ...entry.draft,
        code: generateAssessmentCode(Date.now(), Math.random),
        assessmentId: null,
        baseVersion: null,
      };
      await answer({ ...entry, draft });
      writeDraft(draft);
      notifications.show({ color: 'orange', message: offlineTexts.openedAsNew });
      void navigate(`/assessments/new?step=${step}`);
      return;
    }
    writeDraft(entry.draft);
    const { assessmentId } = entry.draft;
    void navigate(
      assessmentId === null
        ? `/assessments/new?step=${step}`
        : `/assessments/${encodeURIComponent(assessmentId)}?step=${step}`,
    );
  }

  /** The user's answer to another recorded gender: link the record with the number anyway. */
  function linkAnyway(entry: OutboxEntry) {
    const { form } = entry.draft;
    void answer({
      ...entry,
      draft: {
        ...entry.draft,
        form: { ...form, patient: { ...form.patient, linkWhateverGender: true } },
      },
      refusal: null,
      refusalCode: null,
      refusalField: null,
    });
  }

  return (
    <Stack gap="sm" component="section" aria-labelledby="waiting-title" id="waiting-uploads">
      <Title order={3} id="waiting-title">
        {offlineTexts.waitingTitle} ({entries.length + lockedCount})
      </Title>
      <OutboxUnlock />
      <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {entries.map((entry) => (
          <WaitingRow
            key={entry.id}
            entry={entry}
            onOpen={() => void open(entry)}
            onLinkAnyway={() => linkAnyway(entry)}
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
