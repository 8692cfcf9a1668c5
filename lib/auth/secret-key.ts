import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { config } from '../config';

const KEY_FILE = 'secret-key';
const MIN_LENGTH = 32;

let cached: { source: string; key: Buffer } | undefined;

/**
 * The installation's root secret: `SECRET_KEY` when set (required in production), otherwise
 * 32 random bytes generated once into `<dataDir>/secret-key` (mode 0600). Purpose keys are derived from it with HKDF, so
 * one secret serves token signing and encryption without reusing a key for two jobs.
 */
export function rootSecret(): Buffer {
  const fromEnv = process.env.SECRET_KEY;
  const source = fromEnv ? 'env' : path.join(config.dataDir, KEY_FILE);
  if (cached?.source === source) return cached.key;
  let key: Buffer;
  if (!fromEnv && config.isProduction) {
    // Every server and worker of an installation must share the key; a per-machine file would not.
    throw new Error('SECRET_KEY must be set when APP_ENV=production (it signs tokens and encrypts webhook secrets).');
  }
  if (fromEnv) {
    if (fromEnv.length < MIN_LENGTH) throw new Error(`SECRET_KEY must be at least ${MIN_LENGTH} characters`);
    key = Buffer.from(fromEnv, 'utf8');
  } else {
    key = readOrCreateKeyFile(source);
  }
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
  if (text.length < MIN_LENGTH) throw new Error(`${file} is shorter than ${MIN_LENGTH} characters`);
  return Buffer.from(text, 'utf8');
}

/** A 32-byte key for one purpose (e.g. `jwt-signing`), derived from the root secret. */
export function derivedKey(purpose: string): Uint8Array {
  return new Uint8Array(crypto.hkdfSync('sha256', rootSecret(), Buffer.alloc(0), `paybase:${purpose}`, 32));
}
