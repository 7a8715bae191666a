import { Fragment, useCallback, useEffect, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Container,
  Group,
  Loader,
  Menu,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import type { OrgUnitReference } from '../../shared/api/org-units.ts';
import type { User } from '../../shared/api/users.ts';
import { listUsers, updateUser } from '../api/users.ts';
import { errorMessage } from '../forms.ts';
import { formatLocalDateTime, roleLabels } from '../format.ts';
import { useModalTarget } from '../hooks/useModalTarget.ts';
import { usePageTitle } from '../hooks/usePageTitle.ts';
import { ScrollableTable } from '../components/ScrollableTable.tsx';
import { AddUserModal } from './users/AddUserModal.tsx';
import { DisableUserModal } from './users/DisableUserModal.tsx';
import { EditUserModal } from './users/EditUserModal.tsx';
import { ResetPasswordModal } from './users/ResetPasswordModal.tsx';

type UsersLoad =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'loaded'; users: User[] };

function notifySuccess(message: string) {
  notifications.show({ color: 'green', message });
}

/**
 * A user's units by code; each name is its title and is read out after the code. The hidden name
 * is placed within its code, not beyond the table's scrolling box, where it would widen the page.
 */
function UnitCodes({ units }: { units: readonly OrgUnitReference[] }) {
  return units.map((unit, index) => (
    <Fragment key={unit.id}>
      {index > 0 && ', '}
      <span title={unit.name} style={{ position: 'relative' }}>
        {unit.code}
        <VisuallyHidden> ({unit.name})</VisuallyHidden>
      </span>
    </Fragment>
  ));
}

function UserActions({
  user,
  onEdit,
  onResetPassword,
  onDisable,
  onEnable,
}: {
  user: User;
  onEdit: () => void;
  onResetPassword: () => void;
  onDisable: () => void;
  onEnable: () => void;
}) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button variant="default" size="xs" aria-label={`Actions for ${user.username}`}>
          Actions
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item onClick={onEdit}>Change name, role or units</Menu.Item>
        <Menu.Item onClick={onResetPassword}>Reset password</Menu.Item>
        {user.disabled ? (
          <Menu.Item onClick={onEnable}>Enable account</Menu.Item>
        ) : (
          <Menu.Item color="red" onClick={onDisable}>
            Disable account
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}

export function UsersPage() {
  usePageTitle('Users');
  const [load, setLoad] = useState<UsersLoad>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [addOpened, addModal] = useDisclosure(false);
  const editModal = useModalTarget<User>();
  const passwordModal = useModalTarget<User>();
  const disableModal = useModalTarget<User>();

  useEffect(() => {
    const controller = new AbortController();
    setLoad({ status: 'loading' });
    listUsers(controller.signal).then(
      (users) => setLoad({ status: 'loaded', users }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoad({ status: 'failed', message: errorMessage(error) });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const replaceUser = useCallback((changed: User) => {
    setLoad((current) =>
      current.status === 'loaded'
        ? {
            status: 'loaded',
            users: current.users.map((user) => (user.id === changed.id ? changed : user)),
          }
        : current,
    );
  }, []);

  async function enable(user: User) {
    try {
      replaceUser(await updateUser(user.id, { disabled: false }));
      notifySuccess(`${user.username} can sign in again.`);
    } catch (error) {
      notifications.show({ color: 'red', message: errorMessage(error) });
    }
  }

  return (
    <Container size="lg">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={1}>Users</Title>
          <Button onClick={addModal.open}>Add User</Button>
        </Group>

        {load.status === 'loading' && (
          <Group gap="sm" role="status">
            <Loader size="sm" aria-hidden />
            <Text>Loading users...</Text>
          </Group>
        )}
        {load.status === 'failed' && (
          <Alert color="red" title="The users could not be loaded">
            <Stack gap="sm" align="flex-start">
              <Text size="sm">{load.message}</Text>
              <Button size="xs" variant="default" onClick={() => setAttempt((n) => n + 1)}>
                Try Again
              </Button>
            </Stack>
          </Alert>
        )}
        {load.status === 'loaded' && (
          <ScrollableTable label="User accounts" minWidth={840}>
            <Table striped highlightOnHover verticalSpacing="sm" captionSide="top">
              <Table.Caption ta="left">User accounts ({load.users.length})</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">User name</Table.Th>
                  <Table.Th scope="col">Display name</Table.Th>
                  <Table.Th scope="col">Role</Table.Th>
                  <Table.Th scope="col">Units</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">Created</Table.Th>
                  <Table.Th scope="col">Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {load.users.map((user) => (
                  <Table.Tr key={user.id}>
                    <Table.Th scope="row" fw={500}>
                      {user.username}
                    </Table.Th>
                    <Table.Td>{user.displayName}</Table.Td>
                    <Table.Td>{roleLabels[user.role]}</Table.Td>
                    <Table.Td>
                      <UnitCodes units={user.units} />
                    </Table.Td>
                    <Table.Td>
                      {user.disabled ? (
                        <Badge color="gray" variant="dot">
                          Disabled
                        </Badge>
                      ) : (
                        <Badge color="green" variant="dot">
                          Active
                        </Badge>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <time dateTime={user.createdAt} style={{ whiteSpace: 'nowrap' }}>
                        {formatLocalDateTime(user.createdAt)}
                      </time>
                    </Table.Td>
                    <Table.Td>
                      <UserActions
                        user={user}
                        onEdit={() => editModal.open(user)}
                        onResetPassword={() => passwordModal.open(user)}
                        onDisable={() => disableModal.open(user)}
                        onEnable={() => void enable(user)}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollableTable>
        )}
      </Stack>

      <AddUserModal
        opened={addOpened}
        onClose={addModal.close}
        onCreated={(created) => {
          setLoad((current) =>
            current.status === 'loaded'
              ? { status: 'loaded', users: [...current.users, created] }
              : current,
          );
          addModal.close();
          notifySuccess(`User ${created.username} created.`);
        }}
      />
      <EditUserModal
        user={editModal.target}
        opened={editModal.opened}
        onClose={editModal.close}
        onSaved={(saved) => {
          replaceUser(saved);
          editModal.close();
          notifySuccess(`${saved.username} updated.`);
        }}
      />
      <ResetPasswordModal
        user={passwordModal.target}
        opened={passwordModal.opened}
        onClose={passwordModal.close}
        onSaved={(saved) => {
          replaceUser(saved);
          passwordModal.close();
          notifySuccess(`Password reset for ${saved.username}.`);
        }}
      />
      <DisableUserModal
        user={disableModal.target}
        opened={disableModal.opened}
        onClose={disableModal.close}
        onSaved={(saved) => {
          replaceUser(saved);
          disableModal.close();
          notifySuccess(`${saved.username} is disabled.`);
        }}
      />
    </Container>
  );
}
