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
 * A unit's roll-up (issue 36): for each unit directly below it (or the unit alone when none is),
 * the figures of that unit and everything below it. The assessments, risks and agreement of the
 * dates come from the kept counts per unit; the worklists, as they stand now, from indexed counts
 * per unit. Every query is narrowed to the unit's branch within the caller's scope, and a unit
 * outside the scope is answered as if it did not exist.
 */
export async function orgUnitSummary(
  context: AppContext,
  scope: Scope,
  unitId: string,
  query: OrgUnitSummaryQuery,
): Promise<OrgUnitSummary> {
  const { db, engine } = context.database;
  if (!scopeHolds(scope, unitId)) throw notFound();
  const tree = await orgUnitsRepository.list(db);
  const unit = tree.find((row) => row.id === unitId);
  if (unit === undefined) throw notFound();
  const links = tree.map((row) => ({ id: row.id, parentId: row.parent_id }));
  const hasChildren = new Set(
    links.flatMap((link) => (link.parentId === null ? [] : [link.parentId])),
  );

  // Rows in code order (the tree's list is), each unit of the branch to the row it adds to.
  const children = tree.filter((row) => row.parent_id === unitId);
  const rowUnits = children.length > 0 ? children : [unit];
  const tallies = rowUnits.map(() => emptyTally());
  const rowOf = new Map<string, Tally>();
  rowUnits.forEach((row, index) => {
    for (const id of unitsWithin(links, [row.id])) {
      if (scopeHolds(scope, id)) rowOf.set(id, tallies[index] ?? emptyTally());
    }
  });
  // The unit's own records, when units lie below it: a row of their own, so that the rows add up
  // to the unit's figures.
  const own = emptyTally();
  if (children.length > 0) rowOf.set(unitId, own);
  const branch: Scope =
    rowOf.size === tree.length ? everythingScope : { kind: 'units', unitIds: [...rowOf.keys()] };

  const range = { from: query.from, to: query.to };
  const { timeZone, followUpDaysHigh, followUpDaysModerate } = context.config;
  // Overdue once the due date (the assessment's local date plus the level's days) is before
  // today: assessed before the start of the day that many days ago, as Follow-up Due says.
  const today = localDate(context.now(), timeZone);
  const before = (days: number) => startOfDay(daysBefore(today, days), timeZone).toISOString();
  const [population, agreement, awaiting, overdue] = await Promise.all([
    keptCountsRepository.populationCountsByUnit(db, range, branch),
    keptCountsRepository.agreementCountsByUnit(db, range, branch),
    unitSummariesRepository.awaitingReview(db, engine, branch),
    unitSummariesRepository.followUpsOverdue(db, engine, branch, {
      highBefore: before(followUpDaysHigh),
      moderateBefore: before(followUpDaysModerate),
    }),
  ]);

  // Every assessment has one results row per condition (the engine scores each), so the
  // statuses of one condition add up to the assessments.
  const [counted] = CONDITIONS;
  for (const row of population) {
    const tally = rowOf.get(row.org_unit_id);
    if (tally === undefined || !isCondition(row.condition)) continue;
    const n = Number(row.n);
    if (row.condition === counted) tally.assessments += n;
    if (row.risk_status === 'TRUE')
      tally.high.set(row.condition, (tally.high.get(row.condition) ?? 0) + n);
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
    own.assessments + own.awaitingReview + own.followUpOverdue + own.decided > 0;
  return {
    unit: {
      id: unit.id,
      code: unit.code,
      name: unit.name,
      parentId:
        unit.parent_id !== null && scopeHolds(scope, unit.parent_id) ? unit.parent_id : null,
    },
    rows: [
      ...rowUnits.map((row, index) =>
        presentRow(row, tallies[index] ?? emptyTally(), {
          hasChildren: hasChildren.has(row.id),
          ownRecordsOnly: false,
        }),
      ),
      ...(ownHasFigures
        ? [presentRow(unit, own, { hasChildren: false, ownRecordsOnly: true })]
        : []),
    ],
  };
}
