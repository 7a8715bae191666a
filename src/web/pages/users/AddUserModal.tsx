import { useState, type FormEvent } from 'react';
import { Modal, NativeSelect, Stack, TextInput } from '@mantine/core';
import { createUserBodySchema, roles, type Role, type User } from '../../../shared/api/users.ts';
import { createUser } from '../../api/users.ts';
import { roleLabels } from '../../format.ts';
import { useOrgUnits } from '../../hooks/useOrgUnits.ts';
import { onlyUnit } from './unitChoice.ts';
import { UnitsInput } from './UnitsInput.tsx';
import { NewPasswordInput, UserFormActions, useUserFormSubmit } from './userForm.tsx';

const formFields = ['username', 'displayName', 'role', 'password', 'units'];
export const roleOptions = roles.map((role) => ({ value: role, label: roleLabels[role] }));

function AddUserForm({
  onCreated,
  onCancel,
}: {
  onCreated: (user: User) => void;
  onCancel: () => void;
}) {
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [role, setRole] = useState<Role>('nurse');
  const [password, setPassword] = useState('');
  // Until the administrator chooses, a tree of one unit chooses that unit.
  const [chosenUnits, setChosenUnits] = useState<string[] | null>(null);
  const tree = useOrgUnits();
  const only = tree.data === undefined ? undefined : onlyUnit(tree.data);
  const units = chosenUnits ?? (only === undefined ? [] : [only.id]);
  const { fieldErrors, formError, saving, refuse, send, clearFieldError } =
    useUserFormSubmit(formFields);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = createUserBodySchema.safeParse({
      username,
      displayName: displayName.trim() === '' ? undefined : displayName,
      role,
      password,
      units,
    });
    if (!parsed.success) {
      refuse(parsed.error.issues);
      return;
    }
    const body = parsed.data;
    await send(async () => onCreated(await createUser(body)));
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate>
      <Stack gap="md">
        <TextInput
          label="User name"
          description="2 to 64 letters, digits, dots, dashes or underscores"
          required
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          data-autofocus
          value={username}
          onChange={(event) => setUsername(event.currentTarget.value)}
          error={fieldErrors.username}
        />
        <TextInput
          label="Display name"
          description="Shown in the header and on sign-offs; the user name when left empty"
          autoComplete="off"
          value={displayName}
          onChange={(event) => setDisplayName(event.currentTarget.value)}
          error={fieldErrors.displayName}
        />
        <NativeSelect
          label="Role"
          required
          data={roleOptions}
          value={role}
          onChange={(event) => setRole(event.currentTarget.value as Role)}
          error={fieldErrors.role}
        />
        <UnitsInput
          value={units}
          onChange={(ids) => {
            setChosenUnits(ids);
            clearFieldError('units');
          }}
          error={fieldErrors.units}
        />
        <NewPasswordInput
          label="Password"
          value={password}
          onChange={setPassword}
          error={fieldErrors.password}
        />
        <UserFormActions
          formError={formError}
          saving={saving}
          submitLabel="Add User"
          onCancel={onCancel}
        />
      </Stack>
    </form>
  );
}

export function AddUserModal({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (user: User) => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Add User" size="lg">
      <AddUserForm onCreated={onCreated} onCancel={onClose} />
    </Modal>
  );
}
