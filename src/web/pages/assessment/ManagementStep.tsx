import {
  Alert,
  Button,
  Card,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import {
  CONDITION_DISPLAY_NAMES,
  CONDITIONS,
  LAST_DOCTOR_VISIT_OPTIONS,
  PRESCRIPTION_DURATION_OPTIONS,
  type Condition,
  type ConditionRules,
  type LastDoctorVisit,
  type ManagementAnswer,
  type ManagementAnswers,
  type PrescriptionDuration,
  type RuleSet,
} from '../../../engine/index.ts';
import { YesNoQuestion } from '../../components/assessment/YesNoQuestion.tsx';
import {
  formatOptionScore,
  lastDoctorVisitOption,
  prescriptionDurationOption,
} from '../../components/assessment/display.ts';
import { withManagementAnswer } from '../../assessment/form.ts';
import type { RecordNotes } from '../../assessment/launch.ts';

/** A diagnosed condition's answer with the choices made so far (a choice not made is absent). */
function diagnosedAnswer(
  lastDoctorVisit: LastDoctorVisit | undefined,
  prescriptionDuration: PrescriptionDuration | undefined,
): ManagementAnswer {
  return {
    diagnosed: true,
    ...(lastDoctorVisit === undefined ? {} : { lastDoctorVisit }),
    ...(prescriptionDuration === undefined ? {} : { prescriptionDuration }),
  };
}

function ConditionManagement({
  condition,
  rules,
  answer,
  note,
  onChange,
}: {
  condition: Condition;
  rules: ConditionRules;
  answer: ManagementAnswer | undefined;
  /** What the record says of the diagnosis (a launch from a record system). */
  note: string | null | undefined;
  onChange: (answer: ManagementAnswer) => void;
}) {
  const name = CONDITION_DISPLAY_NAMES[condition];
  const cap = rules.managementCap;
  const diagnosed = answer?.diagnosed === true;
  return (
    <Card withBorder radius="md" padding="md">
      <Stack gap="sm">
        <YesNoQuestion
          label={`Is the patient diagnosed with ${name}?`}
          value={answer?.diagnosed}
          note={note}
          // No discards the choices below: they only count for a diagnosed condition.
          onChange={(yes) => onChange(yes ? { ...answer, diagnosed: true } : { diagnosed: false })}
        />
        {diagnosed && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <NativeSelect
              label={
                <>
                  Last doctor visit<VisuallyHidden> ({name})</VisuallyHidden>
                </>
              }
              value={answer.lastDoctorVisit ?? ''}
              onChange={(event) => {
                const lastDoctorVisit = LAST_DOCTOR_VISIT_OPTIONS.find(
                  (o) => o === event.currentTarget.value,
                );
                onChange(diagnosedAnswer(lastDoctorVisit, answer.prescriptionDuration));
              }}
              data={[
                { value: '', label: 'Select timeframe' },
                ...LAST_DOCTOR_VISIT_OPTIONS.map((option) => ({
                  value: option,
                  label: lastDoctorVisitOption(rules, option),
                })),
              ]}
            />
            <NativeSelect
              label={
                <>
                  Current prescription duration<VisuallyHidden> ({name})</VisuallyHidden>
                </>
              }
              value={answer.prescriptionDuration ?? ''}
              onChange={(event) => {
                const prescriptionDuration = PRESCRIPTION_DURATION_OPTIONS.find(
                  (o) => o === event.currentTarget.value,
                );
                onChange(diagnosedAnswer(answer.lastDoctorVisit, prescriptionDuration));
              }}
              data={[
                { value: '', label: 'Select duration' },
                ...PRESCRIPTION_DURATION_OPTIONS.map((option) => ({
                  value: option,
                  label: prescriptionDurationOption(rules, option),
                })),
              ]}
            />
          </SimpleGrid>
        )}
        {diagnosed && (
          <Text size="sm" c="dimmed">
            Management score capped at {formatOptionScore(cap)} for {name}.
          </Text>
        )}
      </Stack>
    </Card>
  );
}

export function ManagementStep({
  ruleSet,
  management,
  recordNotes,
  onChange,
  onBack,
  onCalculate,
}: {
  /** The rules whose scores and caps the options show: those saves score with. */
  ruleSet: RuleSet;
  management: ManagementAnswers;
  /** What the record says of each condition's diagnosis, by condition. */
  recordNotes: RecordNotes['diagnosed'];
  onChange: (management: ManagementAnswers) => void;
  onBack: () => void;
  onCalculate: () => void;
}) {
  return (
    <Stack gap="lg">
      <Alert color="blue" title="Management" role="note">
        Management is only required for diagnosed patients. The number in brackets is the score each
        option adds; a condition&apos;s management score is capped per condition.
      </Alert>
      {CONDITIONS.map((condition) => (
        <ConditionManagement
          key={condition}
          condition={condition}
          rules={ruleSet.conditions[condition]}
          answer={management[condition]}
          note={recordNotes[condition]}
          onChange={(answer) => onChange(withManagementAnswer(management, condition, answer))}
        />
      ))}
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          Back to Symptoms
        </Button>
        <Button onClick={onCalculate}>Calculate Results</Button>
      </Group>
    </Stack>
  );
}
