import { lazy, useDeferredValue, useEffect } from 'react';
import { matchPath, Route, Routes, useLocation } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { AccessGate } from './components/AccessGate.tsx';
import { AppLayout } from './components/AppLayout.tsx';
import { FullScreenLoading } from './components/FullScreenLoading.tsx';
import { RequirePermission } from './components/RequirePermission.tsx';
import { useReturnAfterSignIn } from './hooks/useReturnAfterSignIn.ts';
import { useSession } from './hooks/useSession.ts';
import { OutboxProvider } from './offline/OutboxProvider.tsx';
import { DashboardPage } from './pages/DashboardPage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';

/**
 * Every view but the dashboard loads on first visit, so signing in fetches only what the dashboard
 * needs; AppLayout shows a spinner while a view's code arrives. A linked view's code starts loading
 * while the session is checked (preloadView), not after it. In path order for preloadView:
 * 'assessments/new' before 'assessments/:id', which would match it too.
 */
const views = {
  users: { path: 'admin/users', load: () => import('./pages/UsersPage.tsx') },
  audit: { path: 'admin/audit', load: () => import('./pages/AuditPage.tsx') },
  review: { path: 'assessments/:id/review', load: () => import('./pages/review/ReviewPage.tsx') },
  report: { path: 'assessments/:id/report', load: () => import('./pages/report/ReportPage.tsx') },
  codes: { path: 'codes', load: () => import('./pages/codes/CodesPage.tsx') },
  newAssessment: {
    path: 'assessments/new',
    load: () => import('./pages/assessment/NewAssessmentPage.tsx'),
  },
  patient: { path: 'patients/:id', load: () => import('./pages/patients/PatientPage.tsx') },
  reviewWorklist: {
    path: 'worklists/review',
    load: () => import('./pages/worklists/ReviewWorklistPage.tsx'),
  },
  followUp: {
    path: 'worklists/follow-up',
    load: () => import('./pages/worklists/FollowUpPage.tsx'),
  },
  district: { path: 'district/:id?', load: () => import('./pages/district/DistrictPage.tsx') },
  guidelines: { path: 'guidelines', load: () => import('./pages/guidelines/GuidelinesPage.tsx') },
  secondFactor: {
    path: 'account/second-factor',
    load: () => import('./pages/account/SecondFactorPage.tsx'),
  },
  savedAssessment: {
    path: 'assessments/:id',
    load: () => import('./pages/assessment/SavedAssessmentPage.tsx'),
  },
} as const;

const UsersPage = lazy(() => views.users.load().then((module) => ({ default: module.UsersPage })));
const AuditPage = lazy(() => views.audit.load().then((module) => ({ default: module.AuditPage })));
const ReviewPage = lazy(() =>
  views.review.load().then((module) => ({ default: module.ReviewPage })),
);
const ReportPage = lazy(() =>
  views.report.load().then((module) => ({ default: module.ReportPage })),
);
const CodesPage = lazy(() => views.codes.load().then((module) => ({ default: module.CodesPage })));
const NewAssessmentPage = lazy(() =>
  views.newAssessment.load().then((module) => ({ default: module.NewAssessmentPage })),
);
const PatientPage = lazy(() =>
  views.patient.load().then((module) => ({ default: module.PatientPage })),
);
const ReviewWorklistPage = lazy(() =>
  views.reviewWorklist.load().then((module) => ({ default: module.ReviewWorklistPage })),
);
const FollowUpPage = lazy(() =>
  views.followUp.load().then((module) => ({ default: module.FollowUpPage })),
);
const DistrictPage = lazy(() =>
  views.district.load().then((module) => ({ default: module.DistrictPage })),
);
const GuidelinesPage = lazy(() =>
  views.guidelines.load().then((module) => ({ default: module.GuidelinesPage })),
);
const SecondFactorPage = lazy(() =>
  views.secondFactor.load().then((module) => ({ default: module.SecondFactorPage })),
);
const SavedAssessmentPage = lazy(() =>
  views.savedAssessment.load().then((module) => ({ default: module.SavedAssessmentPage })),
);

/** Starts loading the code of the view at this address, if it is one that loads on first visit. */
function preloadView(pathname: string): void {
  const view = Object.values(views).find(({ path }) => matchPath(`/${path}`, pathname) !== null);
  // A failed load here is tried again, and shown, when the view renders.
  view?.load().catch(() => undefined);
}

/**
 * The gate stands in front of every route: a deep link shows the gate, then the linked view once
 * signed in.
 */
export function App() {
  const { state: sessionState } = useSession();
  // The signed-in app, a large tree, is rendered in the background, in slices between which the
  // browser stays responsive, while the previous screen stays; any other state shows at once.
  const deferredState = useDeferredValue(sessionState);
  const state = sessionState.status === 'signedIn' ? deferredState : sessionState;
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  useEffect(() => {
    if (state.status === 'checking') preloadView(pathname);
  }, [state.status, pathname]);
  // Server answers kept for one user are never shown to the next one on this device.
  useEffect(() => {
    if (state.status === 'signedOut') queryClient.clear();
  }, [state.status, queryClient]);
  // Signed in through the organisation's provider: back to the page the gate stood in front of.
  const returning = useReturnAfterSignIn(state.status);
  if (returning) return <FullScreenLoading />;
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
              path={views.users.path}
              element={
                <RequirePermission action="users.manage">
                  <UsersPage />
                </RequirePermission>
              }
            />
            <Route
              path={views.audit.path}
              element={
                <RequirePermission action="audit.read">
                  <AuditPage />
                </RequirePermission>
              }
            />
            <Route
              path={views.review.path}
              element={
                <RequirePermission action="review.view">
                  <ReviewPage />
                </RequirePermission>
              }
            />
            <Route path={views.report.path} element={<ReportPage />} />
            <Route
              path={views.codes.path}
              element={
                <RequirePermission action="codes.extract">
                  <CodesPage />
                </RequirePermission>
              }
            />
            <Route path={views.newAssessment.path} element={<NewAssessmentPage />} />
            <Route path={views.savedAssessment.path} element={<SavedAssessmentPage />} />
            <Route
              path={views.patient.path}
              element={
                <RequirePermission action="patient.view">
                  <PatientPage />
                </RequirePermission>
              }
            />
            <Route
              path={views.reviewWorklist.path}
              element={
                <RequirePermission action="worklist.review">
                  <ReviewWorklistPage />
                </RequirePermission>
              }
            />
            <Route
              path={views.followUp.path}
              element={
                <RequirePermission action="worklist.followUp">
                  <FollowUpPage />
                </RequirePermission>
              }
            />
            <Route
              path={views.district.path}
              element={
                <RequirePermission action="orgUnit.summary">
                  <DistrictPage />
                </RequirePermission>
              }
            />
            <Route path={views.guidelines.path} element={<GuidelinesPage />} />
            <Route path={views.secondFactor.path} element={<SecondFactorPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      );
  }
}
