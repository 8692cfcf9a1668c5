import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { config } from './config';
import { constantTimeEqual } from './secrets';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;

// OWASP's scrypt floor: N=2^17, r=8, p=1 (128 MiB per hash). Production never goes below it;
// `PASSWORD_SCRYPT_LOG2_N` lowers it elsewhere (the test suite hashes hundreds of passwords).
const OWASP_LOG2_N = 17;

function costLog2(): number {
  const floor = config.isProduction ? OWASP_LOG2_N : 10;
  return Math.min(20, Math.max(floor, config.auth.passwordScryptLog2N));
}

const PARAMS = { N: 2 ** costLog2(), r: 8, p: 1, maxmem: 256 * 1024 * 1024 };
const KEY_LENGTH = 32;

/** `scrypt$N$r$p$salt$hash`, all parameters stored so they can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const N = Number(n);
  const computed = await scrypt(password, Buffer.from(salt, 'base64url'), KEY_LENGTH, {
    N,
    r: Number(r),
    p: Number(p),
    maxmem: 256 * 1024 * 1024,
  });
  return constantTimeEqual(computed.toString('base64url'), hash);
}
