import type { SessionUser } from '../../shared/api/session.ts';
import { everythingScope, scopeHolds, type Scope } from '../auth/scope.ts';
import type { Role, User } from '../../shared/api/users.ts';
import { hashPassword, passwordProblem } from '../auth/passwords.ts';
import type { AppContext } from '../context.ts';
import { sessionsRepository } from '../db/repositories/sessions.ts';
import type { Executor } from '../db/repositories/executor.ts';
import { orgUnitsRepository } from '../db/repositories/org-units.ts';
import { presentUser, usersRepository, type UserRow } from '../db/repositories/users.ts';
import { AppError } from '../errors.ts';
import { timeOrderedId } from '../ids.ts';
import { recordAudit } from './audit.ts';

/**
 * Who asks for a change: a signed-in admin over HTTP, who manages the users and units within
 * their scope (issue 36), or the operator at the command line, who manages everything.
 */
export type Requester =
  | { user: SessionUser; address: string | null; scope: Scope }
  | { user: null; address: string | null };

/** The units a requester manages. */
export function managedScope(requester: Requester): Scope {
  return requester.user === null ? everythingScope : requester.scope;
}

/** A unit outside the requester's scope is answered as if it did not exist. */
function noSuchUnit(id: string): AppError {
  return new AppError(400, 'validation_failed', `units: No unit has the id ${id}.`, 'units');
}

/**
 * Refuses a user the requester does not manage: one outside their scope is unknown (404), one
 * who also works outside it is not theirs to change (403).
 */
async function assertManages(db: Executor, requester: Requester, userId: string): Promise<void> {
  const scope = managedScope(requester);
  if (scope.kind === 'everything') return;
  const units = (await orgUnitsRepository.unitsOfUsers(db, [userId])).map((unit) => unit.id);
  const inside = units.filter((unit) => scopeHolds(scope, unit));
  if (inside.length === 0) throw new AppError(404, 'not_found', 'No such user.');
  if (inside.length < units.length) {
    throw new AppError(
      403,
      'forbidden',
      'This user also works in units outside yours: an administrator of all of them can change the account.',
    );
  }
}

/**
 * The units a user will work in, checked: each id names a unit, none twice. Left out for a new
 * user, the one unit while the tree has only one; otherwise they must be named.
 */
async function userUnitIds(
  db: Executor,
  scope: Scope,
  ids: readonly string[] | undefined,
  /** Units the user works in already: kept even if closed since; a closed unit is not joined. */
  held: readonly string[] = [],
): Promise<string[]> {
  if (ids === undefined) {
    const units = await orgUnitsRepository.list(db);
    const only = units.length === 1 ? units[0] : undefined;
    if (only === undefined) {
      throw new AppError(
        400,
        'validation_failed',
        'units: Name the units the user works in (at least one).',
        'units',
      );
    }
    return [only.id];
  }
  const unique = [...new Set(ids)];
  for (const id of unique) {
    const unit = await orgUnitsRepository.findById(db, id);
    if (unit === undefined || !scopeHolds(scope, id)) throw noSuchUnit(id);
    if (unit.closed_at !== null && !held.includes(id)) {
      throw new AppError(409, 'unit_closed', `units: The unit ${unit.code} is closed.`, 'units');
    }
  }
  if (unique.length === 0) {
    throw new AppError(
      400,
      'validation_failed',
      'units: A user works in at least one unit.',
      'units',
    );
  }
  return unique;
}

async function presentUserRow(db: Executor, row: UserRow): Promise<User> {
  return presentUser(row, await orgUnitsRepository.unitsOfUsers(db, [row.id]));
}

function checkPassword(password: string, username: string): void {
  const problem = passwordProblem(password, username);
  if (problem !== undefined) throw new AppError(400, 'validation_failed', problem, 'password');
}

export async function createUser(
  context: AppContext,
  requester: Requester,
  input: {
    username: string;
    displayName?: string | undefined;
    role: Role;
    password: string;
    /** Its password still signs in when LOCAL_SIGN_IN is false. */
    breakGlass?: boolean | undefined;
    /** The provider's `sub` whose first sign-in takes this account. */
    oidcSubject?: string | undefined;
    /** Unit ids; see userUnitIds. */
    units?: readonly string[] | undefined;
  },
): Promise<User> {
  const username = input.username.trim().toLowerCase();
  checkPassword(input.password, username);
  const passwordHash = await hashPassword(input.password, context.passwordCost);
  const now = context.now();
  const id = timeOrderedId(now.getTime());
  return context.database.transaction(async (trx) => {
    if ((await usersRepository.findByUsername(trx, username)) !== undefined) {
      throw new AppError(409, 'conflict', `The user name ${username} is taken.`, 'username');
    }
    if (
      input.oidcSubject !== undefined &&
      (await usersRepository.findByOidcSubject(trx, input.oidcSubject)) !== undefined
    ) {
      throw new AppError(
        409,
        'conflict',
        `Another account is linked to the subject ${input.oidcSubject}.`,
        'oidcSubject',
      );
    }
    const unitIds = await userUnitIds(trx, managedScope(requester), input.units);
    await usersRepository.insert(trx, {
      id,
      username,
      display_name: input.displayName?.trim() || username,
      role: input.role,
      password_hash: passwordHash,
      disabled: false,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      break_glass: input.breakGlass ?? false,
      oidc_subject: input.oidcSubject ?? null,
    });
    await orgUnitsRepository.setUserUnits(trx, id, unitIds);
    await recordAudit(trx, {
      at: now,
      actor: requester.user,
      action: 'user_create',
      target: { type: 'user', id },
      address: requester.address,
    });
    const created = await usersRepository.findById(trx, id);
    if (created === undefined) throw new Error('The new user could not be read back');
    return presentUserRow(trx, created);
  });
}

