import { describe, expect, it } from 'vitest';
import { createUserBodySchema } from '../shared/api/users.ts';
import { friendlyMessages } from '../shared/texts.ts';
import { ApiError } from './api/client.ts';
import { errorMessage, fieldErrorsFromIssues, submitFailure } from './forms.ts';

describe('fieldErrorsFromIssues', () => {
  it('keeps the first message per field of a shared schema', () => {
    const parsed = createUserBodySchema.safeParse({
      username: '!',
      role: 'nurse',
      password: 'short',
    });
    expect(parsed.success).toBe(false);
    const errors = fieldErrorsFromIssues(parsed.error?.issues ?? []);
    expect(errors).toEqual({
      username: 'User names are 2 to 64 letters, digits, dots, dashes or underscores',
      password: 'Passwords are at least 12 characters',
    });
  });
});

describe('submitFailure', () => {
  it('puts a server error under the field it names, without the field prefix', () => {
    const error = new ApiError(400, 'validation_failed', 'password: Too common', 'password');
    expect(submitFailure(error, ['username', 'password'])).toEqual({
      fieldErrors: { password: 'Too common' },
      formError: null,
    });
  });

  it('keeps a message without the prefix as it is', () => {
    const error = new ApiError(409, 'conflict', 'The user name ann is taken.', 'username');
    expect(submitFailure(error, ['username']).fieldErrors).toEqual({
      username: 'The user name ann is taken.',
    });
  });

  it('shows errors for no field, or a field the form lacks, above the buttons', () => {
    const conflict = new ApiError(409, 'conflict', 'You cannot disable yourself.');
    expect(submitFailure(conflict, ['role'])).toEqual({
      fieldErrors: {},
      formError: 'You cannot disable yourself.',
    });
    const elsewhere = new ApiError(400, 'validation_failed', 'id: bad', 'id');
    expect(submitFailure(elsewhere, ['role']).formError).toBe('id: bad');
  });

  it('uses the friendly message for anything that is not an API error', () => {
    expect(submitFailure(new Error('boom'), []).formError).toBe(friendlyMessages.unexpected);
    expect(errorMessage(new Error('boom'))).toBe(friendlyMessages.unexpected);
  });
});
