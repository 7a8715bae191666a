import type { Executor } from '../db/repositories/executor.ts';
import { orgUnitsRepository, type OrgUnitRow } from '../db/repositories/org-units.ts';
import { AppError } from '../errors.ts';

/** The field a refusal of a client's unit names. */
export const clientUnitField = 'unit';

/**
 * The unit an API token, CDS client or FHIR client is registered for (issue 36), by its code
 * (compared without case): it reaches that unit's records and those below. Left out, the one
 * unit while the tree has only one; otherwise it must be named. A closed unit takes no new
 * client, as it takes no new records.
 */
export async function unitOfNewClient(db: Executor, code: string | undefined): Promise<OrgUnitRow> {
  let unit: OrgUnitRow | undefined;
  if (code === undefined) {
    const units = await orgUnitsRepository.list(db);
    unit = units.length === 1 ? units[0] : undefined;
    if (unit === undefined) {
      throw new AppError(
        400,
        'validation_failed',
        `${clientUnitField}: The unit is required: there are ${units.length} units; name the one whose records it reaches (and those below) by its code.`,
        clientUnitField,
      );
    }
  } else {
    unit = await orgUnitsRepository.findByCode(db, code);
    if (unit === undefined) {
      throw new AppError(
        400,
        'validation_failed',
        `${clientUnitField}: No unit has the code ${code}.`,
        clientUnitField,
      );
    }
  }
  if (unit.closed_at !== null) {
    throw new AppError(
      409,
      'unit_closed',
      `${clientUnitField}: The unit ${unit.code} (${unit.name}) is closed: it takes no new tokens or clients.`,
      clientUnitField,
    );
  }
  return unit;
}
