import { Card, Stack, Table, Text, Title } from '@mantine/core';
import {
  CONDITION_DISPLAY_NAMES,
  CONDITIONS,
  LAST_DOCTOR_VISIT_OPTIONS,
  PRESCRIPTION_DURATION_OPTIONS,
  SEVERITIES,
  WEIGHT_CHANGES,
  type Condition,
  type RuleSet,
} from '../../../engine/index.ts';
import { lastDoctorVisitLabels, prescriptionDurationLabels } from '../../../shared/display.ts';
import { ScrollableTable } from '../../components/ScrollableTable.tsx';
import { weightPercent } from '../../components/review/reviewDisplay.ts';
import {
  criterionText,
  missingFieldsText,
  prerequisiteText,
  ruleNumber,
  scaleText,
  thresholdText,
} from './guidelinesDisplay.ts';

/** A multiplier as the table gives it; null: the answer is not counted at all. */
function figureOrNotCounted(multiplier: number | null): string {
  return multiplier === null ? 'not counted' : ruleNumber(multiplier);
}

/** The multipliers and the comorbidity score every condition shares. */
function SharedFigures({ ruleSet }: { ruleSet: RuleSet }) {
  return (
    <Card withBorder component="section" aria-labelledby="shared-figures" padding="md">
      <Title order={2} size="h3" id="shared-figures" mb="xs">
        Multipliers and scores of every condition
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        A present symptom adds its weight times the multiplier of its answer; a risk factor that
        applies adds its weight.
      </Text>
      <ScrollableTable label="Multipliers and scores" minWidth={260}>
        <Table verticalSpacing={4} fz="sm" withTableBorder aria-labelledby="shared-figures">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Answer</Table.Th>
              <Table.Th scope="col" ta="right">
                Multiplier or score
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {SEVERITIES.map((severity) => (
              <Table.Tr key={severity}>
                <Table.Th scope="row" fw={400}>
                  Severity: {severity}
                </Table.Th>
                <Table.Td ta="right">{ruleNumber(ruleSet.severityMultipliers[severity])}</Table.Td>
              </Table.Tr>
            ))}
            {WEIGHT_CHANGES.map((change) => (
              <Table.Tr key={change}>
                <Table.Th scope="row" fw={400}>
                  Weight change: {change}
                </Table.Th>
                <Table.Td ta="right">
                  {figureOrNotCounted(ruleSet.weightChangeMultipliers[change])}
                </Table.Td>
              </Table.Tr>
            ))}
            <Table.Tr>
              <Table.Th scope="row" fw={400}>
                Present, no rating
              </Table.Th>
              <Table.Td ta="right">{ruleNumber(ruleSet.unratedMultiplier)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th scope="row" fw={400}>
                Each diagnosed comorbidity
              </Table.Th>
              <Table.Td ta="right">{ruleNumber(ruleSet.comorbidityScore)}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </ScrollableTable>
    </Card>
  );
}

function ConditionRulesCard({ condition, ruleSet }: { condition: Condition; ruleSet: RuleSet }) {
  const rules = ruleSet.conditions[condition];
  const name = CONDITION_DISPLAY_NAMES[condition];
  const headingId = `rules-${condition}`;
  const notes = [thresholdText(rules), missingFieldsText(rules), prerequisiteText(rules)].filter(
    (note) => note !== null,
  );
  return (
    <Card withBorder component="section" aria-labelledby={headingId} padding="md">
      <Stack gap="sm">
        <Title order={2} size="h3" id={headingId}>
          {name}
        </Title>
        <ScrollableTable label={`${name} figures`} minWidth={260}>
          <Table verticalSpacing={4} fz="sm" withTableBorder>
            <Table.Caption>{name}: threshold, management cap and comorbidities</Table.Caption>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row" fw={400} w="40%">
                  Threshold (factors at Moderate Risk)
                </Table.Th>
                <Table.Td>{ruleNumber(rules.threshold)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row" fw={400}>
                  Management cap
                </Table.Th>
                <Table.Td>{ruleNumber(rules.managementCap)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row" fw={400}>
                  Comorbidities (each adds {ruleNumber(ruleSet.comorbidityScore)} when diagnosed)
                </Table.Th>
                <Table.Td>
                  {rules.comorbidities.length === 0
                    ? 'None'
                    : rules.comorbidities.map((other) => CONDITION_DISPLAY_NAMES[other]).join(', ')}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </ScrollableTable>
        {notes.map((note) => (
          <Text size="sm" key={note}>
            {note}
          </Text>
        ))}

        <Title order={3} size="h5">
          Symptoms
        </Title>
        {rules.symptoms.length === 0 ? (
          <Text size="sm">No symptoms are scored: {name} is scored without them.</Text>
        ) : (
          <ScrollableTable label={`${name} symptoms`} minWidth={520}>
            <Table striped verticalSpacing={4} fz="sm" withTableBorder>
              <Table.Caption>{name} symptoms</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Symptom</Table.Th>
                  <Table.Th scope="col" ta="right">
                    Weight
                  </Table.Th>
                  <Table.Th scope="col">Rated as</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rules.symptoms.map((symptom) => (
                  <Table.Tr key={symptom.key}>
                    <Table.Th scope="row" fw={400}>
                      {symptom.name}
                    </Table.Th>
                    <Table.Td ta="right">{ruleNumber(symptom.weight)}</Table.Td>
                    <Table.Td>{scaleText(symptom.scale, ruleSet)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollableTable>
        )}

        <Title order={3} size="h5">
          Risk factors
        </Title>
        <ScrollableTable label={`${name} risk factors`} minWidth={520}>
          <Table striped verticalSpacing={4} fz="sm" withTableBorder>
            <Table.Caption>{name} risk factors</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Risk factor</Table.Th>
                <Table.Th scope="col" ta="right">
                  Weight
                </Table.Th>
                <Table.Th scope="col">Applies when</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rules.riskFactors.map((factor) => (
                <Table.Tr key={factor.key}>
                  <Table.Th scope="row" fw={400}>
                    {factor.name}
                  </Table.Th>
                  <Table.Td ta="right">
                    {ruleNumber(factor.weight)} ({weightPercent(factor.weight)})
                  </Table.Td>
                  <Table.Td>{criterionText(factor.criterion)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollableTable>

        <Title order={3} size="h5">
          Management, when diagnosed
        </Title>
        <ScrollableTable label={`${name} management scores`} minWidth={420}>
          <Table striped verticalSpacing={4} fz="sm" withTableBorder>
            <Table.Caption>
              {name} management scores, added together up to the cap of{' '}
              {ruleNumber(rules.managementCap)}
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Answer</Table.Th>
                <Table.Th scope="col" ta="right">
                  Score
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {LAST_DOCTOR_VISIT_OPTIONS.map((option) => (
                <Table.Tr key={`visit ${option}`}>
                  <Table.Th scope="row" fw={400}>
                    Last doctor visit: {lastDoctorVisitLabels[option]}
                  </Table.Th>
                  <Table.Td ta="right">{ruleNumber(rules.lastDoctorVisitScores[option])}</Table.Td>
                </Table.Tr>
              ))}
              {PRESCRIPTION_DURATION_OPTIONS.map((option) => (
                <Table.Tr key={`prescription ${option}`}>
                  <Table.Th scope="row" fw={400}>
                    Current prescription: {prescriptionDurationLabels[option]}
                  </Table.Th>
                  <Table.Td ta="right">
                    {ruleNumber(rules.prescriptionDurationScores[option])}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollableTable>
      </Stack>
    </Card>
  );
}

/** Every figure of a rule set, as the data holds it: shared multipliers, then each condition. */
export function RuleSetTables({ ruleSet }: { ruleSet: RuleSet }) {
  return (
    <Stack gap="md">
      <SharedFigures ruleSet={ruleSet} />
      {CONDITIONS.map((condition) => (
        <ConditionRulesCard key={condition} condition={condition} ruleSet={ruleSet} />
      ))}
    </Stack>
  );
}
