import { Alert, Button, Group, List, Stack } from '@mantine/core';
import {
  CONDITION_DISPLAY_NAMES,
  CONDITIONS,
  FAMILY_HISTORY_CONDITIONS,
  type RiskFactorAnswers,
  type RiskFactorCriterion,
  type RuleSet,
} from '../../../engine/index.ts';
import { YesNoQuestion } from '../../components/assessment/YesNoQuestion.tsx';
import type { RecordNotes } from '../../assessment/launch.ts';

const demographicCriteria: ReadonlySet<RiskFactorCriterion['kind']> = new Set([
  'ageAtLeast',
  'ageBetween',
  'bmiAbove',
  'gender',
]);

/** Risk factors the engine applies from the demographics alone, listed from the rule set. */
const automaticRiskFactors = (ruleSet: RuleSet) =>
  CONDITIONS.flatMap((condition) =>
    ruleSet.conditions[condition].riskFactors
      .filter((factor) => demographicCriteria.has(factor.criterion.kind))
      .map((factor) => ({
        key: `${condition}-${factor.key}`,
        text: `${factor.name} (${CONDITION_DISPLAY_NAMES[condition]})`,
      })),
  );

export function RiskFactorsStep({
  ruleSet,
  answers,
  recordNotes,
  onChange,
  onBack,
  onContinue,
}: {
  /** The rules whose automatic risk factors are listed: those saves score with. */
  ruleSet: RuleSet;
  answers: RiskFactorAnswers;
  /** What the record says of smoking and family history (a launch from a record system). */
  recordNotes: Pick<RecordNotes, 'smoking' | 'familyHistory'>;
  onChange: (answers: RiskFactorAnswers) => void;
  onBack: () => void;
  onContinue: () => void;
}) {
  const familyHistory = answers.familyHistory ?? {};
  return (
    <Stack gap="lg">
      <YesNoQuestion
        label="Smoking (current or within 5 years)"
        value={answers.smoking}
        note={recordNotes.smoking}
        onChange={(smoking) => onChange({ ...answers, smoking })}
      />
      {FAMILY_HISTORY_CONDITIONS.map((condition) => (
        <YesNoQuestion
          key={condition}
          label={`Family history of ${CONDITION_DISPLAY_NAMES[condition]}`}
          value={familyHistory[condition]}
          note={recordNotes.familyHistory[condition]}
          onChange={(value) =>
            onChange({ ...answers, familyHistory: { ...familyHistory, [condition]: value } })
          }
        />
      ))}
      <YesNoQuestion
        label="Household TB exposure"
        value={answers.householdTBExposure}
        onChange={(householdTBExposure) => onChange({ ...answers, householdTBExposure })}
      />
      <Alert color="blue" title="Automatic risk factors" role="note">
        These risk factors are applied automatically from the demographics, with no question:
        <List size="sm" mt="xs">
          {automaticRiskFactors(ruleSet).map((factor) => (
            <List.Item key={factor.key}>{factor.text}</List.Item>
          ))}
        </List>
      </Alert>
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          Back to Demographics
        </Button>
        <Button onClick={onContinue}>Continue to Symptoms</Button>
      </Group>
    </Stack>
  );
}
