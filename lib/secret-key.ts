import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { config } from './config';
import { SECRET_KEY_MIN_LENGTH } from './config-schema';

const KEY_FILE = 'secret-key';

let cached: { source: string; key: Buffer } | undefined;

/**
 * The installation's root secret: `SECRET_KEY` when set (required in production), otherwise
 * 32 random bytes generated once into `<dataDir>/secret-key` (mode 0600). Purpose keys are derived from it with HKDF, so
 * one secret serves token signing and encryption without reusing a key for two jobs.
 */
export function rootSecret(): Buffer {
  // The configuration refuses a SECRET_KEY shorter than 32 characters, and a production without one.
  const fromEnv = config.auth.secretKey;
  const source = fromEnv ? 'env' : path.join(config.dataDir, KEY_FILE);
  if (cached?.source === source) return cached.key;
  const key = fromEnv ? Buffer.from(fromEnv, 'utf8') : readOrCreateKeyFile(source);
  cached = { source, key };
  return key;
}

function readOrCreateKeyFile(file: string): Buffer {
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      // 'wx' fails if another process created it first; then both read the same file.
      fs.writeFileSync(file, crypto.randomBytes(32).toString('base64url'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const text = fs.readFileSync(file, 'utf8').trim();
  if (text.length < SECRET_KEY_MIN_LENGTH) throw new Error(`${file} is shorter than ${SECRET_KEY_MIN_LENGTH} characters`);
  return Buffer.from(text, 'utf8');
}

/** A 32-byte key for one purpose (e.g. `jwt-signing`), derived from the root secret. */
export function derivedKey(purpose: string): Uint8Array {
  return new Uint8Array(crypto.hkdfSync('sha256', rootSecret(), Buffer.alloc(0), `paybase:${purpose}`, 32));
}
