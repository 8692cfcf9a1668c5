import crypto from 'node:crypto';

/** HMAC-SHA256 keyed with the full `whsec_…` string over `<t>.<raw body>`, hex (spec, DESIGN 5). */
export function computeSignature(secret: string, timestamp: number, rawBody: string): string {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

/** `t=<unix>,v1=<hex>[,v1=<hex>]`: one `v1` per live secret, so a rotation never breaks a receiver. */
export function signatureHeader(secrets: readonly string[], timestamp: number, rawBody: string): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${computeSignature(secret, timestamp, rawBody)}`)].join(',');
}

/**
 * Standard Webhooks (standardwebhooks.com) signature: `v1,<base64 HMAC-SHA256>` of
 * `<id>.<timestamp>.<raw body>`, keyed with the base64-decoded part of the secret after `whsec_`;
 * one per live secret, space-separated.
 */
export function standardSignatureHeader(secrets: readonly string[], messageId: string, timestamp: number, rawBody: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
      return `v1,${crypto.createHmac('sha256', key).update(`${messageId}.${timestamp}.${rawBody}`).digest('base64')}`;
    })
    .join(' ');
}
