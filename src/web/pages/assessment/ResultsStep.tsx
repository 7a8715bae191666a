import { useState } from 'react';
import { Link } from 'react-router';
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import type { AssessmentResult } from '../../../engine/index.ts';
import { notesMaxLength } from '../../../shared/api/assessments.ts';
import { can } from '../../../shared/permissions.ts';
import type { Role } from '../../../shared/api/users.ts';
import { AttentionGrid } from '../../components/assessment/AttentionGrid.tsx';
import { ConditionResultCard } from '../../components/assessment/ConditionResultCard.tsx';
import { DownloadReportButton } from '../../components/assessment/DownloadReportButton.tsx';
import { FactorCountChart } from '../../components/assessment/FactorCountChart.tsx';
import { LoadingText, loadingTexts } from '../../components/errors/LoadingText.tsx';
import { Figure } from '../../components/assessment/Figure.tsx';
import { ReplacedNotes } from '../../components/assessment/ReplacedNotes.tsx';
import { SignOffDialog } from '../../components/assessment/SignOffDialog.tsx';
import { formatLocalDateTime, screenBmi } from '../../format.ts';
import type { AssessmentWizardState } from '../../hooks/useAssessmentWizard.ts';
import { usePreviousAssessment } from '../../hooks/usePreviousAssessment.ts';
import { safeGreen, safeOrange } from '../../components/assessment/display.ts';
import { formatScore } from '../../../shared/display.ts';
import { offlineTexts } from '../../offline/texts.ts';
import { useOnline } from '../../offline/useOnline.ts';
import { ruleSetLabel } from '../../assessment/activeRuleSet.ts';
import { hasInvalidDemographics } from '../../assessment/form.ts';
import { saveButtonState, wizardTexts } from '../../components/assessment/messages.ts';
import { PatientPanel, SinceLastSection } from './SinceLastSection.tsx';

function Summary({
  result,
  source,
  wizard,
}: {
  result: AssessmentResult;
  source: 'saved' | 'live';
  wizard: AssessmentWizardState;
}) {
  const { saved } = wizard;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="Summary">
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md">
        <Figure label="Patient BMI">{screenBmi(result.patientBMI)}</Figure>
        <div>
          <Text size="sm" c="dimmed">
            Assessment status
          </Text>
          <Badge
            size="lg"
            mt={4}
            color={result.assessmentComplete ? safeGreen : safeOrange}
            style={{ textTransform: 'none' }}
          >
            {result.assessmentComplete ? 'Complete' : 'Incomplete'}
          </Badge>
        </div>
        <Figure label="Total score">{formatScore(result.totalScore)}</Figure>
      </SimpleGrid>
      <Text size="sm" c="dimmed" mt="sm">
        {source === 'saved' && saved !== null
          ? `Results as saved on the server (last changed ${formatLocalDateTime(saved.updatedAt)}).`
          : 'Results calculated from the current answers; they are stored when the assessment is saved.'}
        {` ${wizardTexts.scoredWith(ruleSetLabel(result.ruleSetVersion))}`}
        {saved?.signedOff === true &&
          saved.signedOffAt !== null &&
          ` Signed off by ${saved.signedOffBy ?? 'unknown'} on ${formatLocalDateTime(saved.signedOffAt)}.`}
      </Text>
    </Paper>
  );
}

function ClinicalNotes({ wizard }: { wizard: AssessmentWizardState }) {
  const unsaved = wizard.dirty && !wizard.signedOff;
  return (
    <Stack gap="xs">
      {wizard.replacedNotes !== null && (
        <ReplacedNotes notes={wizard.replacedNotes} onDismiss={wizard.dismissReplacedNotes} />
      )}
      <Textarea
        label="Clinical Notes"
        labelProps={{ fz: 'lg', fw: 700 }}
        description="These notes can be viewed by other healthcare providers."
        rows={6}
        maxLength={notesMaxLength}
        value={wizard.form.notes}
        disabled={wizard.signedOff}
        // Signed-off notes are still clinical content to read: full contrast, not greyed out.
        styles={
          wizard.signedOff
            ? { input: { opacity: 1, '--input-disabled-color': 'var(--mantine-color-text)' } }
            : undefined
        }
        onChange={(event) => {
          const notes = event.currentTarget.value;
          wizard.updateForm((form) => ({ ...form, notes }));
        }}
      />
      {/* Always rendered, so that screen readers hear the text when it appears. */}
      <Text size="sm" fw={600} c={safeOrange} role="status" ta="right">
        {unsaved ? wizardTexts.unsavedChanges : ''}
      </Text>
    </Stack>
  );
}

/** Why sign-off is not offered yet, or null when it is. */
function signOffHint(wizard: AssessmentWizardState, online: boolean): string | null {
  if (wizard.saved === null) return 'Save the assessment before signing it off.';
  if (wizard.dirty) return 'Save your changes before signing off.';
  if (!online) return offlineTexts.needsConnection;
  return null;
}

