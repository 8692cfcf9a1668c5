import crypto from 'node:crypto';

/** HMAC-SHA256 keyed with the full `whsec_…` string over `<t>.<raw body>`, hex (spec, DESIGN 5). */
export function computeSignature(secret: string, timestamp: number, rawBody: string): string {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

/** `t=<unix>,v1=<hex>[,v1=<hex>]`: one `v1` per live secret, so a rotation never breaks a receiver. */
export function signatureHeader(secrets: readonly string[], timestamp: number, rawBody: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${computeSignature(secret, timestamp, rawBody)}`)].join(',');
}
