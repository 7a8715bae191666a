import { z } from 'zod';
import { roles } from '../permissions.ts';

/** The failed-login message, the same whatever was wrong (spec section 8). */
export const incorrectPasswordMessage = 'Incorrect password. Please try again.';
export const tooManyAttemptsMessage =
  'Too many failed sign-in attempts. Please wait 15 minutes and try again.';

export const loginBodySchema = z.object({
  username: z.string().min(1).max(200),
  password: z.string().min(1).max(1024),
});

export const sessionUserSchema = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  role: z.enum(roles),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/**
 * The signed-in user and, while their role requires a second factor they have not set up, when
 * the grace ends (ISO-8601): after it, sign-in asks them to set one up before anything else.
 * With them, the clinic's calendar, so that the browser counts today and ages as the server does.
 */
export const sessionResponseSchema = z.object({
  user: sessionUserSchema,
  secondFactorRequiredBy: z.string().nullable(),
  /** The clinic's calendar (an IANA zone, TRIAGE_TIME_ZONE): days and ages are counted on it. */
  timeZone: z.string(),
});
export type SessionResponse = z.infer<typeof sessionResponseSchema>;

/** How the gate offers sign-in: the provider's button, the password form, or both. */
export const signInOptionsSchema = z.object({
  /** The button's text after 'Sign in with'; null when no provider is set up. */
  oidc: z.object({ displayName: z.string() }).nullable(),
  /** Whether the password form is shown (false when LOCAL_SIGN_IN is false). */
  localSignIn: z.boolean(),
});
export type SignInOptions = z.infer<typeof signInOptionsSchema>;

/**
 * Whether the browser's cookie names a live session, answered 200 either way: the app asks on
 * every visit, and a visit without a session is no failure (GET /api/session answers it 401).
 */
export const sessionStatusSchema = z.discriminatedUnion('signedIn', [
  z.object({ signedIn: z.literal(false), signIn: signInOptionsSchema }),
  sessionResponseSchema.extend({ signedIn: z.literal(true) }),
]);
export type SessionStatus = z.infer<typeof sessionStatusSchema>;

/**
 * Why a sign-in through the organisation's provider came back to the gate without a session:
 * the callback names the reason (`?signInError=`) and the gate shows its sentence, never the
 * provider's own text.
 */
export const oidcSignInErrors = {
  denied: 'The sign-in was cancelled at your organisation. Please try again.',
  expired: 'The sign-in took too long or was already used. Please start it again.',
  failed: 'The sign-in with your organisation could not be completed. Please try again.',
  noRole: 'Your account has no role in this system. Ask your administrator.',
  noUnit: 'Your account has no organisation unit in this system. Ask your administrator.',
  disabled: 'Your account is disabled. Ask your administrator.',
} as const;
export type OidcSignInError = keyof typeof oidcSignInErrors;

/** A password refused because LOCAL_SIGN_IN is false and the account is not break-glass. */
export const passwordSignInOffMessage =
  'Sign in with your organisation: passwords are not used here.';

/** After a sign-in through a provider with an end_session_endpoint: where to sign out there too. */
export const signOutResponseSchema = z.object({ providerSignOutUrl: z.string() });
export type SignOutResponse = z.infer<typeof signOutResponseSchema>;
