import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Alert, Button, Container, Group, Loader, Stack, Text } from '@mantine/core';
import { generateAssessmentCode } from '../../../engine/index.ts';
import { getPatient } from '../../api/patients.ts';
import { getSmartLaunch } from '../../api/smart-launch.ts';
import type { Patient } from '../../../shared/api/patients.ts';
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
import { formFromLaunch, recordLaunchOf, type RecordLaunch } from '../../assessment/launch.ts';
import { keepWriteBackLink } from '../../assessment/writeBack.ts';

function startDraft(
  userId: string,
  form: AssessmentForm = emptyForm,
  launch?: RecordLaunch,
): AssessmentDraft {
  return newDraft(userId, generateAssessmentCode(Date.now(), Math.random), form, launch);
}

export const newAssessmentTexts = {
  patientLoadFailed: 'Failed to load patient',
  withoutPatient: 'Start without a patient',
  loadingPatient: 'Loading patient...',
  launchLoadFailed: 'Failed to load the record',
  withoutRecord: 'Start without the record',
  loadingRecord: 'Loading the record...',
} as const;

interface LoadFailure {
  title: string;
  message: string;
}

/** A failed step of starting from a launch: which one it was, and why. */
class LaunchStartFailed extends Error {
  readonly failure: LoadFailure;
  constructor(title: string, error: unknown) {
    super(title);
    this.failure = { title, message: errorMessage(error) };
  }
}

/**
 * A launch from a record system, read for a new assessment: its patient record chosen (when the
 * server matched or made one) and the record's values filled in over it.
 */
async function startFromLaunch(
  launchId: string,
  signal: AbortSignal,
  keepPatient: (patient: Patient) => void,
): Promise<{ form: AssessmentForm; launch: RecordLaunch }> {
  const smart = await getSmartLaunch(launchId, signal).catch((error: unknown) => {
    throw new LaunchStartFailed(newAssessmentTexts.launchLoadFailed, error);
  });
  const launch = recordLaunchOf(smart);
  if (smart.patientRecordId === null) return { form: formFromLaunch(launch, null), launch };
  const patient = await getPatient(smart.patientRecordId, signal).catch((error: unknown) => {
    throw new LaunchStartFailed(newAssessmentTexts.patientLoadFailed, error);
  });
  keepPatient(patient);
  return { form: formFromLaunch(launch, patient), launch };
}

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
      launch: draft.launch ?? null,
    };
  });
  return (
    <AssessmentWizard
      initial={initial}
      onCreated={(assessment) => {
        const { launch } = initial;
        // The saved page sends it into the record, once, and says how that went.
        if (launch?.writeBack === true) {
          keepWriteBackLink(assessment.id, { launchId: launch.id, state: 'due' });
        }
        void navigate(`/assessments/${encodeURIComponent(assessment.id)}`, {
          replace: true,
          state: { justCreated: true } satisfies JustCreated,
        });
      }}
    />
  );
}

function LoadFailed({
  failure,
  withoutLabel,
  onRetry,
  onWithout,
}: {
  failure: LoadFailure;
  withoutLabel: string;
  onRetry: () => void;
  onWithout: () => void;
}) {
  usePageTitle(failure.title);
  return (
    <Container size="lg">
      <Alert color="red" title={failure.title}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{failure.message}</Text>
          <Group gap="sm">
            <Button size="xs" onClick={onRetry}>
              Try Again
            </Button>
            <Button size="xs" variant="default" onClick={onWithout}>
              {withoutLabel}
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
 * `/assessments/new?patient=<id>` starts it for that patient record, which fills what it knows;
 * `/assessments/new?launch=<id>` (where a launch from a record system lands) starts it with what
 * the record says, for the launch's patient record. The wizard then keeps `?step=` in the
 * address, and an address with a step restores the assessment in progress (the launch's values
 * with it), so that reloading the tab loses nothing.
 */
export function NewAssessmentPage() {
  const user = useSignedInUser();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const starting = !searchParams.has('step');
  const launchId = starting ? searchParams.get('launch') : null;
  const patientId = starting && launchId === null ? searchParams.get('patient') : null;
  const [failure, setFailure] = useState<LoadFailure | null>(null);
  const [attempt, setAttempt] = useState(0);
  const { keepPatients } = useOutbox();

  useEffect(() => {
    if (!starting) return;
    const begin = (form?: AssessmentForm, launch?: RecordLaunch) => {
      writeDraft(startDraft(user.id, form, launch));
      void navigate({ search: '?step=1' }, { replace: true });
    };
    // Opened here, the record stays on the device for step 1 to offer offline.
    const keepPatient = (patient: Patient) => void keepPatients([patient]).catch(() => undefined);
    const controller = new AbortController();
    if (launchId !== null) {
      setFailure(null);
      startFromLaunch(launchId, controller.signal, keepPatient).then(
        ({ form, launch }) => begin(form, launch),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setFailure(
            error instanceof LaunchStartFailed
              ? error.failure
              : { title: newAssessmentTexts.launchLoadFailed, message: errorMessage(error) },
          );
        },
      );
      return () => controller.abort();
    }
    if (patientId === null) {
      begin();
      return;
    }
    setFailure(null);
    getPatient(patientId, controller.signal).then(
      // A new assessment is made today: the age the server gives for today.
      (patient) => {
        keepPatient(patient);
        begin(withChosenPatient(emptyForm, patient, patient.age));
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setFailure({ title: newAssessmentTexts.patientLoadFailed, message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [starting, launchId, patientId, user.id, navigate, attempt, keepPatients]);

  if (!starting) return <NewAssessmentWizard userId={user.id} />;
  if (failure !== null) {
    return (
      <LoadFailed
        failure={failure}
        withoutLabel={
          launchId === null ? newAssessmentTexts.withoutPatient : newAssessmentTexts.withoutRecord
        }
        onRetry={() => setAttempt((n) => n + 1)}
        onWithout={() => void navigate('/assessments/new', { replace: true })}
      />
    );
  }
  if (launchId === null && patientId === null) return null;
  return (
    <Group gap="sm" role="status">
      <Loader size="sm" />
      <Text>
        {launchId === null ? newAssessmentTexts.loadingPatient : newAssessmentTexts.loadingRecord}
      </Text>
    </Group>
  );
}
