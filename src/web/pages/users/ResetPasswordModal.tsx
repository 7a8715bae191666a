import { useState, type FormEvent } from 'react';
import { Modal, Stack, Text } from '@mantine/core';
import { passwordSchema, type User } from '../../../shared/api/users.ts';
import { updateUser } from '../../api/users.ts';
import {
  NewPasswordInput,
  UserFormActions,
  useUserFormSubmit,
  type UserModalProps,
} from './userForm.tsx';

function ResetPasswordForm({
  user,
  onSaved,
  onCancel,
}: {
  user: User;
  onSaved: (user: User) => void;
  onCancel: () => void;
}) {
  const [password, setPassword] = useState('');
  const { fieldErrors, formError, saving, refuse, send } = useUserFormSubmit(['password']);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = passwordSchema.safeParse(password);
    if (!parsed.success) {
      // The schema checks the bare password, so its issues name no field.
      refuse(parsed.error.issues.map((issue) => ({ ...issue, path: ['password'] })));
      return;
    }
    const newPassword = parsed.data;
    await send(async () => onSaved(await updateUser(user.id, { password: newPassword })));
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <Text size="sm">
          {user.displayName} is signed out and signs in with the new password from now on.
        </Text>
        <NewPasswordInput
          label="New password"
          value={password}
          onChange={setPassword}
          error={fieldErrors.password}
          autoFocus
        />
        <UserFormActions
          formError={formError}
          saving={saving}
          submitLabel="Reset password"
          onCancel={onCancel}
        />
      </Stack>
    </form>
  );
}

export function ResetPasswordModal({ user, opened, onClose, onSaved }: UserModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={`Reset password for ${user?.username ?? 'user'}`}
    >
      {user !== null && <ResetPasswordForm user={user} onSaved={onSaved} onCancel={onClose} />}
    </Modal>
  );
}