export async function updateUser(
  context: AppContext,
  requester: Requester,
  id: string,
  changes: {
    displayName?: string | undefined;
    role?: Role | undefined;
    disabled?: boolean | undefined;
    password?: string | undefined;
    /** Unit ids: the user's units become exactly these. */
    units?: readonly string[] | undefined;
  },
): Promise<User> {
  const existing = await usersRepository.findById(context.database.db, id);
  if (existing === undefined) throw new AppError(404, 'not_found', 'No such user.');
  await assertManages(context.database.db, requester, id);
  if (
    requester.user?.id === id &&
    (changes.disabled === true || (changes.role !== undefined && changes.role !== 'admin'))
  ) {
    // An administrator who locks themselves out may leave nobody able to manage accounts.
    throw new AppError(
      409,
      'conflict',
      'You cannot disable yourself or remove your own admin role.',
      changes.disabled === true ? 'disabled' : 'role',
    );
  }
  if (changes.password !== undefined) checkPassword(changes.password, existing.username);
  const passwordHash =
    changes.password === undefined
      ? undefined
      : await hashPassword(changes.password, context.passwordCost);
  const now = context.now();
  return context.database.transaction(async (trx) => {
    const disabling = changes.disabled === true;
    const demoting = changes.role !== undefined && changes.role !== 'admin';
    if (disabling || demoting) {
      const admins = await usersRepository.activeAdminIds(trx, context.database.engine);
      if (admins.length === 1 && admins[0] === id) {
        // Nobody would be left to manage accounts but the operator at the command line.
        throw new AppError(
          409,
          'conflict',
          `${existing.username} is the last active administrator: make another account an administrator first.`,
          disabling ? 'disabled' : 'role',
        );
      }
    }
    if (changes.units !== undefined) {
      const held = (await orgUnitsRepository.unitsOfUsers(trx, [id])).map((unit) => unit.id);
      await orgUnitsRepository.setUserUnits(
        trx,
        id,
        await userUnitIds(trx, managedScope(requester), changes.units, held),
      );
    }
    await usersRepository.update(trx, id, {
      ...(changes.displayName === undefined ? {} : { display_name: changes.displayName }),
      // A new role starts any grace of a second factor it requires afresh, at the next sign-in.
      ...(changes.role === undefined || changes.role === existing.role
        ? {}
        : { role: changes.role, second_factor_required_since: null }),
      ...(changes.disabled === undefined ? {} : { disabled: changes.disabled }),
      ...(passwordHash === undefined ? {} : { password_hash: passwordHash }),
      updated_at: now.toISOString(),
    });
    // A disabled account, a new password or a new role takes effect at once: old sessions end.
    if (changes.disabled === true || passwordHash !== undefined || changes.role !== undefined) {
      await sessionsRepository.endAllForUser(trx, id, now.toISOString());
    }
    await recordAudit(trx, {
      at: now,
      actor: requester.user,
      action: 'user_update',
      target: { type: 'user', id },
      address: requester.address,
    });
    const updated = await usersRepository.findById(trx, id);
    if (updated === undefined) throw new Error('The user could not be read back');
    return presentUserRow(trx, updated);
  });
}

export async function findUserByUsername(context: AppContext, username: string): Promise<User> {
  const row = await usersRepository.findByUsername(
    context.database.db,
    username.trim().toLowerCase(),
  );
  if (row === undefined) throw new AppError(404, 'not_found', `No user named ${username}.`);
  return presentUserRow(context.database.db, row);
}

/** The users who work in a unit within the scope, each with all their units. */
export async function listUsers(context: AppContext, scope: Scope): Promise<User[]> {
  const db = context.database.db;
  const units = Map.groupBy(await orgUnitsRepository.unitsOfUsers(db), (unit) => unit.user_id);
  return (await usersRepository.list(db)).flatMap((row) => {
    const own = units.get(row.id) ?? [];
    const visible = scope.kind === 'everything' || own.some((unit) => scopeHolds(scope, unit.id));
    return visible ? [presentUser(row, own)] : [];
  });
}

/**
 * While no enabled administrator exists (a first start, or a database that `triage seed` filled
 * first, whose only account is its disabled author): create the administrator named by the
 * environment, or say how to create one. Once one exists nothing is done: the API and the CLI
 * never leave a database without one. There is no default password anywhere.
 */
export async function ensureFirstAdministrator(
  context: AppContext,
  say: (line: string) => void,
): Promise<void> {
  const db = context.database.db;
  if ((await usersRepository.activeAdminIds(db, context.database.engine)).length > 0) return;
  const { adminUsername, adminPassword } = context.config;
  if (adminUsername !== undefined && adminPassword !== undefined) {
    if ((await usersRepository.findByUsername(db, adminUsername)) === undefined) {
      // An administrator of the top units manages everything.
      const tops = (await orgUnitsRepository.list(db)).filter((unit) => unit.parent_id === null);
      await createUser(
        context,
        { user: null, address: null },
        {
          username: adminUsername,
          role: 'admin',
          password: adminPassword,
          units: tops.map((unit) => unit.id),
        },
      );
      say(`Created the first administrator, ${adminUsername}.`);
      return;
    }
    say(
      `TRIAGE_ADMIN_USERNAME names the existing account ${adminUsername}, which is not an enabled administrator.`,
    );
  }
  const nobody = (await usersRepository.count(db)) === 0;
  say(
    `${nobody ? 'No user accounts exist yet.' : 'No enabled administrator exists.'} Create the first administrator with:\n` +
      '  npm run triage -- user add --username NAME --role admin\n' +
      '(it asks for the password), or start once with TRIAGE_ADMIN_USERNAME and TRIAGE_ADMIN_PASSWORD set.',
  );
}
