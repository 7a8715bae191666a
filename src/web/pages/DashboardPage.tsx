import { lazy, Suspense } from 'react';
import { Container, SimpleGrid, Stack } from '@mantine/core';
import { can } from '../../shared/permissions.ts';
import { SecondFactorRequiredNotice } from '../components/SecondFactorRequiredNotice.tsx';
import { usePageTitle } from '../hooks/usePageTitle.ts';
import { useSignedInUser } from '../hooks/useSession.ts';
import { AssessmentHistory } from './dashboard/AssessmentHistory.tsx';
import { AdminToolsCard, GuidelinesCard } from './dashboard/DashboardCards.tsx';
import { FeatureCards, ProcessOverview, WelcomeBanner } from './dashboard/DashboardIntro.tsx';
import { PatientSearch } from './dashboard/PatientSearch.tsx';

// At the foot of the page, and only for doctors and administrators: it loads after the first paint.
const AgreementSummary = lazy(() =>
  import('../components/review/AgreementSummary.tsx').then((module) => ({
    default: module.AgreementSummary,
  })),
);

/** The dashboard (spec section 2.3); the footer texts come with the signed-in layout. */
export function DashboardPage() {
  usePageTitle('Dashboard');
  const user = useSignedInUser();
  return (
    <Container size="xl" px={0}>
      <Stack gap="xl">
        <SecondFactorRequiredNotice />
        <WelcomeBanner displayName={user.displayName} />
        {can(user.role, 'patient.view') && <PatientSearch />}
        <FeatureCards />
        <ProcessOverview />
        <AssessmentHistory user={user} />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" style={{ alignItems: 'start' }}>
          {can(user.role, 'codes.extract') && <AdminToolsCard />}
          <GuidelinesCard />
        </SimpleGrid>
        {can(user.role, 'review.view') && (
          <Suspense fallback={null}>
            <AgreementSummary />
          </Suspense>
        )}
      </Stack>
    </Container>
  );
}
