import crypto from 'node:crypto';

/** One-shot `crypto.hash`: no Hash object per call (every API request hashes its key). */
export function sha256Hex(value: string): string {
  return crypto.hash('sha256', value, 'hex');
}

export function randomToken(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
