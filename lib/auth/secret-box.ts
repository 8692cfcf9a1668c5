import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { config } from '../config';

const KEY_FILE = 'secret-key';
const VERSION = 'v1';

let cachedKey: Buffer | undefined;

/**
 * The AES-256 key for secrets that must be readable again (webhook signing secrets, DESIGN
 * 4.10): derived from SECRET_KEY, or — outside production — from a random key generated once
 * into the data directory (mode 0600). Production refuses to run without SECRET_KEY, because
 * every server and worker machine must share the same key.
 */
function encryptionKey(): Buffer {
  if (cachedKey) return cachedKey;
  let material = config.secretKey;
  if (!material) {
    if (config.isProduction) throw new Error('SECRET_KEY must be set in production (it encrypts webhook signing secrets).');
    material = readOrCreateKeyFile(path.join(config.dataDir, KEY_FILE));
  }
  cachedKey = crypto.createHash('sha256').update(material).digest();
  return cachedKey;
}

function readOrCreateKeyFile(file: string): string {
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    // `wx`: if two processes race to create it, exactly one wins and the other reads its key.
    fs.writeFileSync(file, crypto.randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return fs.readFileSync(file, 'utf8').trim();
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
