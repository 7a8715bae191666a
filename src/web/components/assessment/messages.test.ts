import { describe, expect, it } from 'vitest';
import { staleVersionMessage } from '../../../shared/api/assessments.ts';
import { friendlyMessages } from '../../../shared/texts.ts';
import { ApiError } from '../../api/client.ts';
import { saveButtonState, saveFailure, signOffFailure } from './messages.ts';

describe('saveButtonState (spec 4)', () => {
  it('reads Save Assessment for a new one, Saving... while saving', () => {
    expect(saveButtonState({ saved: false, dirty: true, saving: false })).toEqual({
      label: 'Save Assessment',
      disabled: false,
    });
    expect(saveButtonState({ saved: true, dirty: true, saving: true })).toEqual({
      label: 'Saving...',
      disabled: true,
    });
  });

  it('reads Assessment Saved (disabled) until something changes, then Update Assessment', () => {
    expect(saveButtonState({ saved: true, dirty: false, saving: false })).toEqual({
      label: 'Assessment Saved',
      disabled: true,
    });
    expect(saveButtonState({ saved: true, dirty: true, saving: false })).toEqual({
      label: 'Update Assessment',
      disabled: false,
    });
  });
});

const offline = new ApiError(0, 'network', friendlyMessages.network);

describe('saveFailure (spec 8)', () => {
  it("turns a stale version into a conflict with the server's text", () => {
    const stale = new ApiError(412, 'stale_version', staleVersionMessage);
    expect(saveFailure(stale, true)).toEqual({ kind: 'conflict', message: staleVersionMessage });
  });

  it('turns a sign-off by someone else into a conflict that says so', () => {
    const signedOff = new ApiError(409, 'signed_off', 'anything');
    expect(saveFailure(signedOff, true)).toEqual({
      kind: 'conflict',
      message: 'Cannot update signed-off assessment',
    });
  });

  it("names the failed save or update with the server's message", () => {
    const refused = new ApiError(400, 'validation_failed', 'demographics.age: Too big', 'x');
    expect(saveFailure(refused, false)).toEqual({
      kind: 'failed',
      title: 'Failed to save assessment',
      message: 'demographics.age: Too big',
    });
    expect(saveFailure(refused, true)).toMatchObject({ title: 'Failed to update assessment' });
  });

  it('reports a network failure or an exception as unexpected', () => {
    expect(saveFailure(offline, false)).toEqual({
      kind: 'failed',
      title: 'An unexpected error occurred while saving',
      message: friendlyMessages.network,
    });
    expect(saveFailure(new TypeError('boom'), true)).toEqual({
      kind: 'failed',
      title: 'An unexpected error occurred while updating',
      message: null,
    });
  });
});

describe('signOffFailure (spec 8)', () => {
  it("passes the server's message on under 'Failed to sign off assessment'", () => {
    const already = new ApiError(409, 'signed_off', 'This assessment is already signed off.');
    expect(signOffFailure(already)).toEqual({
      kind: 'failed',
      title: 'Failed to sign off assessment',
      message: 'This assessment is already signed off.',
    });
  });

  it('reports an exception with the spec text and a stale version as a conflict', () => {
    expect(signOffFailure(offline)).toMatchObject({
      title: 'An error occurred while signing off the assessment',
    });
    const stale = new ApiError(412, 'stale_version', staleVersionMessage);
    expect(signOffFailure(stale)).toEqual({ kind: 'conflict', message: staleVersionMessage });
  });
});
