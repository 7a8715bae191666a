import type { ReactNode } from 'react';
import { Alert, Container } from '@mantine/core';
import { usePageTitle } from '../hooks/usePageTitle.ts';
import { useSignedInUser } from '../hooks/useSession.ts';
import { can, type Permission } from '../session/permissions.ts';

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

/** Renders the view only for roles with the permission; others who type the URL are told why. */
export function RequirePermission({
  permission,
  children,
}: {
  permission: Permission;
  children: ReactNode;
}) {
  const user = useSignedInUser();
  return can(user.role, permission) ? children : <PermissionDenied />;
}
