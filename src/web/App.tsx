import { lazy, useEffect } from 'react';
import { Route, Routes } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { AccessGate } from './components/AccessGate.tsx';
import { AppLayout } from './components/AppLayout.tsx';
import { FullScreenLoading } from './components/FullScreenLoading.tsx';
import { RequirePermission } from './components/RequirePermission.tsx';
import { useSession } from './hooks/useSession.ts';
import { OutboxProvider } from './offline/OutboxProvider.tsx';
import { DashboardPage } from './pages/DashboardPage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';

// Every view but the dashboard loads on first visit, so signing in fetches only what the
// dashboard needs; AppLayout shows a spinner while a view's chunk arrives.
const UsersPage = lazy(() =>
  import('./pages/UsersPage.tsx').then((module) => ({ default: module.UsersPage })),
);
const AuditPage = lazy(() =>
  import('./pages/AuditPage.tsx').then((module) => ({ default: module.AuditPage })),
);
const ReviewPage = lazy(() =>
  import('./pages/review/ReviewPage.tsx').then((module) => ({ default: module.ReviewPage })),
);
const ReportPage = lazy(() =>
  import('./pages/report/ReportPage.tsx').then((module) => ({ default: module.ReportPage })),
);
const CodesPage = lazy(() =>
  import('./pages/codes/CodesPage.tsx').then((module) => ({ default: module.CodesPage })),
);
const NewAssessmentPage = lazy(() =>
  import('./pages/assessment/NewAssessmentPage.tsx').then((module) => ({
    default: module.NewAssessmentPage,
  })),
);
const PatientPage = lazy(() =>
  import('./pages/patients/PatientPage.tsx').then((module) => ({ default: module.PatientPage })),
);
const ReviewWorklistPage = lazy(() =>
  import('./pages/worklists/ReviewWorklistPage.tsx').then((module) => ({
    default: module.ReviewWorklistPage,
  })),
);
const FollowUpPage = lazy(() =>
  import('./pages/worklists/FollowUpPage.tsx').then((module) => ({
    default: module.FollowUpPage,
  })),
);
const GuidelinesPage = lazy(() =>
  import('./pages/guidelines/GuidelinesPage.tsx').then((module) => ({
    default: module.GuidelinesPage,
  })),
);
const SecondFactorPage = lazy(() =>
  import('./pages/account/SecondFactorPage.tsx').then((module) => ({
    default: module.SecondFactorPage,
  })),
);
const SavedAssessmentPage = lazy(() =>
  import('./pages/assessment/SavedAssessmentPage.tsx').then((module) => ({
    default: module.SavedAssessmentPage,
  })),
);

/**
 * The gate stands in front of every route: a deep link shows the gate, then the linked view once
 * signed in.
 */
export function App() {
  const { state } = useSession();
  const queryClient = useQueryClient();
  // Server answers kept for one user are never shown to the next one on this device.
  useEffect(() => {
    if (state.status === 'signedOut') queryClient.clear();
  }, [state.status, queryClient]);
  switch (state.status) {
    case 'checking':
      return <FullScreenLoading />;
    case 'signedOut':
      return <AccessGate notice={state.notice} />;
    case 'signedIn':
      return (
        <Routes>
          <Route
            element={
              <OutboxProvider userId={state.user.id}>
                <AppLayout />
              </OutboxProvider>
            }
          >
            <Route index element={<DashboardPage />} />
            <Route
              path="admin/users"
              element={
                <RequirePermission action="users.manage">
                  <UsersPage />
                </RequirePermission>
              }
            />
            <Route
              path="admin/audit"
              element={
                <RequirePermission action="audit.read">
                  <AuditPage />
                </RequirePermission>
              }
            />
            <Route
              path="assessments/:id/review"
              element={
                <RequirePermission action="review.view">
                  <ReviewPage />
                </RequirePermission>
              }
            />
            <Route path="assessments/:id/report" element={<ReportPage />} />
            <Route
              path="codes"
              element={
                <RequirePermission action="codes.extract">
                  <CodesPage />
                </RequirePermission>
              }
            />
            <Route path="assessments/new" element={<NewAssessmentPage />} />
            <Route path="assessments/:id" element={<SavedAssessmentPage />} />
            <Route
              path="patients/:id"
              element={
                <RequirePermission action="patient.view">
                  <PatientPage />
                </RequirePermission>
              }
            />
            <Route
              path="worklists/review"
              element={
                <RequirePermission action="worklist.review">
                  <ReviewWorklistPage />
                </RequirePermission>
              }
            />
            <Route
              path="worklists/follow-up"
              element={
                <RequirePermission action="worklist.followUp">
                  <FollowUpPage />
                </RequirePermission>
              }
            />
            <Route path="guidelines" element={<GuidelinesPage />} />
            <Route path="account/second-factor" element={<SecondFactorPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      );
  }
}
