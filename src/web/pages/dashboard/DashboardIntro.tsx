import { Link } from 'react-router';
import { Badge, Button, Card, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';

/** The welcome banner (spec section 2.3) with the way into a new assessment. */
export function WelcomeBanner({ displayName }: { displayName: string }) {
  return (
    <Paper p={{ base: 'md', sm: 'lg' }} radius="md" bg="blue.0" withBorder>
      <Stack gap="sm" align="flex-start">
        <Title order={1}>Dashboard</Title>
        <Text>
          Welcome, {displayName}. Assess a patient's risk for six chronic conditions, then review,
          sign off and report on the assessment.
        </Text>
        <Button component={Link} to="/assessments/new" size="md">
          Start New Assessment
        </Button>
      </Stack>
    </Paper>
  );
}

const features = [
  {
    title: 'Risk Scoring',
    text: 'Scores Type 2 Diabetes, HIV, TB, Asthma, Hypertension and Hyperlipidaemia from demographics, risk factors, symptoms and management.',
  },
  {
    title: 'Clinical Decision Support',
    text: "Shows each condition's risk status, score breakdown and clinical interpretation, with doctor review and sign-off.",
  },
  {
    title: 'Records and Reports',
    text: 'Keeps every assessment with its notes, searchable below, with text reports and CSV exports.',
  },
] as const;

/** The three feature cards of the dashboard. */
export function FeatureCards() {
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md" component="section" aria-label="Features">
      {features.map((feature) => (
        <Card key={feature.title} withBorder padding="md" radius="md">
          <Title order={2} size="h4" mb={4}>
            {feature.title}
          </Title>
          <Text size="sm">{feature.text}</Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

const steps = [
  { title: 'Patient Demographics', text: 'Age, gender, height and weight; BMI is calculated.' },
  { title: 'Risk Factors', text: 'Smoking, family history and household TB exposure.' },
  { title: 'Symptom Evaluation', text: 'Symptoms for each condition, with their severity.' },
  {
    title: 'Results & Reports',
    text: 'Risk status per condition, clinical notes, sign-off and reports.',
  },
] as const;

/** The four-step process overview (spec section 2.3). */
export function ProcessOverview() {
  return (
    <Stack gap="sm" component="section" aria-labelledby="process-overview-title">
      <Title order={2} size="h3" id="process-overview-title">
        Assessment Process
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="md" component="ol" p={0} m={0}>
        {steps.map((step, index) => (
          <Paper
            key={step.title}
            component="li"
            withBorder
            p="md"
            radius="md"
            style={{ listStyle: 'none' }}
          >
            <Group gap="xs" wrap="nowrap" align="center" mb={4}>
              <Badge circle size="lg" aria-hidden>
                {index + 1}
              </Badge>
              <Text fw={600}>{step.title}</Text>
            </Group>
            <Text size="sm">{step.text}</Text>
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
