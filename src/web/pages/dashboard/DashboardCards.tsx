import { Link } from 'react-router';
import { Badge, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { CONDITION_DISPLAY_NAMES, CONDITIONS } from '../../../engine/index.ts';
import { productTexts } from '../../../shared/texts.ts';
import { riskStatusColors, riskStatusLabel } from './riskStatusStyle.ts';

/** The administrative tools card; only roles that may run the code extractor see it. */
export function AdminToolsCard() {
  return (
    <Card
      withBorder
      padding="lg"
      radius="md"
      component="section"
      aria-labelledby="admin-tools-title"
    >
      <Stack gap="sm" align="flex-start">
        <Title order={2} size="h3" id="admin-tools-title">
          Administrative Tools
        </Title>
        <Text size="sm">
          Scan saved clinical notes and doctor review comments for medical and assessment codes.
        </Text>
        <Button component={Link} to="/codes" variant="default">
          Extract Codes
        </Button>
      </Stack>
    </Card>
  );
}

/** The four risk classes the card lists (spec section 2.3). */
const riskClasses = ['FALSE', 'MAYBE', 'TRUE', 'DIAGNOSED'] as const;

/**
 * The guidelines card: the rule set's version, the six conditions and the risk classes, leading
 * to the Guidelines page with every weight.
 */
export function GuidelinesCard() {
  return (
    <Card
      withBorder
      padding="lg"
      radius="md"
      component="section"
      aria-labelledby="guidelines-title"
    >
      <Stack gap="sm">
        <Title order={2} size="h3" id="guidelines-title">
          {productTexts.guidelinesVersion}
        </Title>
        <Text size="sm" fw={600}>
          Conditions assessed
        </Text>
        <List size="sm" spacing={2}>
          {CONDITIONS.map((condition) => (
            <List.Item key={condition}>{CONDITION_DISPLAY_NAMES[condition]}</List.Item>
          ))}
        </List>
        <Text size="sm" fw={600}>
          Risk classes
        </Text>
        <Group gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {riskClasses.map((status) => (
            <li key={status}>
              <Badge variant="dot" color={riskStatusColors[status]} size="lg">
                {riskStatusLabel(status)}
              </Badge>
            </li>
          ))}
        </Group>
        <Group>
          <Button component={Link} to="/guidelines" variant="default">
            Read the guidelines
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
