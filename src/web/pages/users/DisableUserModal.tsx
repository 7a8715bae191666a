import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { User } from '../../../shared/api/users.ts';
import { updateUser } from '../../api/users.ts';
import { errorMessage } from '../../forms.ts';
import type { UserModalProps } from './userForm.tsx';

function DisableUserConfirmation({
  user,
  onSaved,
  onCancel,
}: {
  user: User;
  onSaved: (user: User) => void;
  onCancel: () => void;
}) {
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  async function disable() {
    setSaving(true);
    try {
      onSaved(await updateUser(user.id, { disabled: true }));
    } catch (error) {
      setFailure(errorMessage(error));
      setSaving(false);
    }
  }

  return (
    <Stack gap="md">
      <Text>
        {user.displayName} ({user.username}) is signed out at once and cannot sign in until the
        account is enabled again.
      </Text>
      {failure !== null && <Alert color="red">{failure}</Alert>}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} data-autofocus>
          Cancel
        </Button>
        <Button color="red" loading={saving} onClick={() => void disable()}>
          Disable account
        </Button>
      </Group>
    </Stack>
  );
}

export function DisableUserModal({ user, opened, onClose, onSaved }: UserModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Disable ${user?.username ?? 'user'}?`}>
      {user !== null && (
        <DisableUserConfirmation user={user} onSaved={onSaved} onCancel={onClose} />
      )}
    </Modal>
  );
}
