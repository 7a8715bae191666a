import { useState, type FormEvent } from 'react';
import { Modal, NativeSelect, Stack, TextInput } from '@mantine/core';
import { updateUserBodySchema, type Role, type User } from '../../../shared/api/users.ts';
import { updateUser } from '../../api/users.ts';
import { roleOptions } from './AddUserModal.tsx';
import { sameUnitIds } from './unitChoice.ts';
import { UnitsInput } from './UnitsInput.tsx';
import { UserFormActions, useUserFormSubmit, type UserModalProps } from './userForm.tsx';

const formFields = ['displayName', 'role', 'units'];

function EditUserForm({
  user,
  onSaved,
  onCancel,
}: {
  user: User;
  onSaved: (user: User) => void;
  onCancel: () => void;
}) {
  const [displayName, setDisplayName] = useState(user.displayName);
  const [role, setRole] = useState<Role>(user.role);
  const savedUnits = user.units.map((unit) => unit.id);
  const [units, setUnits] = useState(savedUnits);
  const { fieldErrors, formError, saving, refuse, send, clearFieldError } =
    useUserFormSubmit(formFields);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // Only what changed is sent: a role change ends the user's sessions, a name change does not.
    const parsed = updateUserBodySchema.safeParse({
      ...(displayName === user.displayName ? {} : { displayName }),
      ...(role === user.role ? {} : { role }),
      ...(sameUnitIds(units, savedUnits) ? {} : { units }),
    });
    if (!parsed.success) {
      refuse(parsed.error.issues);
      return;
    }
    if (Object.keys(parsed.data).length === 0) {
      onCancel();
      return;
    }
    const changes = parsed.data;
    await send(async () => onSaved(await updateUser(user.id, changes)));
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <TextInput
          label="Display name"
          required
          autoComplete="off"
          data-autofocus
          value={displayName}
          onChange={(event) => setDisplayName(event.currentTarget.value)}
          error={fieldErrors.displayName}
        />
        <NativeSelect
          label="Role"
          description="A new role takes effect at once: the user is signed out."
          required
          data={roleOptions}
          value={role}
          onChange={(event) => setRole(event.currentTarget.value as Role)}
          error={fieldErrors.role}
        />
        <UnitsInput
          value={units}
          onChange={(ids) => {
            setUnits(ids);
            clearFieldError('units');
          }}
          error={fieldErrors.units}
          current={user.units}
        />
        <UserFormActions
          formError={formError}
          saving={saving}
          submitLabel="Save changes"
          onCancel={onCancel}
        />
      </Stack>
    </form>
  );
}

export function EditUserModal({ user, opened, onClose, onSaved }: UserModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Edit ${user?.username ?? 'user'}`} size="lg">
      {user !== null && <EditUserForm user={user} onSaved={onSaved} onCancel={onClose} />}
    </Modal>
  );
}
