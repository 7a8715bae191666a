import { randomBytes } from 'node:crypto';
import { everythingScope } from '../../server/auth/scope.ts';
import { roles, type Role } from '../../shared/api/users.ts';
import { AppError } from '../../server/errors.ts';
import {
  createUser,
  findUserByUsername,
  listUsers,
  updateUser,
} from '../../server/services/users.ts';
import { resetSecondFactor } from '../../server/services/second-factors.ts';
import { orgUnitsRepository } from '../../server/db/repositories/org-units.ts';
import { configuredContext, operator, type WithContext } from '../command-context.ts';
import { exitCodeForFault, parseOptions } from '../options.ts';
import { readSecret } from '../read-secret.ts';

export const usage = `Usage:
  triage user add --username NAME --role nurse|doctor|admin [--display-name TEXT]
                  [--unit CODE]... [--break-glass] [--oidc-subject SUB]
  triage user list
  triage user disable NAME
  triage user enable NAME
  triage user set-password NAME
  triage user set-role NAME nurse|doctor|admin
  triage user reset-mfa NAME

--break-glass marks an account whose password still signs in when LOCAL_SIGN_IN is false.
--oidc-subject links the account to the identity provider's subject (its sub claim), so that
their first sign-in there takes it; without --break-glass such an account is given no password
(none is asked for) and signs in through the provider alone.

Passwords are read from standard input (without echo at a terminal, where they are asked for
twice), never from arguments. The last active administrator can be neither disabled nor given
another role. A user works in the units given by --unit (one or more; by code); without it, in
the one unit while the tree has only one (MAIN at first).
`;

function parseRole(value: string | undefined): Role {
  if (value !== undefined && (roles as readonly string[]).includes(value)) return value as Role;
  throw new AppError(
    400,
    'validation_failed',
    `The role must be one of ${roles.join(', ')}`,
    'role',
  );
}

/** A new password: at a terminal asked twice, since a typing slip cannot be seen there. */
async function readNewPassword(
  io: { stdin: NodeJS.ReadStream; stderr: NodeJS.WritableStream },
  question: string,
): Promise<string> {
  const password = await readSecret(io.stdin, io.stderr, question);
  if (!io.stdin.isTTY) return password;
  const again = await readSecret(io.stdin, io.stderr, 'Repeat it: ');
  if (again !== password) {
    throw new AppError(
      400,
      'validation_failed',
      'The two passwords differ; nothing was changed.',
      'password',
    );
  }
  return password;
}

export async function runUserCommand(
  args: string[],
  io: { stdin: NodeJS.ReadStream; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
  withContext: WithContext = configuredContext,
): Promise<number> {
  const [subcommand, ...rest] = args;
  try {
    // Only `add` takes options; the others take names, and an option given to them is refused.
    if (subcommand !== 'add') parseOptions(rest, {}, true);
    switch (subcommand) {
      case 'add': {
        const { values } = parseOptions(rest, {
          username: { type: 'string' },
          role: { type: 'string' },
          'display-name': { type: 'string' },
          'break-glass': { type: 'boolean' },
          'oidc-subject': { type: 'string' },
          unit: { type: 'string', multiple: true },
        });
        if (values.username === undefined)
          throw new AppError(400, 'validation_failed', '--username is required', 'username');
        const role = parseRole(values.role);
        const oidcSubject = values['oidc-subject'];
        if (oidcSubject !== undefined && (oidcSubject.trim() === '' || oidcSubject.length > 255)) {
          throw new AppError(
            400,
            'validation_failed',
            '--oidc-subject must be the sub claim, 1 to 255 characters',
            'oidcSubject',
          );
        }
        const breakGlass = values['break-glass'] === true;
        const password =
          oidcSubject !== undefined && !breakGlass
            ? // Nobody knows it: the account signs in through the provider.
              randomBytes(32).toString('base64url')
            : await readNewPassword(io, 'Password: ');
        const user = await withContext(async (context) => {
          const units: string[] = [];
          for (const code of values.unit ?? []) {
            const unit = await orgUnitsRepository.findByCode(context.database.db, code);
            if (unit === undefined) {
              throw new AppError(400, 'validation_failed', `--unit: No unit has the code ${code}.`);
            }
            units.push(unit.id);
          }
          return createUser(context, operator, {
            username: values.username ?? '',
            role,
            displayName: values['display-name'],
            password,
            breakGlass,
            oidcSubject,
            units: values.unit === undefined ? undefined : units,
          });
        });
        io.stdout.write(
          `Created ${user.role} ${user.username} (${user.displayName}) in ${user.units.map((unit) => unit.code).join(', ')}${breakGlass ? ', break-glass' : ''}${oidcSubject === undefined ? '' : `, for the provider's subject ${oidcSubject}`}.\n`,
        );
        return 0;
      }
      case 'list': {
        const users = await withContext((context) => listUsers(context, everythingScope));
        for (const user of users) {
          io.stdout.write(
            `${user.username}\t${user.role}\t${user.disabled ? 'disabled' : 'active'}\t${user.displayName}\t${user.units.map((unit) => unit.code).join(',')}\n`,
          );
        }
        return 0;
      }
      case 'disable': {
        const name = rest[0];
        if (name === undefined) break;
        await withContext(async (context) => {
          const user = await findUserByUsername(context, name);
          await updateUser(context, operator, user.id, { disabled: true });
        });
        io.stdout.write(`Disabled ${name}; their sessions have ended.\n`);
        return 0;
      }
      case 'enable': {
        const name = rest[0];
        if (name === undefined) break;
        await withContext(async (context) => {
          const user = await findUserByUsername(context, name);
          await updateUser(context, operator, user.id, { disabled: false });
        });
        io.stdout.write(`Enabled ${name}; they can sign in again.\n`);
        return 0;
      }
      case 'set-password': {
        const name = rest[0];
        if (name === undefined) break;
        const password = await readNewPassword(io, 'New password: ');
        await withContext(async (context) => {
          const user = await findUserByUsername(context, name);
          await updateUser(context, operator, user.id, { password });
        });
        io.stdout.write(`Set a new password for ${name}; their sessions have ended.\n`);
        return 0;
      }
      case 'set-role': {
        const name = rest[0];
        if (name === undefined) break;
        const role = parseRole(rest[1]);
        await withContext(async (context) => {
          const user = await findUserByUsername(context, name);
          await updateUser(context, operator, user.id, { role });
        });
        io.stdout.write(`${name} is now ${role}.\n`);
        return 0;
      }
      case 'reset-mfa': {
        const name = rest[0];
        if (name === undefined) break;
        const removed = await withContext((context) => resetSecondFactor(context, operator, name));
        io.stdout.write(
          removed
            ? `Removed ${name}'s second factor and recovery codes; they sign in with their password until they set one up again (in a role that requires one, until a fresh grace from their next sign-in ends).\n`
            : `${name} has no second factor.\n`,
        );
        return 0;
      }
      default:
        break;
    }
  } catch (error) {
    return exitCodeForFault(error, io.stderr, usage);
  }
  io.stderr.write(usage);
  return 2;
}
