import type { Executor } from '../db/repositories/executor.ts';
import { orgUnitsRepository, type OrgUnitRow } from '../db/repositories/org-units.ts';
import { AppError } from '../errors.ts';

/** The field a refusal names: where a record's unit will be chosen (step 1, issue 36). */
export const unitField = 'orgUnitId';

/** Refuses a closed unit as the place of a new patient record or assessment. */
export function assertUnitOpen(unit: OrgUnitRow, field = unitField): void {
  if (unit.closed_at !== null) {
    throw new AppError(
      409,
      'unit_closed',
      `${field}: The unit ${unit.code} (${unit.name}) is closed: it takes no new patients or assessments.`,
      field,
    );
  }
}

/**
 * The unit a new patient record or assessment belongs to: its patient record's unit when it has
 * one, else the unit of the user who makes it when they work in one only, else MAIN (a user of
 * several units, the command line, a record system). Until step 1 lets the user choose among
 * several units, that is the rule. The unit must be open.
 */
export async function unitForNewRecord(
  db: Executor,
  from: { patientUnitId?: string | undefined; userId?: string | null | undefined },
): Promise<string> {
  const unit =
    from.patientUnitId === undefined
      ? await orgUnitsRepository.ownUnitOrMain(db, from.userId ?? null)
      : await orgUnitsRepository.findById(db, from.patientUnitId);
  if (unit === undefined) {
    throw new AppError(
      409,
      'conflict',
      `${unitField}: No unit can take the record: the user works in several units and none has the code MAIN.`,
      unitField,
    );
  }
  assertUnitOpen(unit);
  return unit.id;
}
