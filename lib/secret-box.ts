import crypto from 'node:crypto';
import { derivedKey } from './secret-key';

const VERSION = 'v1';

/** The AES-256 key for secrets that must be readable again (webhook signing secrets, DESIGN 4.10). */
function encryptionKey(): Uint8Array {
  return derivedKey('secret-box');
}

/**
 * AES-256-GCM with a random 96-bit nonce; `context` (e.g. the owning row's id) is bound as
 * associated data so a ciphertext copied onto another row does not decrypt.
 */
export function encryptSecret(plaintext: string, context: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', encryptionKey(), iv);
  cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
}

export function decryptSecret(sealed: string, context: string): string {
  const [version, payload] = sealed.split(':');
  if (version !== VERSION || !payload) throw new Error('Unknown secret format.');
  const raw = Buffer.from(payload, 'base64url');
  const decipher = crypto.createDecipheriv('aes-256-gcm', encryptionKey(), raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
