import { z } from 'zod';
import { roles, type Role } from '../permissions.ts';
import { orgUnitReferenceSchema } from './org-units.ts';

export { roles, type Role };

export const passwordMinLength = 12;
export const passwordMaxLength = 128;

export const usernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^[a-z0-9._-]{2,64}$/,
    'User names are 2 to 64 letters, digits, dots, dashes or underscores',
  );

export const passwordSchema = z
  .string()
  .min(passwordMinLength, `Passwords are at least ${passwordMinLength} characters`)
  .max(passwordMaxLength, `Passwords are at most ${passwordMaxLength} characters`);

export const displayNameSchema = z.string().trim().min(1).max(120);

export const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  role: z.enum(roles),
  disabled: z.boolean(),
  /** The organisation units the user works in (at least one), by code. */
  units: z.array(orgUnitReferenceSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

/**
 * The ids of the units a user works in: at least one. Left out when a user is made, the user
 * works in the one unit while the tree has only one.
 */
export const userUnitsSchema = z
  .array(z.string().max(100))
  .min(1, 'A user works in at least one unit')
  .max(100);

export const createUserBodySchema = z.object({
  username: usernameSchema,
  displayName: displayNameSchema.optional(),
  role: z.enum(roles),
  password: passwordSchema,
  units: userUnitsSchema.optional(),
});

export const updateUserBodySchema = z
  .object({
    displayName: displayNameSchema.optional(),
    role: z.enum(roles).optional(),
    disabled: z.boolean().optional(),
    password: passwordSchema.optional(),
    units: userUnitsSchema.optional(),
  })
  .strict();

export const userListSchema = z.object({ items: z.array(userSchema) });
