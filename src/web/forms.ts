import { friendlyMessages } from '../shared/texts.ts';
import { ApiError } from './api/client.ts';

/** Messages to show under inputs, by the field names the API uses. */
export type FieldErrors = Partial<Record<string, string>>;

/** The first issue for each field, from a shared schema's safeParse. */
export function fieldErrorsFromIssues(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join('.');
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * Where a failed submit's message goes: under the input the server named when the form has it,
 * otherwise above the buttons. Schema failures arrive as 'field: message'; the input already names
 * the field.
 */
export function submitFailure(
  error: unknown,
  formFields: readonly string[],
): { fieldErrors: FieldErrors; formError: string | null } {
  if (!(error instanceof ApiError))
    return { fieldErrors: {}, formError: friendlyMessages.unexpected };
  const { field, message } = error;
  if (field === undefined || !formFields.includes(field)) {
    return { fieldErrors: {}, formError: message };
  }
  const prefix = `${field}: `;
  return {
    fieldErrors: { [field]: message.startsWith(prefix) ? message.slice(prefix.length) : message },
    formError: null,
  };
}

/** The message for a failure shown in a notification or an alert. */
export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.message : friendlyMessages.unexpected;
}
