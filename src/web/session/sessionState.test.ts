import { describe, expect, it } from 'vitest';
import { incorrectPasswordMessage, type SessionUser } from '../../shared/api/session.ts';
import { friendlyMessages } from '../../shared/texts.ts';
import { ApiError } from '../api/client.ts';
import {
  noticeForFailedCheck,
  noticeForNoSession,
  sessionReducer,
  signInFailure,
  type SessionState,
} from './sessionState.ts';

const user: SessionUser = { id: 'u1', username: 'ann', displayName: 'Ann', role: 'nurse' };

describe('sessionReducer', () => {
  it('signs in and out', () => {
    const signedIn = sessionReducer({ status: 'checking' }, { type: 'signedIn', user });
    expect(signedIn).toEqual({ status: 'signedIn', user });
    expect(sessionReducer(signedIn, { type: 'signedOut', notice: null })).toEqual({
      status: 'signedOut',
      notice: null,
    });
  });

  it('keeps the end of the grace of a required second factor until one is set up', () => {
    const by = '2026-12-02T09:00:00.000Z';
    const signedIn = sessionReducer(
      { status: 'checking' },
      { type: 'signedIn', user, secondFactorRequiredBy: by },
    );
    expect(signedIn).toEqual({ status: 'signedIn', user, secondFactorRequiredBy: by });
    expect(sessionReducer(signedIn, { type: 'secondFactorEnrolled' })).toEqual({
      status: 'signedIn',
      user,
    });
    expect(
      sessionReducer(
        { status: 'checking' },
        { type: 'signedIn', user, secondFactorRequiredBy: null },
      ),
    ).toEqual({ status: 'signedIn', user });
  });

  it('turns a 401 while signed in into the gate with the sign-in-again message', () => {
    expect(sessionReducer({ status: 'signedIn', user }, { type: 'expired' })).toEqual({
      status: 'signedOut',
      notice: friendlyMessages.auth,
    });
  });

  it('ignores a 401 while checking or already signed out', () => {
    const checking: SessionState = { status: 'checking' };
    const signedOut: SessionState = { status: 'signedOut', notice: null };
    expect(sessionReducer(checking, { type: 'expired' })).toBe(checking);
    expect(sessionReducer(signedOut, { type: 'expired' })).toBe(signedOut);
  });
});

describe('noticeForNoSession', () => {
  it('says nothing on a first visit, and asks to sign in again when the flag says so', () => {
    expect(noticeForNoSession(false)).toBeNull();
    expect(noticeForNoSession(true)).toBe(friendlyMessages.auth);
  });
});

describe('noticeForFailedCheck', () => {
  const unauthenticated = new ApiError(401, 'unauthenticated', 'Please sign in to continue.');

  it('says nothing when nobody was signed in, and asks to sign in again when the flag says so', () => {
    expect(noticeForFailedCheck(unauthenticated, false)).toBeNull();
    expect(noticeForFailedCheck(unauthenticated, true)).toBe(friendlyMessages.auth);
  });

  it('passes on why the check itself failed', () => {
    const offline = new ApiError(0, 'network', friendlyMessages.network);
    expect(noticeForFailedCheck(offline, true)).toBe(friendlyMessages.network);
    expect(noticeForFailedCheck(new Error('boom'), false)).toBe(friendlyMessages.unexpected);
  });
});

describe('signInFailure', () => {
  it('shows the spec text for any refused login and clears the password', () => {
    const refused = new ApiError(401, 'unauthenticated', 'anything the server says');
    expect(signInFailure(refused)).toEqual({ message: incorrectPasswordMessage, refused: true });
  });

  it("shows the server's throttling message and clears the password", () => {
    const throttled = new ApiError(429, 'too_many_attempts', 'Too many failed sign-in attempts.');
    expect(signInFailure(throttled)).toEqual({
      message: 'Too many failed sign-in attempts.',
      refused: true,
    });
  });

  it('keeps the password when the server was not reached', () => {
    const offline = new ApiError(0, 'network', friendlyMessages.network);
    expect(signInFailure(offline)).toEqual({ message: friendlyMessages.network, refused: false });
  });
});
