import { CONDITIONS, type Condition } from '../../engine/index.ts';
import type {
  OrgUnitSummary,
  OrgUnitSummaryQuery,
  OrgUnitSummaryRow,
} from '../../shared/api/org-units.ts';
import { unitsWithin } from '../../shared/org-unit-tree.ts';
import { everythingScope, scopeHolds, type Scope } from '../auth/scope.ts';
import type { AppContext } from '../context.ts';
import { keptCountsRepository } from '../db/repositories/kept-counts.ts';
import { orgUnitsRepository, type OrgUnitRow } from '../db/repositories/org-units.ts';
import { unitSummariesRepository } from '../db/repositories/unit-summaries.ts';
import { AppError } from '../errors.ts';
import { localDate, startOfDay } from '../time.ts';

/** The figures of one row as they are added up, unit by unit. */
interface Tally {
  assessments: number;
  high: Map<Condition, number>;
  moderate: Map<Condition, number>;
  awaitingReview: number;
  followUpOverdue: number;
  decided: number;
  agreed: number;
}

function emptyTally(): Tally {
  return {
    assessments: 0,
    high: new Map(),
    moderate: new Map(),
    awaitingReview: 0,
    followUpOverdue: 0,
    decided: 0,
    agreed: 0,
  };
}

function isCondition(condition: string): condition is Condition {
  return (CONDITIONS as readonly string[]).includes(condition);
}

/** The date `days` before a YYYY-MM-DD date. */
function daysBefore(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day - days)).toISOString().slice(0, 10);
}

function notFound(): AppError {
  return new AppError(404, 'not_found', 'No such unit.');
}

function presentRow(
  unit: OrgUnitRow,
  tally: Tally,
  shape: { hasChildren: boolean; ownRecordsOnly: boolean },
): OrgUnitSummaryRow {
  return {
    unit: {
      id: unit.id,
      code: unit.code,
      name: unit.name,
      hasChildren: shape.hasChildren,
      closed: unit.closed_at !== null,
    },
    ownRecordsOnly: shape.ownRecordsOnly,
    assessments: tally.assessments,
    conditions: CONDITIONS.map((condition) => ({
      condition,
      high: tally.high.get(condition) ?? 0,
      moderate: tally.moderate.get(condition) ?? 0,
    })),
    awaitingReview: tally.awaitingReview,
    followUpOverdue: tally.followUpOverdue,
    agreementShare: tally.decided === 0 ? null : tally.agreed / tally.decided,
  };
}

/**
 * The rows of a roll-up, in the order given, each the figures of its unit and everything below it
 * within the scope; with `own`, a last row of that unit's own records, when it holds any. The
 * assessments, risks and agreement of the dates come from the kept counts per unit; the
 * worklists, as they stand now, from indexed counts per unit. Every query is narrowed to the
 * units counted.
 */
