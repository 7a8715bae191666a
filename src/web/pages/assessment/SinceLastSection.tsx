import { Link } from 'react-router';
import { Anchor, Group, Loader, Paper, Stack, Table, Text, Title } from '@mantine/core';
import {
  CONDITION_DISPLAY_NAMES,
  type AssessmentResult,
  type RiskStatus,
} from '../../../engine/index.ts';
import type { PatientAssessment } from '../../../shared/api/patients.ts';
import { formatBmiChange, formatScoreChange, sinceLast } from '../../../shared/since-last.ts';
import { RiskStatusBadge } from '../../components/assessment/RiskStatusBadge.tsx';
import { ScrollableTable } from '../../components/ScrollableTable.tsx';
import { formatLocalDateTime, screenBmi } from '../../format.ts';
import type { PreviousAssessmentLoad } from '../../hooks/usePreviousAssessment.ts';
import { isNewPatient, type PatientForm } from '../../assessment/form.ts';
import { patientLabel } from '../../assessment/patient.ts';

const notScored = 'Not scored';
const statusColumnWidth = 150;

function StatusCell({ status }: { status: RiskStatus | null }) {
  return status === null ? <Text size="sm">{notScored}</Text> : <RiskStatusBadge status={status} />;
}

/** What the previous assessment comes to on screen while it loads, or when there is none. */
function previousNote(load: PreviousAssessmentLoad) {
  switch (load.status) {
    case 'none':
      return null;
    case 'loading':
      return (
        <Group gap="xs">
          <Loader size="xs" />
          <Text size="sm">Loading the last assessment...</Text>
        </Group>
      );
    case 'failed':
      return (
        <Text size="sm" c="red.9">
          The last assessment could not be loaded: {load.message}
        </Text>
      );
    case 'loaded':
      return load.previous === null ? (
        <Text size="sm">This is the patient&apos;s first assessment.</Text>
      ) : null;
  }
}

/**
 * The patient record the assessment belongs to, with a link to the patient's page; nothing for an
 * assessment without one.
 */
export function PatientPanel({
  patient,
  previous,
}: {
  patient: PatientForm;
  previous: PreviousAssessmentLoad;
}) {
  const { chosen } = patient;
  if (chosen === null && !isNewPatient(patient)) return null;
  const name = patient.name.trim();
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-label="Patient">
      <Stack gap={4}>
        <Text size="sm" c="dimmed">
          Patient
        </Text>
        {chosen !== null ? (
          <Anchor component={Link} to={`/patients/${encodeURIComponent(chosen.id)}`} fw={700}>
            {patientLabel(chosen)}
          </Anchor>
        ) : (
          <Text fw={700}>
            {patientLabel({ number: patient.number.trim(), name: name === '' ? null : name })}
          </Text>
        )}
        {chosen === null && (
          <Text size="sm">A new patient record is made when the assessment is saved.</Text>
        )}
        {previousNote(previous)}
      </Stack>
    </Paper>
  );
}

/**
 * 'Since the last assessment': the patient's previous assessment beside this one, per condition
 * the status then and now and the change in total score, and the change in BMI.
 */
export function SinceLastSection({
  result,
  previous,
}: {
  result: AssessmentResult;
  previous: PatientAssessment;
}) {
  const comparison = sinceLast({ bmi: result.patientBMI, results: result.conditions }, previous);
  const { bmiChange } = comparison;
  return (
    <Stack gap="xs" component="section" aria-labelledby="since-last-heading">
      <Title order={2} size="h3" id="since-last-heading">
        Since the last assessment
      </Title>
      <Text>
        Compared with the assessment of{' '}
        <Anchor component={Link} to={`/assessments/${encodeURIComponent(comparison.previousId)}`}>
          {formatLocalDateTime(comparison.previousDate)}
        </Anchor>
        {comparison.previousCode !== null && ` (${comparison.previousCode})`}.
      </Text>
      <Text>
        BMI {screenBmi(comparison.bmiThen)} then, {screenBmi(comparison.bmiNow)} now:{' '}
        <Text span fw={700}>
          {bmiChange === null ? 'not comparable (BMI not recorded)' : formatBmiChange(bmiChange)}
        </Text>
      </Text>
      {comparison.previousRuleSetVersion !== result.ruleSetVersion && (
        <Text size="sm">
          The last assessment was scored with rules version {comparison.previousRuleSetVersion},
          this one with {result.ruleSetVersion}: their scores may differ for that reason alone.
        </Text>
      )}
      <ScrollableTable label="Changes by condition since the last assessment" minWidth={600}>
        <Table verticalSpacing="xs" aria-labelledby="since-last-heading">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Condition</Table.Th>
              {/* Wide enough for 'Moderate Risk' whole: badges shorten their text to fit. */}
              <Table.Th scope="col" miw={statusColumnWidth}>
                Then
              </Table.Th>
              <Table.Th scope="col" miw={statusColumnWidth}>
                Now
              </Table.Th>
              <Table.Th scope="col">Change in total score</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {comparison.conditions.map((row) => (
              <Table.Tr key={row.condition}>
                <Table.Th scope="row" fw={600}>
                  {CONDITION_DISPLAY_NAMES[row.condition]}
                </Table.Th>
                <Table.Td>
                  <StatusCell status={row.statusThen} />
                </Table.Td>
                <Table.Td>
                  <StatusCell status={row.statusNow} />
                </Table.Td>
                <Table.Td style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {row.scoreChange === null ? notScored : formatScoreChange(row.scoreChange)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollableTable>
    </Stack>
  );
}
