import { sessionUserSchema, type SessionUser } from '../../shared/api/session.ts';

/**
 * Who was signed in on this device, kept while the session lasts so that the app opens with no
 * network (the server still decides every call once it is reached). Signing out and an ended
 * session remove it. It names a member of staff, never a patient.
 */
const keptUserKey = 'triage.signedInUser';

export function keepUser(user: SessionUser): void {
  try {
    localStorage.setItem(keptUserKey, JSON.stringify(user));
  } catch {
    // Without storage the app only opens online.
  }
}

export function keptUser(): SessionUser | null {
  try {
    const text = localStorage.getItem(keptUserKey);
    if (text === null) return null;
    const parsed = sessionUserSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function forgetUser(): void {
  try {
    localStorage.removeItem(keptUserKey);
  } catch {
    // Nothing was kept.
  }
}
