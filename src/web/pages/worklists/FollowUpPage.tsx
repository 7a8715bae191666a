import { Link } from 'react-router';
import { Anchor, Badge, Table, Text } from '@mantine/core';
import type { FollowUpItem } from '../../../shared/api/worklists.ts';
import { followUpDue } from '../../api/worklists.ts';
import { ScrollableTable } from '../../components/ScrollableTable.tsx';
import { formatLocalDateTime } from '../../format.ts';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { useWorklist } from '../../hooks/useWorklist.ts';
import { WorklistConditions } from './WorklistConditions.tsx';
import { WorklistFrame } from './WorklistFrame.tsx';
import { dueText, formatCalendarDate } from './worklistDisplay.ts';

function FollowUpTable({ items }: { items: readonly FollowUpItem[] }) {
  return (
    <ScrollableTable label="Patients due for follow-up" minWidth={820}>
      <Table striped verticalSpacing="xs" fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Patient</Table.Th>
            <Table.Th scope="col">Due</Table.Th>
            <Table.Th scope="col">High or Moderate</Table.Th>
            <Table.Th scope="col">Latest assessment</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => (
            <Table.Tr key={item.patient.id}>
              <Table.Td>
                <Anchor
                  component={Link}
                  to={`/patients/${encodeURIComponent(item.patient.id)}`}
                  size="sm"
                >
                  {item.patient.number}
                </Anchor>
                {item.patient.name !== null && <div>{item.patient.name}</div>}
              </Table.Td>
              <Table.Td>
                <div>{formatCalendarDate(item.dueDate)}</div>
                <Badge
                  color={item.daysOverdue > 0 ? 'red' : 'gray'}
                  variant={item.daysOverdue > 0 ? 'filled' : 'light'}
                  style={{ textTransform: 'none' }}
                >
                  {dueText(item.daysOverdue)}
                </Badge>
              </Table.Td>
              <Table.Td>
                <WorklistConditions conditions={item.conditions} />
              </Table.Td>
              <Table.Td>
                <Anchor
                  component={Link}
                  to={`/assessments/${encodeURIComponent(item.assessment.id)}`}
                  ff="monospace"
                  size="sm"
                >
                  {item.assessment.code ?? 'No assessment code'}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {formatLocalDateTime(item.assessment.createdAt)}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollableTable>
  );
}

/** Patients whose latest assessment has a condition at High or Moderate, the earliest due first. */
export function FollowUpPage() {
  usePageTitle('Follow-up Due');
  const { state, loadMore, retry } = useWorklist('followUp', followUpDue);
  return (
    <WorklistFrame
      title="Follow-up Due"
      intro={
        <>
          <Text size="sm" c="dimmed">
            Patients whose latest assessment has a condition at High or Moderate, the earliest due
            first; a later assessment without one takes the patient off the list.
          </Text>
          <Text size="sm">
            Assessments that name no patient cannot be followed up and are not listed.
          </Text>
        </>
      }
      state={state}
      empty="No patients are due for follow-up."
      loadMore={loadMore}
      retry={retry}
    >
      {(items) => <FollowUpTable items={items} />}
    </WorklistFrame>
  );
}
