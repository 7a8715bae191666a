import { sql } from 'kysely';
import { scopeHolds, type Scope } from '../auth/scope.ts';
import type {
  CreateOrgUnitBody,
  OrgUnit,
  OrgUnitTree,
  UpdateOrgUnitBody,
} from '../../shared/api/org-units.ts';
import { wouldMakeCycle } from '../../shared/org-unit-tree.ts';
import type { AppContext } from '../context.ts';
import type { Executor } from '../db/repositories/executor.ts';
import { orgUnitsRepository, type OrgUnitRow } from '../db/repositories/org-units.ts';
import { AppError } from '../errors.ts';
import { timeOrderedId } from '../ids.ts';
import { presentOrgUnit, presentOrgUnitTree } from '../presenters/org-unit.ts';
import { recordAudit } from './audit.ts';
import { assertUnitOpen } from './record-units.ts';
import { managedScope, type Requester } from './users.ts';

function isUniqueViolation(error: unknown): boolean {
  return /UNIQUE constraint failed|duplicate key value/i.test(
    error instanceof Error ? error.message : '',
  );
}

function codeTaken(code: string): AppError {
  return new AppError(
    409,
    'conflict',
    `code: The code ${code} is taken (codes ignore case).`,
    'code',
  );
}

async function assertCodeFree(db: Executor, code: string, ownId?: string): Promise<void> {
  const existing = await orgUnitsRepository.findByCode(db, code);
  if (existing !== undefined && existing.id !== ownId) throw codeTaken(existing.code);
}

/**
 * The parent a body names: a unit within the scope that exists and is open (a closed unit takes
 * nothing new). Only who manages everything places a unit at the top.
 */
async function parentOf(
  db: Executor,
  scope: Scope,
  parentId: string | null,
): Promise<OrgUnitRow | null> {
  if (parentId === null) {
    if (scope.kind === 'everything') return null;
    throw new AppError(
      403,
      'forbidden',
      'parentId: Only an administrator of every unit can add a unit at the top.',
      'parentId',
    );
  }
  const parent = await orgUnitsRepository.findById(db, parentId);
  if (parent === undefined || !scopeHolds(scope, parent.id)) {
    throw new AppError(400, 'validation_failed', 'parentId: No such unit', 'parentId');
  }
  assertUnitOpen(parent, 'parentId');
  return parent;
}

/** A unique-index refusal that raced past the checks answers as the check would. */
async function withCodeConflicts<T>(code: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw codeTaken(code);
    throw error;
  }
}

/**
 * Holds changes of the tree one at a time on PostgreSQL until the transaction ends, so that two
 * parent changes made at once cannot each pass the cycle check and together close a loop (SQLite
 * runs one writer at a time). Reads of the tree do not wait.
 */
async function lockTree(context: AppContext, trx: Executor): Promise<void> {
  if (context.database.engine === 'postgres') {
    await sql`lock table org_units in share row exclusive mode`.execute(trx);
  }
}

/** The tree within the scope: a unit whose parent lies outside it is shown at the top. */
export async function listOrgUnits(context: AppContext, scope: Scope): Promise<OrgUnitTree> {
  const units = await orgUnitsRepository.list(context.database.db);
  return presentOrgUnitTree(units.filter((unit) => scopeHolds(scope, unit.id)));
}

export async function getOrgUnit(context: AppContext, scope: Scope, id: string): Promise<OrgUnit> {
  const row = await orgUnitsRepository.findById(context.database.db, id);
  if (row === undefined || !scopeHolds(scope, row.id)) {
    throw new AppError(404, 'not_found', 'No such unit.');
  }
  return presentOrgUnit(row);
}

export async function findOrgUnitByCode(context: AppContext, code: string): Promise<OrgUnit> {
  const row = await orgUnitsRepository.findByCode(context.database.db, code);
  if (row === undefined) throw new AppError(404, 'not_found', `No unit has the code ${code}.`);
  return presentOrgUnit(row);
}

