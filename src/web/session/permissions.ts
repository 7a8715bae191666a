import type { Role } from '../../shared/api/users.ts';

/**
 * The views' share of the role table (decisions.md section 1), named as the server's policy names
 * the actions. It only decides what the interface offers; the server enforces every call.
 */
const permissions = {
  'users.manage': ['admin'],
  'audit.read': ['admin'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof permissions;

export function can(role: Role, permission: Permission): boolean {
  return (permissions[permission] as readonly Role[]).includes(role);
}
