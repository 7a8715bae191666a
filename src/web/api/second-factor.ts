import {
  recoveryCodesSchema,
  secondFactorEnrolmentSchema,
  secondFactorStatusSchema,
  type RecoveryCodes,
  type SecondFactorEnrolment,
  type SecondFactorStatus,
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
