import { lazy, Suspense, useDeferredValue } from 'react';
import { useSearchParams } from 'react-router';
import { Container, SimpleGrid, Stack } from '@mantine/core';
import { can } from '../../shared/permissions.ts';
import { SecondFactorRequiredNotice } from '../components/SecondFactorRequiredNotice.tsx';
import { usePageTitle } from '../hooks/usePageTitle.ts';
import { useSignedInUser } from '../hooks/useSession.ts';
import { AssessmentHistory } from './dashboard/AssessmentHistory.tsx';
import { AdminToolsCard, GuidelinesCard } from './dashboard/DashboardCards.tsx';
import { DashboardUnit } from './dashboard/DashboardUnit.tsx';
import { FeatureCards, ProcessOverview, WelcomeBanner } from './dashboard/DashboardIntro.tsx';
import { PatientSearch } from './dashboard/PatientSearch.tsx';

// At the foot of the page, and only for doctors and administrators: it loads after the first paint.
const AgreementSummary = lazy(() =>
  import('../components/review/AgreementSummary.tsx').then((module) => ({
    default: module.AgreementSummary,
  })),
);

/**
 * The dashboard (spec section 2.3); the footer texts come with the signed-in layout. With
 * `?unit=ID` (from the District page) its figures are of that unit and those below it.
 */
export function DashboardPage() {
  usePageTitle('Dashboard');
  const user = useSignedInUser();
  const [search] = useSearchParams();
  const unit = search.get('unit') ?? undefined;
  // The welcome and the patient search are painted first, on their own; the rest of the page,
  // most of the first view's work, renders after them in the background. Its queries start when
  // it mounts: an answer that arrived during that render would make React finish it in one long
  // task (TanStack Query's results reach React through useSyncExternalStore, which is never
  // rendered in pieces).
  const belowWelcome = useDeferredValue(true, false);
  return (
    <Container size="xl" px={0}>
      <Stack gap="xl">
        <SecondFactorRequiredNotice />
        <WelcomeBanner displayName={user.displayName} />
        {unit !== undefined && <DashboardUnit unitId={unit} />}
        {can(user.role, 'patient.view') && <PatientSearch />}
        {belowWelcome && (
          <>
            <FeatureCards />
            <ProcessOverview />
            <AssessmentHistory user={user} unit={unit} />
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" style={{ alignItems: 'start' }}>
              {can(user.role, 'codes.extract') && <AdminToolsCard />}
              <GuidelinesCard />
            </SimpleGrid>
            {can(user.role, 'review.view') && (
              <Suspense fallback={null}>
                <AgreementSummary unit={unit} />
              </Suspense>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}
