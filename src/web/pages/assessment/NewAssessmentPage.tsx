import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert, Button, Container, Group, Loader, Stack, Text } from '@mantine/core';
import { generateAssessmentCode } from '../../../engine/index.ts';
import { getPatient } from '../../api/patients.ts';
import { errorMessage } from '../../forms.ts';
import type { WizardRecord } from '../../hooks/useAssessmentWizard.ts';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { useSignedInUser } from '../../hooks/useSession.ts';
import { useOutbox } from '../../offline/OutboxContext.ts';
import { AssessmentWizard } from './AssessmentWizard.tsx';
import type { JustCreated } from './SavedAssessmentPage.tsx';
import { newDraft, writeDraft, type AssessmentDraft } from '../../assessment/draft.ts';
import { readDraftFor } from '../../assessment/readDraft.ts';
import { emptyForm, type AssessmentForm } from '../../assessment/form.ts';
import { withChosenPatient } from '../../assessment/patient.ts';

function startDraft(userId: string, form: AssessmentForm = emptyForm): AssessmentDraft {
  return newDraft(userId, generateAssessmentCode(Date.now(), Math.random), form);
}

const patientLoadFailed = 'Failed to load patient';

/** The assessment in progress in this tab, or a fresh one when there is none. */
function NewAssessmentWizard({ userId }: { userId: string }) {
  const navigate = useNavigate();
  const [initial] = useState<WizardRecord>(() => {
    const draft = readDraftFor(userId, null) ?? startDraft(userId);
    return {
      code: draft.code,
      saved: null,
      baseVersion: null,
      resultsCalculated: draft.resultsCalculated,
      form: draft.form,
    };
  });
  return (
    <AssessmentWizard
      initial={initial}
      onCreated={(assessment) =>
        void navigate(`/assessments/${encodeURIComponent(assessment.id)}`, {
          replace: true,
          state: { justCreated: true } satisfies JustCreated,
        })
      }
    />
  );
}

function PatientLoadFailed({
  message,
  onRetry,
  onWithout,
}: {
  message: string;
  onRetry: () => void;
  onWithout: () => void;
}) {
  usePageTitle(patientLoadFailed);
  return (
    <Container size="lg">
      <Alert color="red" title={patientLoadFailed}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{message}</Text>
          <Group gap="sm">
            <Button size="xs" onClick={onRetry}>
              Try Again
            </Button>
            <Button size="xs" variant="default" onClick={onWithout}>
              Start without a patient
            </Button>
            <Button size="xs" variant="subtle" component={Link} to="/">
              Back to Dashboard
            </Button>
          </Group>
        </Stack>
      </Alert>
    </Container>
  );
}

/**
 * `/assessments/new` starts a new assessment: all data reset, step 1, a new code (spec 4);
 * `/assessments/new?patient=<id>` starts it for that patient record, which fills what it knows.
 * The wizard then keeps `?step=` in the address, and an address with a step restores the
 * assessment in progress, so that reloading the tab loses nothing.
 */
export function NewAssessmentPage() {
  const user = useSignedInUser();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const starting = !searchParams.has('step');
  const patientId = starting ? searchParams.get('patient') : null;
  const [failure, setFailure] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const { keepPatients } = useOutbox();

  useEffect(() => {
    if (!starting) return;
    const begin = (form?: AssessmentForm) => {
      writeDraft(startDraft(user.id, form));
      void navigate({ search: '?step=1' }, { replace: true });
    };
    if (patientId === null) {
      begin();
      return;
    }
    const controller = new AbortController();
    setFailure(null);
    getPatient(patientId, controller.signal).then(
      // A new assessment is made today: the age the server gives for today.
      (patient) => {
        // Opened here, the record stays on the device for step 1 to offer offline.
        keepPatients([patient]).catch(() => undefined);
        begin(withChosenPatient(emptyForm, patient, patient.age));
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setFailure(errorMessage(error));
      },
    );
    return () => controller.abort();
  }, [starting, patientId, user.id, navigate, attempt, keepPatients]);

  if (!starting) return <NewAssessmentWizard userId={user.id} />;
  if (failure !== null) {
    return (
      <PatientLoadFailed
        message={failure}
        onRetry={() => setAttempt((n) => n + 1)}
        onWithout={() => void navigate('/assessments/new', { replace: true })}
      />
    );
  }
  if (patientId === null) return null;
  return (
    <Group gap="sm" role="status">
      <Loader size="sm" />
      <Text>Loading patient...</Text>
    </Group>
  );
}