function Actions({
  wizard,
  role,
  onBack,
  onNewAssessment,
}: {
  wizard: AssessmentWizardState;
  role: Role;
  onBack: () => void;
  onNewAssessment: () => void;
}) {
  const [confirmOpened, setConfirmOpened] = useState(false);
  const { saved, signedOff } = wizard;
  const saveButton = saveButtonState({
    saved: saved !== null,
    dirty: wizard.dirty,
    saving: wizard.saving,
  });
  const patientIssues = Object.values(wizard.patientProblems);
  const patientInvalid = patientIssues.length > 0;
  const saveBlocked = hasInvalidDemographics(wizard.parsed) || patientInvalid;
  const online = useOnline();
  const hint = signOffHint(wizard, online);

  async function confirmSignOff() {
    await wizard.signOff();
    setConfirmOpened(false);
  }

  return (
    <Stack gap="sm">
      {wizard.conflict !== null && (
        <Alert color="red" title="This assessment was changed">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{wizard.conflict}</Text>
            <Button size="xs" loading={wizard.reloading} onClick={() => void wizard.reload()}>
              Reload
            </Button>
          </Stack>
        </Alert>
      )}
      {wizard.failure !== null && (
        <Alert color="red" title={wizard.failure.title}>
          {wizard.failure.message}
        </Alert>
      )}
      {hasInvalidDemographics(wizard.parsed) && !signedOff && (
        <Text size="sm" c="red.9">
          Correct the demographics before saving.
        </Text>
      )}
      {patientInvalid && !signedOff && (
        <Text size="sm" c="red.9">
          Before saving, correct the patient in the demographics: {patientIssues.join('. ')}.
        </Text>
      )}
      <Group gap="sm" wrap="wrap">
        {!signedOff && (
          <Button variant="default" onClick={onBack}>
            Back to Management
          </Button>
        )}
        {!signedOff && (
          <Button
            onClick={() => void wizard.save()}
            disabled={saveButton.disabled || saveBlocked || wizard.conflict !== null}
          >
            {saveButton.label}
          </Button>
        )}
        <DownloadReportButton assessmentId={saved?.id ?? null} />
        {saved !== null && (
          <Button variant="default" component={Link} to={`/assessments/${saved.id}/report`}>
            Print
          </Button>
        )}
        {saved !== null && can(role, 'review.view') && (
          <Button variant="default" component={Link} to={`/assessments/${saved.id}/review`}>
            Doctor Review
          </Button>
        )}
        {signedOff ? (
          <Button onClick={onNewAssessment}>New Assessment</Button>
        ) : (
          <Button
            color="grape.9"
            disabled={hint !== null || wizard.conflict !== null}
            onClick={() => setConfirmOpened(true)}
          >
            Sign Off Results
          </Button>
        )}
      </Group>
      {!signedOff && hint !== null && (
        <Text size="sm" c="dimmed">
          {hint}
        </Text>
      )}
      <SignOffDialog
        opened={confirmOpened}
        signingOff={wizard.signingOff}
        onConfirm={() => void confirmSignOff()}
        onClose={() => setConfirmOpened(false)}
      />
    </Stack>
  );
}

export function ResultsStep({
  wizard,
  role,
  onBack,
  onNewAssessment,
}: {
  wizard: AssessmentWizardState;
  role: Role;
  onBack: () => void;
  onNewAssessment: () => void;
}) {
  const { results } = wizard;
  const previous = usePreviousAssessment(wizard.form.patient.chosen?.id ?? null, wizard.saved);
  return (
    <Stack gap="xl">
      <PatientPanel patient={wizard.form.patient} previous={previous} />
      {results.status === 'loading' ? (
        <LoadingText text={loadingTexts.results} />
      ) : results.status === 'failed' ? (
        <Alert color="red" title="Results">
          {results.message}
        </Alert>
      ) : (
        <>
          <Summary result={results.result} source={results.source} wizard={wizard} />
          {previous.status === 'loaded' && previous.previous !== null && (
            <SinceLastSection result={results.result} previous={previous.previous} />
          )}
          <AttentionGrid conditions={results.result.conditions} />
          <FactorCountChart conditions={results.result.conditions} />
          <Stack gap="xs" component="section" aria-labelledby="details-heading">
            <Title order={2} size="h3" id="details-heading">
              Condition Details
            </Title>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
              {results.result.conditions.map((result) => (
                <ConditionResultCard key={result.condition} result={result} />
              ))}
            </SimpleGrid>
          </Stack>
        </>
      )}
      <ClinicalNotes wizard={wizard} />
      <Actions wizard={wizard} role={role} onBack={onBack} onNewAssessment={onNewAssessment} />
    </Stack>
  );
}
