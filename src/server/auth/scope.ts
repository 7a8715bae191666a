import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { unitsWithin, type OrgUnitLink } from '../../shared/org-unit-tree.ts';
import type { Executor } from '../db/repositories/executor.ts';
import { orgUnitsRepository } from '../db/repositories/org-units.ts';
import { AppError } from '../errors.ts';

/**
 * The organisation units whose records a request may read and change (issue 36): the caller's
 * units and everything below them. The guard builds it once per request from the session's user,
 * the API token or the FHIR client; the CDS Hooks service from its client. Every repository
 * function that reads clinical rows takes it, so no such query can be written without it.
 *
 * `everything` is a scope that holds every unit of the tree (an administrator at the top, and
 * everyone in a one-clinic installation): its queries carry no filter, so they keep their plans.
 */
export type Scope =
  { readonly kind: 'everything' } | { readonly kind: 'units'; readonly unitIds: readonly string[] };

export const everythingScope: Scope = { kind: 'everything' };

/** Whether a record of the unit lies within the scope. */
export function scopeHolds(scope: Scope, unitId: string): boolean {
  return scope.kind === 'everything' || scope.unitIds.includes(unitId);
}

/** The scope of some units of the tree: them and every unit below them. */
function scopeIn(tree: readonly OrgUnitLink[], rootIds: Iterable<string>): Scope {
  const within = unitsWithin(tree, rootIds);
  return within.size === tree.length ? everythingScope : { kind: 'units', unitIds: [...within] };
}

/** The scope of a set of units: them and every unit below them. */
export async function scopeOfUnits(db: Executor, rootIds: readonly string[]): Promise<Scope> {
  return scopeIn(await orgUnitsRepository.links(db), rootIds);
}

/**
 * A user's scope: the units they work in and everything below them, from one statement (every
 * request builds it: on PostgreSQL each statement is a trip).
 */
export async function scopeOfUser(db: Executor, userId: string): Promise<Scope> {
  const tree = await orgUnitsRepository.linksMarkingUser(db, userId);
  return scopeIn(
    tree,
    tree.filter((unit) => unit.own).map((unit) => unit.id),
  );
}

/**
 * A scope narrowed to one unit and what lies below it (`?unit=ID`). A unit outside the scope is
 * answered as if it did not exist.
 */
export async function narrowScope(db: Executor, scope: Scope, unitId: string): Promise<Scope> {
  if (!scopeHolds(scope, unitId)) {
    throw new AppError(404, 'not_found', 'unit: No such unit', 'unit');
  }
  const narrowed = await scopeOfUnits(db, [unitId]);
  if (narrowed.kind === 'everything' || scope.kind === 'everything') return narrowed;
  return { kind: 'units', unitIds: narrowed.unitIds.filter((id) => scope.unitIds.includes(id)) };
}

/**
 * Narrows a Kysely query to rows whose `column` names a unit within the scope, through `$call`:
 * `query.$call(withinScope('assessments.org_unit_id', scope))`.
 */
export function withinScope(column: string, scope: Scope) {
  return <Query extends Narrowable>(query: Query): Query =>
    scope.kind === 'everything' ? query : (query.where(scopeCondition(column, scope)) as Query);
}

/** A query builder with a `where` (select, update, delete). */
interface Narrowable {
  where(expression: Expression<SqlBool>): unknown;
}

/** The same condition for a statement written in SQL: `true` for everything. */
export function scopeCondition(column: string, scope: Scope): RawBuilder<SqlBool> {
  if (scope.kind === 'everything') return sql<SqlBool>`1 = 1`;
  if (scope.unitIds.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(scope.unitIds)})`;
}
