import { Link, useNavigate } from 'react-router';
import { Anchor, Table, Text } from '@mantine/core';
import type { ReviewWorklistItem } from '../../../shared/api/worklists.ts';
import { awaitingReview } from '../../api/worklists.ts';
import { ScrollableTable } from '../../components/ScrollableTable.tsx';
import { formatLocalDateTime } from '../../format.ts';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { useWorklist } from '../../hooks/useWorklist.ts';
import { WorklistConditions } from './WorklistConditions.tsx';
import { WorklistFrame } from './WorklistFrame.tsx';
import { timeAgo } from './worklistDisplay.ts';

export function reviewPath(assessmentId: string): string {
  return `/assessments/${encodeURIComponent(assessmentId)}/review`;
}

function ReviewTable({ items }: { items: readonly ReviewWorklistItem[] }) {
  const navigate = useNavigate();
  const now = new Date();
  return (
    <ScrollableTable label="Assessments awaiting review" minWidth={820}>
      <Table striped highlightOnHover verticalSpacing="xs" fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Patient</Table.Th>
            <Table.Th scope="col">Assessment code</Table.Th>
            <Table.Th scope="col">Signed off</Table.Th>
            <Table.Th scope="col">High or Moderate</Table.Th>
            <Table.Th scope="col">Signed off by</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr
              key={item.assessmentId}
              style={{ cursor: 'pointer' }}
              onClick={() => void navigate(reviewPath(item.assessmentId))}
            >
              <Table.Td>
                {item.patientId === null || item.patientNumber === null ? (
                  <Text c="dimmed">No patient</Text>
                ) : (
                  <>
                    <Anchor
                      component={Link}
                      to={`/patients/${encodeURIComponent(item.patientId)}`}
                      size="sm"
                      onClick={(event) => event.stopPropagation()}
                    >
                      {item.patientNumber}
                    </Anchor>
                    {item.patientName !== null && <div>{item.patientName}</div>}
                  </>
                )}
              </Table.Td>
              <Table.Td>
                <Anchor
                  component={Link}
                  to={reviewPath(item.assessmentId)}
                  ff="monospace"
                  size="sm"
                  aria-label={`Review ${item.code ?? item.assessmentId}`}
                  onClick={(event) => event.stopPropagation()}
                >
                  {item.code ?? 'No assessment code'}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <div>{formatLocalDateTime(item.signedOffAt)}</div>
                <Text size="xs" c="dimmed">
                  {timeAgo(item.signedOffAt, now)}
                </Text>
              </Table.Td>
              <Table.Td>
                <WorklistConditions conditions={item.conditions} />
              </Table.Td>
              <Table.Td>{item.signedOffBy ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollableTable>
  );
}

/** Signed-off assessments whose doctor review is not finalized, most urgent first. */
export function ReviewWorklistPage() {
  usePageTitle('Awaiting Review');
  const { state, loadMore, retry } = useWorklist('awaitingReview', awaitingReview);
  return (
    <WorklistFrame
      title="Awaiting Review"
      intro={
        <Text size="sm" c="dimmed">
          Signed-off assessments without a finalized doctor review: any condition at High first,
          then Moderate, then the longest wait since sign-off.
        </Text>
      }
      state={state}
      empty="No assessments await review."
      loadMore={loadMore}
      retry={retry}
    >
      {(items) => <ReviewTable items={items} />}
    </WorklistFrame>
  );
}
