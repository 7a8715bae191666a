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

/**
 * Whether the browser's cookie names a live session, answered 200 either way: the app asks on
 * every visit, and a visit without a session is no failure (GET /api/session answers it 401).
 */
export const sessionStatusSchema = z.discriminatedUnion('signedIn', [
  z.object({ signedIn: z.literal(false) }),
  sessionResponseSchema.extend({ signedIn: z.literal(true) }),
]);
export type SessionStatus = z.infer<typeof sessionStatusSchema>;
