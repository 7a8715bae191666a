import { useState, type FormEvent } from 'react';
import { Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { passwordSchema, type User } from '../../../shared/api/users.ts';
import { updateUser } from '../../api/users.ts';
import { passwordRule } from './passwordRule.ts';
import { UserFormActions, useUserFormSubmit } from './userForm.tsx';

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
        <PasswordInput
          label="New password"
          description={passwordRule}
          required
          autoComplete="new-password"
          data-autofocus
          visibilityToggleFocusable
          visibilityToggleButtonProps={{ 'aria-label': 'Show password' }}
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          error={fieldErrors.password}
          // Mantine's PasswordInput does not mark its input invalid itself.
          aria-invalid={fieldErrors.password !== undefined}
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

export function ResetPasswordModal({
  user,
  opened,
  onClose,
  onSaved,
}: {
  user: User | null;
  opened: boolean;
  onClose: () => void;
  onSaved: (user: User) => void;
}) {
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
