import { Route, Routes } from 'react-router';
import { AccessGate } from './components/AccessGate.tsx';
import { AppLayout } from './components/AppLayout.tsx';
import { FullScreenLoading } from './components/FullScreenLoading.tsx';
import { RequirePermission } from './components/RequirePermission.tsx';
import { useSession } from './hooks/useSession.ts';
import { AuditPage } from './pages/AuditPage.tsx';
import { DashboardPage } from './pages/DashboardPage.tsx';
import { NotFoundPage } from './pages/NotFoundPage.tsx';
import { UsersPage } from './pages/UsersPage.tsx';
import { NewAssessmentPage } from './pages/assessment/NewAssessmentPage.tsx';
import { SavedAssessmentPage } from './pages/assessment/SavedAssessmentPage.tsx';
import { RequireAction } from './components/review/RequireAction.tsx';
import { CodesPage } from './pages/codes/CodesPage.tsx';
import { ReportPage } from './pages/report/ReportPage.tsx';
import { ReviewPage } from './pages/review/ReviewPage.tsx';

/**
 * The gate stands in front of every route: a deep link shows the gate, then the linked view once
 * signed in.
 */
export function App() {
  const { state } = useSession();
  switch (state.status) {
    case 'checking':
      return <FullScreenLoading />;
    case 'signedOut':
      return <AccessGate notice={state.notice} />;
    case 'signedIn':
      return (
        <Routes>
          <Route element={<AppLayout />}>
            <Route index element={<DashboardPage />} />
            <Route
              path="admin/users"
              element={
                <RequirePermission permission="users.manage">
                  <UsersPage />
                </RequirePermission>
              }
            />
            <Route
              path="admin/audit"
              element={
                <RequirePermission permission="audit.read">
                  <AuditPage />
                </RequirePermission>
              }
            />
            <Route
              path="assessments/:id/review"
              element={
                <RequireAction action="review.view">
                  <ReviewPage />
                </RequireAction>
              }
            />
            <Route path="assessments/:id/report" element={<ReportPage />} />
            <Route
              path="codes"
              element={
                <RequireAction action="codes.extract">
                  <CodesPage />
                </RequireAction>
              }
            />
            <Route path="assessments/new" element={<NewAssessmentPage />} />
            <Route path="assessments/:id" element={<SavedAssessmentPage />} />
            <Route path="*" element={<NotFoundPage />} />
          </Route>
        </Routes>
      );
  }
}
