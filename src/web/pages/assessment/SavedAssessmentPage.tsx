import { useState } from 'react';
import { useLocation, useParams } from 'react-router';
import { Alert, Button, Container, Group, Loader, Stack, Text } from '@mantine/core';
import type { Assessment } from '../../../shared/api/assessments.ts';
import { useAssessment } from '../../hooks/useAssessment.ts';
import type { WizardRecord } from '../../hooks/useAssessmentWizard.ts';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { useSignedInUser } from '../../hooks/useSession.ts';
import { offlineTexts } from '../../offline/texts.ts';
import { AssessmentWizard } from './AssessmentWizard.tsx';
import { RecordWriteBack } from './RecordWriteBack.tsx';
import { readDraftFor } from '../../assessment/readDraft.ts';
import { formFromAssessment } from '../../assessment/form.ts';
import { wizardTexts } from '../../components/assessment/messages.ts';

/** The stored assessment, with this tab's unsaved changes to it when there are any. */
function initialRecord(assessment: Assessment, userId: string): WizardRecord {
  const draft = assessment.signedOff ? null : readDraftFor(userId, assessment.id);
  return {
    code: assessment.code ?? assessment.id,
    saved: assessment,
    // Changes restored from the tab stay based on the version they were made on, so that saving
    // them over someone else's newer version is refused rather than overwriting it.
    baseVersion: draft?.baseVersion ?? assessment.version,
    resultsCalculated: true,
    form: draft?.form ?? formFromAssessment(assessment),
    // The record's values are notes on a new assessment's fields; once saved, its own answers.
    launch: null,
  };
}

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  usePageTitle(wizardTexts.loadFailed);
  return (
    <Container size="lg">
      <Alert color="red" title={wizardTexts.loadFailed}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{wizardTexts.loadFailedRetry}</Text>
          <Button size="xs" onClick={onRetry}>
            Try Again
          </Button>
        </Stack>
      </Alert>
    </Container>
  );
}

function LoadedAssessment({ assessment, userId }: { assessment: Assessment; userId: string }) {
  const [initial] = useState(() => initialRecord(assessment, userId));
  // Saved assessments are only ever updated here, never created.
  return (
    <AssessmentWizard
      initial={initial}
      onCreated={() => undefined}
      notice={<RecordWriteBack assessmentId={assessment.id} />}
    />
  );
}

/** Router state of the navigation that follows a first save: the cached copy is its answer. */
export interface JustCreated {
  justCreated: true;
}

function SavedAssessment({ id, justCreated }: { id: string; justCreated: boolean }) {
  const user = useSignedInUser();
  const query = useAssessment(id);
  // The wizard opens on the assessment as the server has it now (its version is what an update
  // names), not on an older cached copy unless offline, and stays open whatever later reads bring.
  // Right after its first save the cache holds the server's answer to that save: opening on it
  // keeps the results on screen where they were, with no loader between.
  const [opened, setOpened] = useState<Assessment | null>(null);
  const paused = query.fetchStatus === 'paused';
  const current = query.isFetchedAfterMount || paused || justCreated ? query.data : undefined;
  if (opened === null && current !== undefined && !query.isError) setOpened(current);

  if (opened !== null) return <LoadedAssessment assessment={opened} userId={user.id} />;
  if (query.isError && !query.isFetching) {
    return <LoadFailed onRetry={() => void query.refetch()} />;
  }
  if (paused) {
    return (
      <Alert color="gray" title={offlineTexts.offlineTitle} role="status">
        {offlineTexts.needsConnection}
      </Alert>
    );
  }
  return (
    <Group gap="sm" role="status">
      <Loader size="sm" />
      <Text>Loading results...</Text>
    </Group>
  );
}

/** `/assessments/:id`: a saved assessment, opened at its results (spec 4). */
export function SavedAssessmentPage() {
  const { id = '' } = useParams();
  const state = useLocation().state as Partial<JustCreated> | null;
  // A different id is a different assessment: nothing of the previous one may carry over.
  return <SavedAssessment key={id} id={id} justCreated={state?.justCreated === true} />;
}
