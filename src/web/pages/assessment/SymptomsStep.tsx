import { useEffect, useRef } from 'react';
import { Alert, Button, Card, Group, Progress, Stack, Text, Title } from '@mantine/core';
import {
  CONDITION_DISPLAY_NAMES,
  CONDITIONS,
  SEVERITIES,
  SYMPTOM_CATALOGUE,
  WEIGHT_CHANGES,
  type Condition,
  type RuleSet,
  type SymptomAnswer,
  type SymptomAnswers,
  type SymptomRule,
} from '../../../engine/index.ts';
import { ChoiceGroup } from '../../components/assessment/ChoiceGroup.tsx';
import { YesNoQuestion } from '../../components/assessment/YesNoQuestion.tsx';
import { severityLabels, weightChangeLabels } from '../../components/assessment/display.ts';
import { symptomAnswers, withSymptomAnswer } from '../../assessment/form.ts';
import { wizardTexts } from '../../components/assessment/messages.ts';

const severityOptions = SEVERITIES.map((value) => ({ value, label: severityLabels[value] }));
const weightChangeOptions = WEIGHT_CHANGES.map((value) => ({
  value,
  label: weightChangeLabels[value],
}));

/**
 * One symptom (spec 4 'Symptom input'): No stores present=false; Yes reveals the severity, or for a
 * weight change the choice of loss or gain.
 */
function SymptomQuestion({
  symptom,
  answer,
  onChange,
}: {
  symptom: SymptomRule;
  answer: SymptomAnswer | undefined;
  onChange: (answer: SymptomAnswer) => void;
}) {
  const question = symptom.scale === 'weightChange' ? 'Weight change' : symptom.name;
  return (
    <Stack gap="xs">
      <YesNoQuestion
        label={question}
        value={answer?.present}
        onChange={(present) =>
          onChange(
            present && answer?.severity !== undefined
              ? { present, severity: answer.severity }
              : { present },
          )
        }
      />
      {answer?.present === true && symptom.scale === 'severity' && (
        <ChoiceGroup
          label={`${symptom.name} severity`}
          options={severityOptions}
          value={SEVERITIES.find((s) => s === answer.severity)}
          onChange={(severity) => onChange({ present: true, severity })}
        />
      )}
      {answer?.present === true && symptom.scale === 'weightChange' && (
        <ChoiceGroup
          label="Loss or gain"
          options={weightChangeOptions}
          value={WEIGHT_CHANGES.find((w) => w === answer.severity)}
          onChange={(severity) => onChange({ present: true, severity })}
        />
      )}
    </Stack>
  );
}

function ConditionNotice({ condition }: { condition: Condition }) {
  if (condition === 'Asthma') {
    return (
      <Alert
        color="yellow"
        title={wizardTexts.asthmaPrerequisiteTitle}
        role="note"
        // Yellow text on the yellow tint is below the WCAG AA contrast ratio.
        styles={{ title: { color: 'var(--mantine-color-text)' } }}
      >
        {wizardTexts.asthmaPrerequisite}
      </Alert>
    );
  }
  if (SYMPTOM_CATALOGUE[condition].length === 0) {
    return (
      <Alert color="blue" title={wizardTexts.asymptomaticTitle} role="note">
        {CONDITION_DISPLAY_NAMES[condition]} has no symptoms to record. It is assessed from risk
        factors, comorbidities and management.
      </Alert>
    );
  }
  return null;
}

/** The symptoms of one condition at a time, in the order of spec 2.6. */
export function SymptomsStep({
  ruleSet,
  symptoms,
  conditionIndex,
  onChange,
  onConditionChange,
  onBack,
  onContinue,
}: {
  /** The rules whose symptom names are shown: those saves score with. */
  ruleSet: RuleSet;
  symptoms: SymptomAnswers;
  conditionIndex: number;
  onChange: (symptoms: SymptomAnswers) => void;
  onConditionChange: (index: number) => void;
  onBack: () => void;
  onContinue: () => void;
}) {
  const condition = CONDITIONS[conditionIndex] ?? CONDITIONS[0];
  const position = CONDITIONS.indexOf(condition) + 1;
  const answers = symptomAnswers(symptoms, condition);
  const rules = ruleSet.conditions[condition];
  // Moving between conditions replaces the questions: start keyboard and screen reader users at
  // the new condition's name rather than on a button that may just have become disabled.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shownCondition = useRef(condition);
  useEffect(() => {
    if (shownCondition.current === condition) return;
    shownCondition.current = condition;
    headingRef.current?.focus();
  }, [condition]);
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="md">
        <Stack gap="md">
          <Stack gap={4}>
            <Text size="sm" fw={600}>
              Step {position} of {CONDITIONS.length}
            </Text>
            <Progress
              value={(position / CONDITIONS.length) * 100}
              aria-label={`Condition ${position} of ${CONDITIONS.length}`}
              size="sm"
            />
          </Stack>
          <Title order={2} size="h3" ref={headingRef} tabIndex={-1}>
            {CONDITION_DISPLAY_NAMES[condition]}
          </Title>
          <ConditionNotice condition={condition} />
          {rules.symptoms.map((symptom) => (
            <SymptomQuestion
              key={symptom.key}
              symptom={symptom}
              answer={answers[symptom.key]}
              onChange={(answer) =>
                onChange(withSymptomAnswer(symptoms, condition, symptom.key, answer))
              }
            />
          ))}
          <Group justify="space-between">
            <Button
              variant="default"
              disabled={position === 1}
              onClick={() => onConditionChange(position - 2)}
            >
              Previous Condition
            </Button>
            <Button
              variant="default"
              disabled={position === CONDITIONS.length}
              onClick={() => onConditionChange(position)}
            >
              Next Condition
            </Button>
          </Group>
        </Stack>
      </Card>
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          Back to Risk Factors
        </Button>
        <Button onClick={onContinue}>Continue to Management</Button>
      </Group>
    </Stack>
  );
}
