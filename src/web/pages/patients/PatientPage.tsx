import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import {
  Alert,
  Anchor,
  Button,
  Card,
  Container,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { CONDITION_DISPLAY_NAMES, CONDITIONS } from '../../../engine/index.ts';
import type { Patient, PatientAssessment } from '../../../shared/api/patients.ts';
import { formatScore, notRecorded } from '../../../shared/display.ts';
import { can } from '../../../shared/permissions.ts';
import { ApiError } from '../../api/client.ts';
import { RiskStatusBadge } from '../../components/assessment/RiskStatusBadge.tsx';
import { LoadingText } from '../../components/errors/LoadingText.tsx';
import { ScrollableTable } from '../../components/ScrollableTable.tsx';
import { formatLocalDateTime } from '../../format.ts';
import { errorMessage } from '../../forms.ts';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { usePatient } from '../../hooks/usePatient.ts';
import { useSignedInUser } from '../../hooks/useSession.ts';
import { BmiChart, StatusCharts } from './PatientCharts.tsx';
import classes from './PatientPage.module.css';
import { ageText, formatBirthDate } from './patientTimeline.ts';

type PatientLoad =
  | { status: 'loading' }
  | { status: 'notFound' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; patient: Patient; assessments: PatientAssessment[] };

function patientLoad(query: ReturnType<typeof usePatient>): PatientLoad {
  if (query.isError && !query.isFetching) {
    return query.error instanceof ApiError && query.error.status === 404
      ? { status: 'notFound' }
      : { status: 'failed', message: errorMessage(query.error) };
  }
  return query.data === undefined ? { status: 'loading' } : { status: 'loaded', ...query.data };
}

/** The table lists this many of the latest assessments until the user asks for them all. */
const latestShown = 10;

function newAssessmentPath(patientId: string): string {
  return `/assessments/new?patient=${encodeURIComponent(patientId)}`;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={600} component="div" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

function PatientFacts({ patient }: { patient: Patient }) {
  return (
    <Card withBorder padding="md" radius="md" component="section" aria-label="Patient details">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="md">
        <Fact label="Patient number">{patient.number}</Fact>
        <Fact label="Age">{patient.age === null ? notRecorded : ageText(patient.age)}</Fact>
        <Fact label="Date of birth">
          {patient.birthDate === null ? notRecorded : formatBirthDate(patient.birthDate)}
        </Fact>
        <Fact label="Gender">{patient.gender ?? notRecorded}</Fact>
      </SimpleGrid>
    </Card>
  );
}

/**
 * Each condition beside its status badge, two conditions a line, so that the table fits beside
 * the navigation; the charts below follow one condition across the assessments.
 */
function ConditionStatuses({ assessment }: { assessment: PatientAssessment }) {
  return (
    <dl className={classes.statuses}>
      {CONDITIONS.map((condition) => {
        const result = assessment.results.find((r) => r.condition === condition);
        return (
          <div key={condition} className={classes.status}>
            <dt>{CONDITION_DISPLAY_NAMES[condition]}</dt>
            <dd>
              {result === undefined ? (
                <Text size="sm" c="dimmed" component="span">
                  {notRecorded}
                </Text>
              ) : (
                <RiskStatusBadge status={result.riskStatus} />
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

function yesNo(value: boolean): string {
  return value ? 'Yes' : 'No';
}

/** Every assessment of the patient, newest first, with each condition's status. */
function AssessmentsTable({ assessments }: { assessments: readonly PatientAssessment[] }) {
  return (
    <ScrollableTable label="Assessments of this patient" minWidth={880}>
      <Table striped verticalSpacing="xs" horizontalSpacing="xs" fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Date</Table.Th>
            <Table.Th scope="col">Assessment code</Table.Th>
            <Table.Th scope="col">Risk status</Table.Th>
            <Table.Th scope="col" ta="right">
              Total score
            </Table.Th>
            <Table.Th scope="col">Signed off</Table.Th>
            <Table.Th scope="col">Review locked</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {assessments.map((assessment) => (
            <Table.Tr key={assessment.id}>
              <Table.Td>{formatLocalDateTime(assessment.createdAt)}</Table.Td>
              <Table.Td>
                <Anchor
                  component={Link}
                  to={`/assessments/${encodeURIComponent(assessment.id)}`}
                  ff="monospace"
                  size="sm"
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {assessment.code ?? 'No assessment code'}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <ConditionStatuses assessment={assessment} />
              </Table.Td>
              <Table.Td ta="right" ff="monospace">
                {formatScore(assessment.totalScore)}
              </Table.Td>
              <Table.Td>{yesNo(assessment.signedOff)}</Table.Td>
              <Table.Td>{yesNo(assessment.reviewLocked)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollableTable>
  );
}

function PatientRecord({
  patient,
  assessments,
}: {
  patient: Patient;
  assessments: readonly PatientAssessment[];
}) {
  const user = useSignedInUser();
  const deleted = patient.deletedAt !== null;
  const count = assessments.length;
  const [showAll, setShowAll] = useState(false);
  const listed = showAll ? assessments : assessments.slice(0, latestShown);
  const tableBox = useRef<HTMLDivElement>(null);

  // The button goes once pressed: the keyboard carries on from the first row it added.
  useEffect(() => {
    if (!showAll) return;
    tableBox.current?.querySelectorAll('tbody tr')[latestShown]?.querySelector('a')?.focus();
  }, [showAll]);
  return (
    <Stack gap="xl">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="sm">
          <div>
            <Text size="sm" c="dimmed" fw={600}>
              Patient
            </Text>
            <Title order={1} style={{ overflowWrap: 'anywhere' }}>
              {patient.name ?? patient.number}
            </Title>
          </div>
          {!deleted && can(user.role, 'assessment.create') && (
            <Button component={Link} to={newAssessmentPath(patient.id)} size="md">
              Start New Assessment
            </Button>
          )}
        </Group>
        {patient.deletedAt !== null && (
          <Alert color="red" title="Deleted patient record">
            This patient record was deleted on {formatLocalDateTime(patient.deletedAt)}.
          </Alert>
        )}
        <PatientFacts patient={patient} />
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="patient-assessments-title">
        <Title order={2} id="patient-assessments-title">
          Assessments
        </Title>
        {count === 0 ? (
          <Paper withBorder p="xl" radius="md" ta="center">
            <Text fw={600}>No assessments yet</Text>
            <Text mt="xs" size="sm">
              This patient's assessments will be listed here, newest first.
            </Text>
          </Paper>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              {count} assessment{count === 1 ? '' : 's'}, newest first
              {listed.length < count ? `; the latest ${listed.length} are listed` : ''}.
            </Text>
            <div ref={tableBox}>
              <AssessmentsTable assessments={listed} />
            </div>
            {listed.length < count && (
              <Button variant="default" w="fit-content" onClick={() => setShowAll(true)}>
                Show all {count} assessments
              </Button>
            )}
          </>
        )}
      </Stack>

      {count > 0 && (
        <>
          <Stack gap="sm" component="section" aria-labelledby="patient-status-title">
            <Title order={2} id="patient-status-title">
              Risk Status Over Time
            </Title>
            <Text size="sm" c="dimmed">
              Oldest on the left. Low, Moderate and High Risk and Diagnosed rise in that order;
              Insufficient Data is shown as a hollow point on the bottom row.
            </Text>
            <StatusCharts items={assessments} />
          </Stack>
          <Stack gap="sm" component="section" aria-labelledby="patient-bmi-title">
            <Title order={2} id="patient-bmi-title">
              BMI Over Time
            </Title>
            <BmiChart items={assessments} />
          </Stack>
        </>
      )}
    </Stack>
  );
}

/**
 * A patient record (issue 17): who the patient is, every assessment newest first, and how each
 * condition's risk status and the BMI changed over time.
 */
export function PatientPage() {
  usePageTitle('Patient');
  const { id = '' } = useParams();
  const query = usePatient(id);
  const load = patientLoad(query);

  return (
    <Container size="xl" px={0}>
      <Stack gap="lg">
        <Anchor component={Link} to="/" w="fit-content">
          ← Back to Dashboard
        </Anchor>

        {load.status === 'loading' && <LoadingText />}

        {load.status === 'notFound' && (
          <Stack gap="sm">
            <Title order={1}>Patient Not Found</Title>
            <Text>
              There is no patient record at this address. It may have been deleted, or the link may
              be mistyped.
            </Text>
          </Stack>
        )}

        {load.status === 'failed' && (
          <Stack gap="sm">
            <Title order={1}>Patient</Title>
            <Alert color="red" title="Error Loading Patient">
              <Stack gap="sm" align="flex-start">
                <Text size="sm">{load.message}</Text>
                <Button size="xs" color="red.8" onClick={() => void query.refetch()}>
                  Try Again
                </Button>
              </Stack>
            </Alert>
          </Stack>
        )}

        {load.status === 'loaded' && (
          // Another patient's record starts with its own table and charts, never this one's.
          <PatientRecord key={id} patient={load.patient} assessments={load.assessments} />
        )}
      </Stack>
    </Container>
  );
}
