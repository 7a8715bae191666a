import type { ReactNode } from 'react';
import { Alert, Container } from '@mantine/core';
import { can, type Action } from '../../shared/permissions.ts';
import { usePageTitle } from '../hooks/usePageTitle.ts';
import { useSignedInUser } from '../hooks/useSession.ts';

function PermissionDenied() {
  usePageTitle('Access denied');
  return (
    <Container size="lg">
      <Alert color="red" title="Access denied">
        You do not have permission to view this page.
      </Alert>
    </Container>
  );
}

/**
 * Renders the view only for roles the shared role table allows the action; others who type the
 * URL are told why. The server enforces the same table on every call.
 */
export function RequirePermission({ action, children }: { action: Action; children: ReactNode }) {
  const user = useSignedInUser();
  return can(user.role, action) ? children : <PermissionDenied />;
}
