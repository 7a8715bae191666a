import { AppError } from '../server/errors.ts';
import { clientUnitField } from '../server/services/client-units.ts';

/**
 * A service's refusal of the unit a token or client is registered for, named as the command
 * line names it: `--unit: No unit has the code X.` Any other fault is returned as it is.
 */
export function asUnitOptionFault(error: unknown): unknown {
  if (!(error instanceof AppError) || error.field !== clientUnitField) return error;
  return new AppError(
    error.status,
    error.code,
    error.message.replace(`${clientUnitField}: `, '--unit: '),
    error.field,
  );
}
