import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { passwordSchema, type User } from '../../../shared/api/users.ts';
import { updateUser } from '../../api/users.ts';
import { submitFailure } from '../../forms.ts';
import { passwordRule } from './passwordRule.ts';

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
  const [passwordError, setPasswordError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = passwordSchema.safeParse(password);
    if (!parsed.success) {
      setPasswordError(parsed.error.issues[0]?.message);
      return;
    }
    setSaving(true);
    try {
      onSaved(await updateUser(user.id, { password: parsed.data }));
    } catch (error) {
      const failure = submitFailure(error, ['password']);
      setPasswordError(failure.fieldErrors.password);
      setFormError(failure.formError);
      setSaving(false);
    }
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
          error={passwordError}
          // Mantine's PasswordInput does not mark its input invalid itself.
          aria-invalid={passwordError !== undefined}
        />
        {formError !== null && <Alert color="red">{formError}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            Reset password
          </Button>
        </Group>
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
