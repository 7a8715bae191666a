import { Link } from 'react-router';
import { Anchor, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { AssessmentSummary } from '../../../shared/api/assessments.ts';
import { formatLocalDateTime } from '../../format.ts';
import { bmiText, genderAndAge, totalScoreText } from './historyFormat.ts';

export interface RowActions {
  /** Doctor Review is offered to the roles that may review. */
  canReview: boolean;
  /** Delete is offered unless the row is signed off and the role may not delete those. */
  canDelete: boolean;
  deleting: boolean;
  onDelete: (row: AssessmentSummary) => void;
}

/** One assessment of the history with every field the spec lists (section 2.4). */
export function HistoryRow({ row, actions }: { row: AssessmentSummary; actions: RowActions }) {
  const path = `/assessments/${encodeURIComponent(row.id)}`;
  const titleId = `assessment-${row.id}-title`;
  return (
    <Paper component="li" withBorder p="sm" radius="md" aria-labelledby={titleId}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} miw={0} style={{ flex: '1 1 22rem' }}>
          <Group gap="xs" align="center">
            <Text fw={700} id={titleId}>
              {genderAndAge(row)} · {bmiText(row.bmi)}
            </Text>
            {row.assessmentComplete ? (
              <Badge color="green.7" variant="dot">
                Complete
              </Badge>
            ) : (
              <Badge color="orange.7" variant="dot">
                Incomplete
              </Badge>
            )}
            {row.signedOff && (
              <Badge color="blue.8" variant="filled">
                ✓ Signed Off
              </Badge>
            )}
          </Group>
          {row.patientId !== null && row.patientNumber !== null && (
            <Text size="sm">
              Patient{' '}
              <Anchor
                component={Link}
                to={`/patients/${encodeURIComponent(row.patientId)}`}
                fw={600}
                ff="monospace"
                style={{ overflowWrap: 'anywhere' }}
              >
                {row.patientNumber}
              </Anchor>
            </Text>
          )}
          <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {row.code ?? 'No assessment code'}
          </Text>
          <Text size="sm">
            {totalScoreText(row.totalScore)} · Created {formatLocalDateTime(row.createdAt)}
          </Text>
          <Text size="sm" c="dimmed">
            {row.signedOffAt === null
              ? 'Not signed off'
              : `Signed off ${formatLocalDateTime(row.signedOffAt)}${
                  row.signedOffBy === null ? '' : ` by ${row.signedOffBy}`
                }`}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            ID {row.id}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button component={Link} to={path} size="xs">
            View
          </Button>
          {actions.canReview && (
            <Button component={Link} to={`${path}/review`} size="xs" variant="default">
              Doctor Review
            </Button>
          )}
          {actions.canDelete && (
            <Button
              size="xs"
              variant="outline"
              color="red.8"
              disabled={actions.deleting}
              onClick={() => actions.onDelete(row)}
            >
              {actions.deleting ? 'Deleting...' : 'Delete'}
            </Button>
          )}
        </Group>
      </Group>
    </Paper>
  );
}