export async function createOrgUnit(
  context: AppContext,
  requester: Requester,
  body: CreateOrgUnitBody,
): Promise<OrgUnit> {
  const now = context.now();
  const id = timeOrderedId(now.getTime());
  return withCodeConflicts(body.code, () =>
    context.database.transaction(async (trx) => {
      await assertCodeFree(trx, body.code);
      await parentOf(trx, managedScope(requester), body.parentId);
      const row: OrgUnitRow = {
        id,
        code: body.code,
        code_key: body.code.toLowerCase(),
        name: body.name,
        parent_id: body.parentId,
        version: 1,
        closed_at: null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      };
      await orgUnitsRepository.insert(trx, row);
      await recordAudit(trx, {
        at: now,
        actor: requester.user,
        action: 'org_unit_create',
        target: { type: 'org_unit', id },
        address: requester.address,
      });
      return presentOrgUnit(row);
    }),
  );
}

function staleUnit(): AppError {
  return new AppError(
    412,
    'stale_version',
    'Someone else changed this unit meanwhile. Reload it and try again.',
  );
}

async function existingUnit(trx: Executor, scope: Scope, id: string, expectedVersion?: number) {
  const existing = await orgUnitsRepository.findById(trx, id);
  if (existing === undefined || !scopeHolds(scope, existing.id)) {
    throw new AppError(404, 'not_found', 'No such unit.');
  }
  if (expectedVersion !== undefined && existing.version !== expectedVersion) throw staleUnit();
  return existing;
}

/** Changes a unit's code, name and parent at the version the user saw (If-Match). */
export async function updateOrgUnit(
  context: AppContext,
  requester: Requester,
  id: string,
  expectedVersion: number,
  body: UpdateOrgUnitBody,
): Promise<OrgUnit> {
  const now = context.now();
  return withCodeConflicts(body.code, () =>
    context.database.transaction(async (trx) => {
      await lockTree(context, trx);
      const existing = await existingUnit(trx, managedScope(requester), id, expectedVersion);
      await assertCodeFree(trx, body.code, id);
      if (body.parentId !== existing.parent_id) {
        await parentOf(trx, managedScope(requester), body.parentId);
        const tree = (await orgUnitsRepository.list(trx)).map((unit) => ({
          id: unit.id,
          parentId: unit.parent_id,
        }));
        if (wouldMakeCycle(tree, id, body.parentId)) {
          throw new AppError(
            409,
            'conflict',
            'parentId: A unit cannot be placed under itself or a unit below it.',
            'parentId',
          );
        }
      }
      const changed = await orgUnitsRepository.updateAtVersion(trx, id, expectedVersion, {
        code: body.code,
        code_key: body.code.toLowerCase(),
        name: body.name,
        parent_id: body.parentId,
        updated_at: now.toISOString(),
      });
      if (!changed) throw staleUnit();
      await recordAudit(trx, {
        at: now,
        actor: requester.user,
        action: 'org_unit_update',
        target: { type: 'org_unit', id },
        address: requester.address,
      });
      return presentOrgUnit(await existingUnit(trx, managedScope(requester), id));
    }),
  );
}

/**
 * Closes a unit: it takes no new patients, assessments or units below it; its records stay, and
 * the units below it stay as they are. With If-Match, only at that version.
 */
export async function closeOrgUnit(
  context: AppContext,
  requester: Requester,
  id: string,
  expectedVersion: number | undefined,
): Promise<OrgUnit> {
  const now = context.now();
  return context.database.transaction(async (trx) => {
    const existing = await existingUnit(trx, managedScope(requester), id, expectedVersion);
    if (existing.closed_at !== null) {
      throw new AppError(409, 'conflict', `The unit ${existing.code} is closed already.`);
    }
    const changed = await orgUnitsRepository.updateAtVersion(trx, id, existing.version, {
      closed_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
    if (!changed) throw staleUnit();
    await recordAudit(trx, {
      at: now,
      actor: requester.user,
      action: 'org_unit_close',
      target: { type: 'org_unit', id },
      address: requester.address,
    });
    return presentOrgUnit(await existingUnit(trx, managedScope(requester), id));
  });
}
