import type { Executor } from '../db/repositories/executor.ts';
import { orgUnitsRepository, type OrgUnitRow } from '../db/repositories/org-units.ts';
import { scopeHolds, type Scope } from '../auth/scope.ts';
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
 * The unit a new patient record or assessment belongs to: the unit the user chose (step 1, when
 * they work at several), else its patient record's unit when it has one, else the unit of the user
 * who makes it when they work in one only, else MAIN (a user of several units who chose none, a
 * record system). The unit must lie within the caller's scope (else it is answered as unknown)
 * and be open.
 */
export async function unitForNewRecord(
  db: Executor,
  scope: Scope,
  from: {
    chosenUnitId?: string | undefined;
    patientUnitId?: string | undefined;
    userId?: string | null | undefined;
  },
): Promise<string> {
  const named = from.chosenUnitId ?? from.patientUnitId;
  const unit =
    named === undefined
      ? await orgUnitsRepository.ownUnitOrMain(db, from.userId ?? null)
      : await orgUnitsRepository.findById(db, named);
  if (unit === undefined || !scopeHolds(scope, unit.id)) {
    throw new AppError(
      400,
      'validation_failed',
      from.chosenUnitId === undefined
        ? `${unitField}: Choose the unit where the assessment is done.`
        : `${unitField}: No such unit`,
      unitField,
    );
  }
  assertUnitOpen(unit);
  return unit.id;
}
