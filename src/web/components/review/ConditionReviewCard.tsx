import { useId, type ReactNode } from 'react';
import {
  Badge,
  Box,
  Card,
  Divider,
  Group,
  NativeSelect,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import {
  CONDITION_DISPLAY_NAMES,
  RISK_STATUS_LABELS,
  type RuleSet,
} from '../../../engine/index.ts';
import type { Assessment } from '../../../shared/api/assessments.ts';
import {
  reviewCommentsMaxLength,
  type DoctorStatus,
  type ReviewedCondition,
} from '../../../shared/api/reviews.ts';
import { riskStatusColors, safeGreen } from '../assessment/display.ts';
import {
  doctorStatusOptions,
  judgementTexts,
  managementAnswerRows,
  riskFactorRows,
  symptomAnswerRows,
  type SymptomAnswers,
} from './reviewDisplay.ts';
import { formatComorbidity, formatScore } from '../../../shared/display.ts';
import classes from './ConditionReviewCard.module.css';

type ConditionResult = Assessment['results']['conditions'][number];

function Block({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box>
      <Title order={3} size="h5" mb={4}>
        {title}
      </Title>
      {children}
    </Box>
  );
}

/** Label and value rows; the label is the row header for screen readers. */
function FactTable({
  caption,
  rows,
}: {
  caption: string;
  rows: { label: string; value: string }[];
}) {
  return (
    <Table verticalSpacing={4} horizontalSpacing="xs" fz="sm" aria-label={caption}>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.label}>
            <Table.Th scope="row" fw={400}>
              {row.label}
            </Table.Th>
            <Table.Td ta="right">{row.value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function RiskFactorTable({ ruleSet, result }: { ruleSet: RuleSet; result: ConditionResult }) {
  const rows = riskFactorRows(ruleSet, result.condition, result.details.riskFactors);
  if (rows.length === 0)
    return <Text size="sm">No risk factors are weighed for this condition.</Text>;
  return (
    <Table
      verticalSpacing={4}
      horizontalSpacing="xs"
      fz="sm"
      aria-label={`${CONDITION_DISPLAY_NAMES[result.condition]} risk factors`}
    >
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Risk factor</Table.Th>
          <Table.Th scope="col" ta="right">
            Weight
          </Table.Th>
          <Table.Th scope="col" ta="right">
            Present
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.name}>
            <Table.Th scope="row" fw={400}>
              {row.name}
            </Table.Th>
            <Table.Td ta="right">{row.weight}</Table.Td>
            <Table.Td ta="right" fw={row.applies ? 700 : 400}>
              {row.applies ? 'Yes' : 'No'}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export interface ConditionReviewCardProps {
  /** The rule set the result was scored with: its weights and names are shown. */
  ruleSet: RuleSet;
  result: ConditionResult;
  symptoms: SymptomAnswers | undefined;
  management: Assessment['management'][ConditionResult['condition']];
  review: ReviewedCondition;
  locked: boolean;
  onChange: (
    change: Partial<Pick<ReviewedCondition, 'agreed' | 'comments' | 'doctorStatus'>>,
  ) => void;
}

function agreementValue(review: ReviewedCondition): string {
  // Nothing is selected until the doctor chooses.
  if (!review.decided) return '';
  return review.agreed ? 'agree' : 'disagree';
}

/**
 * One condition as the rules scored it, with the doctor's agreement, the status a disagreeing
 * doctor would give, and comments. A condition the doctor has not chosen for is marked Not reviewed.
 */
export function ConditionReviewCard({
  ruleSet,
  result,
  symptoms,
  management,
  review,
  locked,
  onChange,
}: ConditionReviewCardProps) {
  const headingId = useId();
  const agreementLabelId = useId();
  const notReviewedId = useId();
  const name = CONDITION_DISPLAY_NAMES[result.condition];
  const { components, details } = result;
  const symptomRows = symptomAnswerRows(ruleSet, result.condition, symptoms);
  const managementScore =
    details.managementCap === undefined
      ? formatScore(components.managementScore)
      : `${formatScore(components.managementScore)} (cap ${details.managementCap})`;

  return (
    <Card withBorder component="section" aria-labelledby={headingId} padding="md" radius="md">
      <Stack gap="md">
        <Group justify="space-between" gap="sm">
          <Group gap="sm">
            <Title order={2} size="h3" id={headingId}>
              {name}
            </Title>
            {!review.decided && (
              <Badge variant="outline" color="gray.8" id={notReviewedId}>
                {judgementTexts.notReviewed}
              </Badge>
            )}
          </Group>
          <Badge size="lg" color={riskStatusColors[result.riskStatus]} autoContrast>
            {RISK_STATUS_LABELS[result.riskStatus]}
          </Badge>
        </Group>

        <Group gap="xl" style={{ rowGap: 4 }}>
          <Text size="sm">
            Total score{' '}
            <Text span fw={700}>
              {formatScore(result.totalScore)}
            </Text>
          </Text>
          <Text size="sm">
            Factor count{' '}
            <Text span fw={700}>
              {result.factorCount}
            </Text>{' '}
            against a threshold of{' '}
            <Text span fw={700}>
              {details.threshold}
            </Text>
          </Text>
        </Group>

        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" verticalSpacing="md">
          <Block title="Risk factors">
            <RiskFactorTable ruleSet={ruleSet} result={result} />
          </Block>
          <Block title="Symptoms">
            {symptomRows.length === 0 ? (
              <Text size="sm">Asymptomatic condition: no symptoms are assessed.</Text>
            ) : (
              <FactTable
                caption={`${name} symptom answers`}
                rows={symptomRows.map((row) => ({ label: row.name, value: row.answer }))}
              />
            )}
          </Block>
          <Block title="Management">
            <FactTable
              caption={`${name} management answers`}
              rows={managementAnswerRows(management)}
            />
          </Block>
          <Block title="Score breakdown">
            <FactTable
              caption={`${name} score breakdown`}
              rows={[
                { label: 'Symptom score', value: formatScore(components.symptomScore) },
                { label: 'Risk factor score', value: formatScore(components.riskFactorScore) },
                {
                  label: 'Comorbidity score',
                  value: formatComorbidity(components.comorbidityScore),
                },
                { label: 'Management score', value: managementScore },
              ]}
            />
          </Block>
        </SimpleGrid>

        <Block title="Interpretation">
          <Text size="sm">{result.interpretation}</Text>
        </Block>

        <Divider />

        <Stack gap="sm">
          <Box>
            <Text size="sm" fw={500} mb={4} id={agreementLabelId}>
              Agreement
            </Text>
            <SegmentedControl
              aria-labelledby={`${agreementLabelId} ${headingId}`}
              aria-describedby={review.decided ? undefined : notReviewedId}
              data={[
                { label: 'Agree', value: 'agree' },
                { label: 'Disagree', value: 'disagree' },
              ]}
              value={agreementValue(review)}
              onChange={(value) => onChange({ agreed: value === 'agree' })}
              // Red makes a disputed condition stand out.
              color={review.agreed ? safeGreen : 'red.9'}
              disabled={locked}
            />
          </Box>
          {review.decided && !review.agreed && (
            <NativeSelect
              label={judgementTexts.doctorStatus}
              description="Optional"
              w={{ base: '100%', xs: 280 }}
              data={[{ value: '', label: judgementTexts.noDoctorStatus }, ...doctorStatusOptions]}
              value={review.doctorStatus ?? ''}
              onChange={(event) => {
                const value = event.currentTarget.value;
                onChange({ doctorStatus: value === '' ? null : (value as DoctorStatus) });
              }}
              disabled={locked}
            />
          )}
          <Textarea
            label="Doctor Comments"
            description={review.decided || locked ? undefined : judgementTexts.commentsFirst}
            value={review.comments}
            onChange={(event) => onChange({ comments: event.currentTarget.value })}
            // An untouched condition is not saved, so its comments would be lost.
            disabled={locked || !review.decided}
            classNames={{ input: classes.comments }}
            autosize
            minRows={3}
            maxRows={10}
            maxLength={reviewCommentsMaxLength}
          />
        </Stack>
      </Stack>
    </Card>
  );
}
