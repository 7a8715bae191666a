import { useEffect, useState } from 'react';
import { Alert, Card, Group, Loader, Progress, Table, Text, Title } from '@mantine/core';
import { CONDITION_DISPLAY_NAMES } from '../../../engine/index.ts';
import type { AgreementSummary as Agreement } from '../../../shared/api/reviews.ts';
import { getAgreementSummary } from '../../api/reviews.ts';
import { errorMessage } from '../../forms.ts';
import { agreedWithShare } from '../../pages/review/reviewDisplay.ts';

type AgreementLoad =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; summary: Agreement };

function AgreementTable() {
  const [load, setLoad] = useState<AgreementLoad>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    getAgreementSummary(controller.signal).then(
      (summary) => setLoad({ status: 'loaded', summary }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoad({ status: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, []);

  switch (load.status) {
    case 'loading':
      return (
        <Group gap="sm" role="status">
          <Loader size="sm" aria-hidden />
          <Text size="sm">Loading agreement...</Text>
        </Group>
      );
    case 'failed':
      return (
        <Alert color="red" title="The agreement summary could not be loaded">
          {load.message}
        </Alert>
      );
    case 'loaded':
      return (
        <Table verticalSpacing={6} fz="sm" aria-labelledby="agreement-summary">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Condition</Table.Th>
              <Table.Th scope="col" ta="right">
                Reviewed
              </Table.Th>
              <Table.Th scope="col">Agreed</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {load.summary.conditions.map((row) => (
              <Table.Tr key={row.condition}>
                <Table.Th scope="row" fw={400}>
                  {CONDITION_DISPLAY_NAMES[row.condition]}
                </Table.Th>
                <Table.Td ta="right">{row.reviewed}</Table.Td>
                <Table.Td>
                  <Group gap="sm" wrap="nowrap">
                    <Text size="sm" miw="5rem">
                      {agreedWithShare(row.agreed, row.share)}
                    </Text>
                    {/* The text says the same; the bar is only a visual aid, left out on a
                        phone so that the table fits. */}
                    <Progress
                      value={(row.share ?? 0) * 100}
                      color="teal.8"
                      size="sm"
                      w="6rem"
                      visibleFrom="sm"
                      aria-hidden
                    />
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      );
  }
}

/**
 * How often doctors agreed with the rules, per condition, over finalized reviews; the dashboard
 * shows it to doctors and admins.
 */
export function AgreementSummary() {
  return (
    <Card withBorder component="section" aria-labelledby="agreement-summary" padding="md">
      <Title order={2} size="h3" id="agreement-summary">
        Doctor Agreement
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Finalized doctor reviews that agreed with the risk result, per condition.
      </Text>
      <AgreementTable />
    </Card>
  );
}
