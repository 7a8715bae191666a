import { passwordMaxLength, passwordMinLength } from '../../../shared/api/users.ts';

/** The password rule as the forms show it; the server also refuses common passwords. */
export const passwordRule = `${passwordMinLength} to ${passwordMaxLength} characters, not a common password, not containing the user name.`;
