/**
 * The outbox's encryption: AES-GCM with a random 96-bit IV per entry, under a key that cannot be
 * exported (WebCrypto keeps its bytes out of reach of scripts). The key is held in memory while
 * the user has unlocked it; on the device it rests only wrapped under their password (below).
 */

export interface Sealed {
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: ArrayBuffer;
}

export async function seal(key: CryptoKey, value: unknown): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plaintext = new TextEncoder().encode(JSON.stringify(value));
  const ciphertext = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, plaintext);
  return { iv, ciphertext };
}

/** The value sealed; rejects when the key is another or the bytes were changed (GCM's tag). */
export async function unseal(key: CryptoKey, sealed: Sealed): Promise<unknown> {
  const plaintext = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: sealed.iv },
    key,
    sealed.ciphertext,
  );
  return JSON.parse(new TextDecoder().decode(plaintext)) as unknown;
}

/**
 * The outbox key as it rests on the device: wrapped (AES-KW) under a key derived from the user's
 * password with PBKDF2-SHA-256, with a salt made for this user on this device. Without the
 * password these bytes open nothing; guessing the password costs `iterations` hashes per guess.
 */
export interface WrappedKey {
  salt: Uint8Array<ArrayBuffer>;
  iterations: number;
  wrapped: ArrayBuffer;
}

/** OWASP's figure for PBKDF2-HMAC-SHA-256 (2023): about half a second in a browser. */
export const passwordIterations = 600_000;

async function passwordKey(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<CryptoKey> {
  const material = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(password),
    'PBKDF2',
    false,
    ['deriveKey'],
  );
  return crypto.subtle.deriveKey(
    { name: 'PBKDF2', hash: 'SHA-256', salt, iterations },
    material,
    { name: 'AES-KW', length: 256 },
    false,
    ['wrapKey', 'unwrapKey'],
  );
}

/**
 * A new outbox key and its wrapped form. It is made extractable only so that it can be wrapped;
 * the key returned for use is the one unwrapped again, which cannot be exported.
 */
export async function makeWrappedOutboxKey(
  password: string,
  iterations = passwordIterations,
): Promise<{ key: CryptoKey; wrapped: WrappedKey }> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const wrapping = await passwordKey(password, salt, iterations);
  const exportable = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, [
    'encrypt',
    'decrypt',
  ]);
  const wrapped: WrappedKey = {
    salt,
    iterations,
    wrapped: await crypto.subtle.wrapKey('raw', exportable, wrapping, 'AES-KW'),
  };
  return { key: await unwrapWith(wrapping, wrapped.wrapped), wrapped };
}

function unwrapWith(wrapping: CryptoKey, wrapped: ArrayBuffer): Promise<CryptoKey> {
  return crypto.subtle.unwrapKey(
    'raw',
    wrapped,
    wrapping,
    'AES-KW',
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/** The outbox key, or null when the password is not the one it was wrapped with (AES-KW's check). */
export async function unwrapOutboxKey(
  password: string,
  { salt, iterations, wrapped }: WrappedKey,
): Promise<CryptoKey | null> {
  const wrapping = await passwordKey(password, salt, iterations);
  try {
    return await unwrapWith(wrapping, wrapped);
  } catch {
    return null;
  }
}
