import { Container, SimpleGrid, Stack } from '@mantine/core';
import { can } from '../../shared/permissions.ts';
import { AgreementSummary } from '../components/review/AgreementSummary.tsx';
import { usePageTitle } from '../hooks/usePageTitle.ts';
import { useSignedInUser } from '../hooks/useSession.ts';
import { AssessmentHistory } from './dashboard/AssessmentHistory.tsx';
import { AdminToolsCard, GuidelinesCard } from './dashboard/DashboardCards.tsx';
import { FeatureCards, ProcessOverview, WelcomeBanner } from './dashboard/DashboardIntro.tsx';

/** The dashboard (spec section 2.3); the footer texts come with the signed-in layout. */
export function DashboardPage() {
  usePageTitle('Dashboard');
  const user = useSignedInUser();
  return (
    <Container size="xl" px={0}>
      <Stack gap="xl">
        <WelcomeBanner displayName={user.displayName} />
        <FeatureCards />
        <ProcessOverview />
        <AssessmentHistory user={user} />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" style={{ alignItems: 'start' }}>
          {can(user.role, 'codes.extract') && <AdminToolsCard />}
          <GuidelinesCard />
        </SimpleGrid>
        <AgreementSummary />
      </Stack>
    </Container>
  );
}
