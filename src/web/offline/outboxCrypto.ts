/**
 * The outbox's encryption: AES-GCM with a random 96-bit IV per entry, under a key that cannot be
 * exported (WebCrypto keeps its bytes out of reach of scripts; IndexedDB stores the key object).
 */

export interface Sealed {
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: ArrayBuffer;
}

export function makeOutboxKey(): Promise<CryptoKey> {
  return crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
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
