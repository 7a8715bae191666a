import { signedOffUpdateMessage } from '../../../shared/api/assessments.ts';
import { ApiError } from '../../api/client.ts';

/** The wizard's texts from spec sections 2.6, 4, 5 and 8, word for word. */
export const wizardTexts = {
  signedOffBadge: '🔒 Signed Off - Read Only',
  saved: 'Assessment saved successfully!',
  updated: 'Assessment updated successfully!',
  signOffConfirm:
    'Are you sure you want to sign off this assessment? Once signed off, no further changes can be made to this assessment.',
  signOffFailed: 'Failed to sign off assessment',
  signOffException: 'An error occurred while signing off the assessment',
  reportFailed: 'Failed to generate report. Please try again.',
  reportMissingData: 'Cannot generate report: Missing assessment data',
  loadFailed: 'Failed to load assessment',
  loadFailedRetry: 'Failed to load assessment. Please try again.',
  calculationFailed: 'Failed to calculate results. Please check your input data.',
  noActiveRuleSet:
    'No guidelines version known to this server is active, so results cannot be calculated. An administrator can activate one on the Guidelines page.',
  unknownRuleSet: (version: string) =>
    `The active guidelines (version ${version}) are newer than this page. Reload the page to calculate results.`,
  ruleSetLoadFailed: 'The active guidelines could not be loaded, so results cannot be calculated.',
  scoredWith: (label: string) => `Scored with ${label}.`,
  unsavedChanges: 'Unsaved changes',
  asthmaPrerequisiteTitle: 'Prerequisites Required',
  asthmaPrerequisite: 'Cough OR Wheezing must be present for further assessment',
  asymptomaticTitle: 'Asymptomatic Condition',
  unitMissing: 'Choose the unit where the assessment is done.',
  unitsUnavailable:
    'The units could not be loaded. If you work at several, the unit is asked for when this assessment is sent.',
} as const;

export interface SaveButtonState {
  label: 'Save Assessment' | 'Saving...' | 'Assessment Saved' | 'Update Assessment';
  disabled: boolean;
}

/**
 * Spec 4 'Save button': 'Saving...' while saving; 'Save Assessment' for a new assessment; for a
 * saved one 'Assessment Saved' (disabled) until something changes, then 'Update Assessment'.
 */
export function saveButtonState(state: {
  saved: boolean;
  dirty: boolean;
  saving: boolean;
}): SaveButtonState {
  if (state.saving) return { label: 'Saving...', disabled: true };
  if (!state.saved) return { label: 'Save Assessment', disabled: false };
  return state.dirty
    ? { label: 'Update Assessment', disabled: false }
    : { label: 'Assessment Saved', disabled: true };
}

/**
 * Why a save or sign-off failed. `conflict`: the stored assessment changed under the user (a newer
 * version, or signed off by someone else), which only reloading it resolves.
 */
export type Failure =
  { kind: 'conflict'; message: string } | { kind: 'failed'; title: string; message: string | null };

function isConflict(error: ApiError): boolean {
  return error.status === 412 || (error.status === 409 && error.code === 'signed_off');
}

/** Spec 8: 'Failed to save/update assessment' with the server's message, or the exception text. */
export function saveFailure(error: unknown, isUpdate: boolean): Failure {
  if (error instanceof ApiError && isConflict(error)) {
    const message = error.code === 'signed_off' ? signedOffUpdateMessage : error.message;
    return { kind: 'conflict', message };
  }
  if (!(error instanceof ApiError) || error.status === 0) {
    return {
      kind: 'failed',
      title: `An unexpected error occurred while ${isUpdate ? 'updating' : 'saving'}`,
      message: error instanceof ApiError ? error.message : null,
    };
  }
  return {
    kind: 'failed',
    title: isUpdate ? 'Failed to update assessment' : 'Failed to save assessment',
    message: error.message === '' ? null : error.message,
  };
}

/** Spec 8: the server's message or 'Failed to sign off assessment'; the exception text otherwise. */
export function signOffFailure(error: unknown): Failure {
  if (error instanceof ApiError && error.status === 412) {
    return { kind: 'conflict', message: error.message };
  }
  if (!(error instanceof ApiError) || error.status === 0) {
    return {
      kind: 'failed',
      title: wizardTexts.signOffException,
      message: error instanceof ApiError ? error.message : null,
    };
  }
  return {
    kind: 'failed',
    title: wizardTexts.signOffFailed,
    message: error.message === '' ? null : error.message,
  };
}