async function rollUp(
  context: AppContext,
  scope: Scope,
  tree: readonly OrgUnitRow[],
  rowUnits: readonly OrgUnitRow[],
  own: OrgUnitRow | null,
  query: OrgUnitSummaryQuery,
): Promise<OrgUnitSummaryRow[]> {
  const { db, engine } = context.database;
  const links = tree.map((row) => ({ id: row.id, parentId: row.parent_id }));
  const hasChildren = new Set(
    links.flatMap((link) => (link.parentId === null ? [] : [link.parentId])),
  );
  // Each unit counted to the row it adds to.
  const tallies = rowUnits.map(() => emptyTally());
  const rowOf = new Map<string, Tally>();
  rowUnits.forEach((row, index) => {
    for (const id of unitsWithin(links, [row.id])) {
      if (scopeHolds(scope, id)) rowOf.set(id, tallies[index] ?? emptyTally());
    }
  });
  const ownTally = emptyTally();
  if (own !== null) rowOf.set(own.id, ownTally);
  // The kept counts are read unit by unit (one seek each); the worklists' counts read every unit
  // with no filter when every unit is counted.
  const unitIds = [...rowOf.keys()];
  const counted: Scope = rowOf.size === tree.length ? everythingScope : { kind: 'units', unitIds };

  const range = { from: query.from, to: query.to };
  const { timeZone, followUpDaysHigh, followUpDaysModerate } = context.config;
  // Overdue once the due date (the assessment's local date plus the level's days) is before
  // today: assessed before the start of the day that many days ago, as Follow-up Due says.
  const today = localDate(context.now(), timeZone);
  const before = (days: number) => startOfDay(daysBefore(today, days), timeZone).toISOString();
  const [population, agreement, awaiting, overdue] = await Promise.all([
    keptCountsRepository.populationCountsByUnit(db, range, unitIds),
    keptCountsRepository.agreementCountsByUnit(db, range, unitIds),
    unitSummariesRepository.awaitingReview(db, engine, counted),
    unitSummariesRepository.followUpsOverdue(db, engine, counted, {
      highBefore: before(followUpDaysHigh),
      moderateBefore: before(followUpDaysModerate),
    }),
  ]);

  // Every assessment has one results row per condition (the engine scores each), so the
  // statuses of one condition add up to the assessments.
  const [countedCondition] = CONDITIONS;
  for (const row of population) {
    const tally = rowOf.get(row.org_unit_id);
    if (tally === undefined || !isCondition(row.condition)) continue;
    const n = Number(row.n);
    if (row.condition === countedCondition) tally.assessments += n;
    if (row.risk_status === 'TRUE') {
      tally.high.set(row.condition, (tally.high.get(row.condition) ?? 0) + n);
    }
    if (row.risk_status === 'MAYBE') {
      tally.moderate.set(row.condition, (tally.moderate.get(row.condition) ?? 0) + n);
    }
  }
  for (const row of agreement) {
    const tally = rowOf.get(row.org_unit_id);
    if (tally === undefined) continue;
    tally.decided += Number(row.n);
    if (Number(row.agreed) === 1) tally.agreed += Number(row.n);
  }
  for (const row of awaiting) {
    const tally = rowOf.get(row.org_unit_id);
    if (tally !== undefined) tally.awaitingReview += Number(row.n);
  }
  for (const row of overdue) {
    const tally = rowOf.get(row.org_unit_id);
    if (tally !== undefined) tally.followUpOverdue += Number(row.n);
  }

  const ownHasFigures =
    ownTally.assessments + ownTally.awaitingReview + ownTally.followUpOverdue + ownTally.decided >
    0;
  return [
    ...rowUnits.map((row, index) =>
      presentRow(row, tallies[index] ?? emptyTally(), {
        hasChildren: hasChildren.has(row.id),
        ownRecordsOnly: false,
      }),
    ),
    ...(own !== null && ownHasFigures
      ? [presentRow(own, ownTally, { hasChildren: false, ownRecordsOnly: true })]
      : []),
  ];
}

/**
 * A unit's roll-up (issue 36): for each unit directly below it (or the unit alone when none is),
 * the figures of that unit and everything below it, and the unit's own records when it holds
 * any beside them. A unit outside the caller's scope is answered as if it did not exist.
 */
export async function orgUnitSummary(
  context: AppContext,
  scope: Scope,
  unitId: string,
  query: OrgUnitSummaryQuery,
): Promise<OrgUnitSummary> {
  if (!scopeHolds(scope, unitId)) throw notFound();
  const tree = await orgUnitsRepository.list(context.database.db);
  const unit = tree.find((row) => row.id === unitId);
  if (unit === undefined) throw notFound();
  // In code order, as the tree's list is.
  const children = tree.filter((row) => row.parent_id === unitId);
  return {
    unit: {
      id: unit.id,
      code: unit.code,
      name: unit.name,
      parentId:
        unit.parent_id !== null && scopeHolds(scope, unit.parent_id) ? unit.parent_id : null,
    },
    rows:
      children.length > 0
        ? await rollUp(context, scope, tree, children, unit, query)
        : await rollUp(context, scope, tree, [unit], null, query),
  };
}

/**
 * The roll-up at the top of the caller's scope: of its one top unit (the unit nearest the top
 * that the caller works in), or, when the caller works in units of several branches, one row for
 * each of those units (`unit` null).
 */
export async function topOrgUnitSummary(
  context: AppContext,
  scope: Scope,
  query: OrgUnitSummaryQuery,
): Promise<OrgUnitSummary> {
  const tree = await orgUnitsRepository.list(context.database.db);
  const tops = tree.filter(
    (row) =>
      scopeHolds(scope, row.id) && (row.parent_id === null || !scopeHolds(scope, row.parent_id)),
  );
  const [top] = tops;
  if (tops.length === 1 && top !== undefined) {
    return orgUnitSummary(context, scope, top.id, query);
  }
  return { unit: null, rows: await rollUp(context, scope, tree, tops, null, query) };
}
