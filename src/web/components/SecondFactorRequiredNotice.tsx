import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Role } from '../../shared/api/users.ts';
import { localDateTimeFormat, roleLabels } from '../format.ts';
import { useSession } from '../hooks/useSession.ts';

export const secondFactorPagePath = '/account/second-factor';

const deadlineFormat = localDateTimeFormat({ dateStyle: 'long', timeStyle: 'short' });

/** What the notice says while the grace of a second factor the user's role requires lasts. */
export function secondFactorRequiredText(role: Role, by: string): string {
  return (
    `Your role (${roleLabels[role]}) requires two-step sign-in. Set it up by ` +
    `${deadlineFormat().format(new Date(by))}: after then, signing in asks you to set it up ` +
    'before anything else.'
  );
}

/** On the dashboard while the grace lasts: the requirement, its date and the way to set it up. */
export function SecondFactorRequiredNotice() {
  const { state } = useSession();
  if (state.status !== 'signedIn' || state.secondFactorRequiredBy === undefined) return null;
  return (
    <Alert color="yellow" role="status">
      <Text size="sm" fw={700}>
        Two-step sign-in required
      </Text>
      <Text size="sm">
        {secondFactorRequiredText(state.user.role, state.secondFactorRequiredBy)}
      </Text>
      <Anchor component={Link} to={secondFactorPagePath} size="sm" fw={600}>
        Set up two-step sign-in
      </Anchor>
    </Alert>
  );
}
