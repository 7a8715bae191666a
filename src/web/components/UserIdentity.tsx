import { Box, Text } from '@mantine/core';
import { roleLabels } from '../format.ts';
import { useSignedInUser } from '../hooks/useSession.ts';

/** The signed-in user's name over their role. */
export function UserIdentity({ align }: { align: 'left' | 'right' }) {
  const user = useSignedInUser();
  return (
    <Box ta={align}>
      <Text size="sm" fw={600} lh={1.3}>
        {user.displayName}
      </Text>
      <Text size="xs" c="dimmed" lh={1.3}>
        {roleLabels[user.role]}
      </Text>
    </Box>
  );
}

/** The name of the button that opens the user menu. */
export function userMenuLabel(user: {
  displayName: string;
  role: keyof typeof roleLabels;
}): string {
  return `${user.displayName}, ${roleLabels[user.role]}: user menu`;
}
