import { z } from 'zod';
import { sessionResponseSchema } from './session.ts';

/** The answer to a right password of a user with a second factor: the sign-in's second step. */
export const secondFactorRequiredSchema = z.object({ secondFactorRequired: z.literal(true) });

/**
 * The answer to a right password of a user whose role requires a second factor, past the grace:
 * the sign-in's next step is setting one up (POST /api/session/second-factor/enrolment, then
 * /confirmation), and nothing else.
 */
export const secondFactorEnrolmentRequiredSchema = z.object({
  secondFactorEnrolmentRequired: z.literal(true),
});

/** POST /api/session: signed in, or the second step is asked for, or enrolment is. */
export const signInResponseSchema = z.union([
  sessionResponseSchema,
  secondFactorRequiredSchema,
  secondFactorEnrolmentRequiredSchema,
]);
export type SignInResponse = z.infer<typeof signInResponseSchema>;

/** A six-digit code from the authenticator app, or a recovery code (`xxxx-xxxx-xxxx-xxxx`). */
export const secondFactorCodeSchema = z.object({ code: z.string().trim().min(1).max(64) });

export const secondFactorStatusSchema = z.object({
  /** Whether sign-in asks this user for a code after the password. */
  enrolled: z.boolean(),
  /** Recovery codes not yet used; 0 when not enrolled. */
  recoveryCodesLeft: z.number().int().min(0),
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatusSchema>;

/** A new secret to add to an authenticator app; it counts once a code from it is confirmed. */
export const secondFactorEnrolmentSchema = z.object({
  /** Base32, for typing into an app by hand. */
  secret: z.string(),
  /** The otpauth:// URI the QR code holds. */
  otpauthUri: z.string(),
  /** The QR code as a PNG data URL. */
  qrCode: z.string(),
});
export type SecondFactorEnrolment = z.infer<typeof secondFactorEnrolmentSchema>;

/** Shown once, at confirmation: each works once in place of a code. Only their hashes are kept. */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()).length(10) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** Enrolment confirmed at sign-in: the session has begun, and the recovery codes are shown once. */
export const signInEnrolmentConfirmedSchema = sessionResponseSchema.extend(
  recoveryCodesSchema.shape,
);
export type SignInEnrolmentConfirmed = z.infer<typeof signInEnrolmentConfirmedSchema>;

export const secondFactorTexts = {
  wrongCode: 'That code is not right. Please try again.',
  expired: 'The sign-in has expired. Please enter your password again.',
  alreadyEnrolled:
    'A second factor is already set up. An administrator can reset it (triage user reset-mfa).',
  noEnrolment: 'Start the set-up first: no code is awaited.',
  codePrompt: 'Enter the 6-digit code from your authenticator app, or one of your recovery codes.',
  enrolmentPrompt:
    'Your role requires two-step sign-in. Set it up now to continue: it asks for a code from an app on your phone after your password.',
} as const;
