import { Secret, TOTP } from 'otpauth';

/** The product's name in authenticator apps. */
const issuer = 'Triage';
/** RFC 6238's defaults, which every authenticator app reads: SHA-1, 6 digits, 30 seconds. */
const period = 30;
const digits = 6;
/** A code of the step before or after is accepted too, for clocks a little apart. */
const window = 1;

/** A new secret: 160 random bits (RFC 4226's recommended length), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URI an authenticator app reads from the QR code. */
export function otpauthUri(secret: string, username: string): string {
  return new TOTP({
    issuer,
    label: username,
    secret: Secret.fromBase32(secret),
    period,
    digits,
  }).toString();
}

/**
 * The time step a six-digit code was made for, within the window around now; undefined when the
 * code matches none. The caller refuses a step already used, so no code works twice.
 */
export function totpTimeStep(secret: string, code: string, now: Date): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = TOTP.validate({
    token: code,
    secret: Secret.fromBase32(secret),
    period,
    digits,
    timestamp: now.getTime(),
    window,
  });
  if (delta === null) return undefined;
  return Math.floor(now.getTime() / 1000 / period) + delta;
}
