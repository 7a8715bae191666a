import type { ReactNode } from 'react';
import { Alert, Container } from '@mantine/core';
import { can, type Action } from '../../../shared/permissions.ts';
import { usePageTitle } from '../../hooks/usePageTitle.ts';
import { useSignedInUser } from '../../hooks/useSession.ts';

function ActionDenied() {
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
 * RequirePermission for the actions of the shared role table (review.view, codes.extract), which
 * the browser's own permission list does not name yet. Others who type the URL are told why.
 */
export function RequireAction({ action, children }: { action: Action; children: ReactNode }) {
  const user = useSignedInUser();
  return can(user.role, action) ? children : <ActionDenied />;
}
