import { sql } from 'kysely';
import { scopeCondition, type Scope } from '../../auth/scope.ts';
import type { DatabaseEngine } from '../database.ts';
import type { Executor } from './executor.ts';

export interface UnitCount {
  org_unit_id: string;
  n: number | string;
}

/**
 * What a unit's roll-up counts beside the kept counts, per unit within the scope: the worklists as
 * they stand now.
 */
export const unitSummariesRepository = {
  /**
   * Awaiting Review per unit: signed-off live assessments whose review is not finalized, from the
   * partial index of them by unit (its terms word for word, as SQLite needs). SQLite is told the
   * index: it preferred the history's index of signed-off assessments, and read every one of them
   * (100 ms at 100,000 assessments against 4).
   */
  async awaitingReview(db: Executor, engine: DatabaseEngine, scope: Scope): Promise<UnitCount[]> {
    const awaiting =
      engine === 'postgres'
        ? sql`signed_off and not review_locked and deleted_at is null`
        : sql`signed_off = 1 and review_locked = 0 and deleted_at is null`;
    const indexed =
      engine === 'sqlite' ? sql`indexed by assessments_awaiting_review_unit_idx` : sql``;
    const { rows } = await sql<UnitCount>`select org_unit_id, count(*) as n from assessments
      ${indexed}
      where ${awaiting} and ${scopeCondition('org_unit_id', scope)}
      group by org_unit_id`.execute(db);
    return rows;
  },

  /**
   * Follow-up Due's overdue patients per unit of the patient record: at High assessed before
   * `highBefore`, at Moderate before `moderateBefore` (instants), each level a range of the list's
   * index (level, assessed_at).
   */
  async followUpsOverdue(
    db: Executor,
    engine: DatabaseEngine,
    scope: Scope,
    bounds: { highBefore: string; moderateBefore: string },
  ): Promise<UnitCount[]> {
    const instant = (value: string) =>
      engine === 'postgres' ? sql`${value}::timestamptz` : sql`${value}`;
    // Within some units SQLite starts from their live records (the units' index of numbers) and
    // looks up each one's follow-up row: from the list's index it checked every overdue patient's
    // unit (about 500 ms at 300,000 patients, however few the units; 7 ms for a facility, 150 ms
    // for a district so). `cross join` is SQLite's way to keep that order.
    const from =
      engine === 'sqlite' && scope.kind === 'units'
        ? sql`patient_records cross join patient_follow_ups
            on patient_follow_ups.patient_record_id = patient_records.id
            and patient_records.deleted_at is null`
        : sql`patient_follow_ups
            join patient_records on patient_records.id = patient_follow_ups.patient_record_id`;
    const { rows } = await sql<UnitCount>`select patient_records.org_unit_id, count(*) as n
      from ${from}
      where ((patient_follow_ups.level = 0
          and patient_follow_ups.assessed_at < ${instant(bounds.highBefore)})
        or (patient_follow_ups.level = 1
          and patient_follow_ups.assessed_at < ${instant(bounds.moderateBefore)}))
        and ${scopeCondition('patient_records.org_unit_id', scope)}
      group by patient_records.org_unit_id`.execute(db);
    return rows;
  },
};
