import { Grid, Table } from '@mantine/core';
import { CONDITION_DISPLAY_NAMES } from '../../../engine/index.ts';
import type { Population } from '../../../shared/api/population.ts';
import { ScrollableTable } from '../../components/ScrollableTable.tsx';
import { PopulationChart } from './PopulationChart.tsx';
import { populationStatusLabels, riskStatusOrder } from './riskStatusStyle.ts';

function PopulationTable({ population }: { population: Population }) {
  return (
    <ScrollableTable label="Risk status counts" minWidth={420}>
      <Table striped verticalSpacing={4} horizontalSpacing="xs" fz="sm" captionSide="top">
        <Table.Caption ta="left">Assessments per risk status, by condition</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Condition</Table.Th>
            {riskStatusOrder.map((status) => (
              <Table.Th key={status} scope="col" ta="right">
                {populationStatusLabels[status]}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {population.conditions.map(({ condition, counts }) => (
            <Table.Tr key={condition}>
              <Table.Th scope="row" fw={400}>
                {CONDITION_DISPLAY_NAMES[condition]}
              </Table.Th>
              {riskStatusOrder.map((status) => (
                <Table.Td key={status} ta="right">
                  {counts[status]}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollableTable>
  );
}

/** The population panel's chart beside its table of the same numbers. */
export function PopulationFigures({ population }: { population: Population }) {
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, lg: 5 }}>
        <PopulationChart population={population} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 7 }}>
        <PopulationTable population={population} />
      </Grid.Col>
    </Grid>
  );
}
