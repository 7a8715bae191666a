import {
  recoveryCodesSchema,
  secondFactorEnrolmentSchema,
  secondFactorStatusSchema,
  signInEnrolmentConfirmedSchema,
  type RecoveryCodes,
  type SecondFactorEnrolment,
  type SecondFactorStatus,
  type SignInEnrolmentConfirmed,
} from '../../shared/api/second-factor.ts';
import { apiRequest } from './client.ts';

export function getSecondFactorStatus(signal?: AbortSignal): Promise<SecondFactorStatus> {
  return apiRequest('/api/account/second-factor', { schema: secondFactorStatusSchema, signal });
}

export function startSecondFactorEnrolment(): Promise<SecondFactorEnrolment> {
  return apiRequest('/api/account/second-factor/enrolment', {
    method: 'POST',
    schema: secondFactorEnrolmentSchema,
  });
}

export function confirmSecondFactor(code: string): Promise<RecoveryCodes> {
  return apiRequest('/api/account/second-factor/confirmation', {
    method: 'POST',
    body: { code },
    schema: recoveryCodesSchema,
  });
}

/** At sign-in, when the user's role requires a second factor: a new secret to set up. */
export function startSignInEnrolment(signal?: AbortSignal): Promise<SecondFactorEnrolment> {
  return apiRequest('/api/session/second-factor/enrolment', {
    method: 'POST',
    schema: secondFactorEnrolmentSchema,
    isSignIn: true,
    signal,
  });
}

/** At sign-in, confirms the new second factor: the session begins; the recovery codes, once. */
export function confirmSignInEnrolment(code: string): Promise<SignInEnrolmentConfirmed> {
  return apiRequest('/api/session/second-factor/confirmation', {
    method: 'POST',
    body: { code },
    schema: signInEnrolmentConfirmedSchema,
    isSignIn: true,
  });
}
