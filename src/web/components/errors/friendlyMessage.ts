import { friendlyMessages } from '../../../shared/texts.ts';
import { ApiError } from '../../api/client.ts';

/**
 * The friendly message for a failure, by its cause (spec section 8 with decisions.md section 6):
 * no answer at all is the network, a full disk on the server says so, any other server failure is
 * the database, a refused input is validation, a 401 or 403 is the sign-in.
 */
export function friendlyMessageFor(error: unknown): string {
  if (!(error instanceof ApiError)) return friendlyMessages.unexpected;
  if (error.code === 'network' || error.status === 0) return friendlyMessages.network;
  if (error.status === 401 || error.status === 403) return friendlyMessages.auth;
  if (error.code === 'disk_full') return friendlyMessages.diskFull;
  if (error.code === 'database_unavailable' || error.status >= 500)
    return friendlyMessages.database;
  if (error.status === 400 || error.status === 422) return friendlyMessages.validation;
  return friendlyMessages.unexpected;
}
