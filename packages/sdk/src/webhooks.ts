import crypto from 'node:crypto';

/**
 * Receiver-side verification of Paybase webhooks (`@paybase/sdk/webhooks`). Self-contained (only `node:crypto`), so a
 * receiver can copy this file into its own codebase.
 *
 *   const event = verifyWebhook(rawBody, request.headers.get('x-service-signature'), process.env.PAYBASE_WEBHOOK_SECRET);
 *
 * Pass the raw body exactly as received: re-serialized JSON does not verify.
 */

export const DEFAULT_TOLERANCE_SECONDS = 300;

export type WebhookVerificationFailure = 'missing_header' | 'malformed_header' | 'timestamp_out_of_tolerance' | 'no_matching_signature';

export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: WebhookVerificationFailure,
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface WebhookEvent<TObject = Record<string, unknown>> {
  id: string;
  /** The API version the body is rendered in (docs/changelog.md). */
  apiVersion: string;
  type: string;
  /** The seller's event counter: larger for every later event (docs/webhooks.md, "Ordering"). */
  sequence: number;
  createdAt: string;
  data: { object: TObject };
}

export interface VerifyOptions {
  /** Largest accepted |now − t|, in seconds (default 300, the spec's tolerance). */
  toleranceSeconds?: number;
  /** Current time in unix seconds; for tests. */
  now?: number;
}

/** The hex HMAC-SHA256, keyed with the whole `whsec_…` secret, of `<t>.<raw body>` (the `v1` of a delivery). */
export function computeWebhookSignature(secret: string, timestamp: number, rawBody: string): string {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

/** The `X-Service-Signature` value a delivery carries: `t=<unix>,v1=<hex>` with one `v1` per secret. */
export function webhookSignatureHeader(secrets: string | readonly string[], timestamp: number, rawBody: string): string {
  const all = typeof secrets === 'string' ? [secrets] : secrets;
  return [`t=${timestamp}`, ...all.map((secret) => `v1=${computeWebhookSignature(secret, timestamp, rawBody)}`)].join(',');
}

/**
 * The Standard Webhooks `webhook-signature` value (standardwebhooks.com): `v1,<base64 HMAC-SHA256>`
 * of `<id>.<timestamp>.<raw body>`, keyed with the base64-decoded part of each secret after `whsec_`.
 */
export function standardWebhookSignature(secrets: string | readonly string[], messageId: string, timestamp: number, rawBody: string): string {
  const all = typeof secrets === 'string' ? [secrets] : secrets;
  return all
    .map(
      (secret) =>
        `v1,${crypto
          .createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
          .update(`${messageId}.${timestamp}.${rawBody}`)
          .digest('base64')}`,
    )
    .join(' ');
}

/** Parses `t=<unix>,v1=<hex>,v1=<hex>…`; unknown schemes are ignored for forward compatibility. */
export function parseSignatureHeader(header: string): { timestamp: number; signatures: string[] } {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) continue;
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookVerificationError('malformed_header', 'The signature header needs t=<unix seconds> and at least one v1=<hex>.');
  }
  return { timestamp, signatures };
}

/**
 * Checks the signature of one delivery and returns the parsed event. Throws a
 * WebhookVerificationError when the header is missing or malformed, when `t` is more than the
 * tolerance away from now (either direction), or when no `v1` matches any of `secrets` (pass
 * several during your own rotation). Comparison is constant-time.
 */
export function verifyWebhook<TObject = Record<string, unknown>>(
  rawBody: string | Buffer,
  header: string | null | undefined,
  secrets: string | readonly string[],
  options: VerifyOptions = {},
): WebhookEvent<TObject> {
  if (!header) throw new WebhookVerificationError('missing_header', 'No X-Service-Signature header.');
  const { timestamp, signatures } = parseSignatureHeader(header);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError('timestamp_out_of_tolerance', `The signature timestamp is more than ${tolerance} s from now.`);
  }
  const body = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  const expected = (typeof secrets === 'string' ? [secrets] : secrets).map((secret) => Buffer.from(computeWebhookSignature(secret, timestamp, body), 'hex'));
  let matched = false;
  for (const candidate of signatures) {
    const given = Buffer.from(candidate, 'hex');
    // Every pair is compared (no early exit), each in constant time.
    for (const digest of expected) if (crypto.timingSafeEqual(digest, given)) matched = true;
  }
  if (!matched) throw new WebhookVerificationError('no_matching_signature', 'No v1 signature matches the signing secret.');
  return JSON.parse(body) as WebhookEvent<TObject>;
}
