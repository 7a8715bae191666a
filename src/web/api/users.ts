import type { z } from 'zod';
import {
  userListSchema,
  userSchema,
  type createUserBodySchema,
  type updateUserBodySchema,
  type User,
} from '../../shared/api/users.ts';
import { apiRequest } from './client.ts';

export type NewUser = z.input<typeof createUserBodySchema>;
export type UserChanges = z.input<typeof updateUserBodySchema>;

export async function listUsers(signal?: AbortSignal): Promise<User[]> {
  const { items } = await apiRequest('/api/users', {
    schema: userListSchema,
    signal,
  });
  return items;
}

export function createUser(user: NewUser): Promise<User> {
  return apiRequest('/api/users', { method: 'POST', body: user, schema: userSchema });
}

export function updateUser(id: string, changes: UserChanges): Promise<User> {
  return apiRequest(`/api/users/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: changes,
    schema: userSchema,
  });
}
