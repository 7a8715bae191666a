import { useState } from 'react';
import { Alert, Button, Group, PasswordInput } from '@mantine/core';
import { fieldErrorsFromIssues, submitFailure, type FieldErrors } from '../../forms.ts';
import type { User } from '../../../shared/api/users.ts';
import { passwordRule } from './passwordRule.ts';

/** What the dialogs about one user (edit, reset password, disable) are given. */
export interface UserModalProps {
  /** null while no user is chosen; the dialog is then closed. */
  user: User | null;
  opened: boolean;
  onClose: () => void;
  onSaved: (user: User) => void;
}

/**
 * The state of a user form's submit: messages under the inputs, one above the buttons, and
 * whether a request is under way. `formFields` are the API's names of the form's inputs.
 */
export function useUserFormSubmit(formFields: readonly string[]) {
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  return {
    fieldErrors,
    formError,
    saving,
    /** Shows a shared schema's issues under their inputs; nothing is sent. */
    refuse: (issues: Parameters<typeof fieldErrorsFromIssues>[0]) => {
      setFieldErrors(fieldErrorsFromIssues(issues));
      setFormError(null);
    },
    /** Takes a field's message away once its input changed (a choice made after a refusal). */
    clearFieldError: (field: string) => {
      setFieldErrors((current) => {
        if (current[field] === undefined) return current;
        return { ...current, [field]: undefined };
      });
    },
    /** Sends; a failure goes under the input the server named, or above the buttons. */
    send: async (request: () => Promise<void>) => {
      setSaving(true);
      try {
        await request();
      } catch (error) {
        const failure = submitFailure(error, formFields);
        setFieldErrors(failure.fieldErrors);
        setFormError(failure.formError);
        setSaving(false);
      }
    },
  };
}

/** A user form's end: the failure that belongs to no input, Cancel, and the submit button. */
export function UserFormActions({
  formError,
  saving,
  submitLabel,
  onCancel,
}: {
  formError: string | null;
  saving: boolean;
  submitLabel: string;
  onCancel: () => void;
}) {
  return (
    <>
      {formError !== null && <Alert color="red">{formError}</Alert>}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" loading={saving}>
          {submitLabel}
        </Button>
      </Group>
    </>
  );
}

/** A password being set for a user, with the rule it must meet. */
export function NewPasswordInput({
  label,
  value,
  onChange,
  error,
  autoFocus = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  autoFocus?: boolean;
}) {
  return (
    <PasswordInput
      label={label}
      description={passwordRule}
      required
      autoComplete="new-password"
      data-autofocus={autoFocus || undefined}
      visibilityToggleFocusable
      visibilityToggleButtonProps={{ 'aria-label': 'Show password' }}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
      // Mantine's PasswordInput does not mark its input invalid itself.
      aria-invalid={error !== undefined}
    />
  );
}
