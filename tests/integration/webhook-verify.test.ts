import { describe, expect, it } from 'vitest';
import { computeSignature, signatureHeader } from '@/lib/webhooks/signature';
import { parseSignatureHeader, verifyWebhook, WebhookVerificationError } from '@/packages/sdk/src/webhooks';

const SECRET = 'whsec_test_secret_value';
const BODY = JSON.stringify({ id: 'evt_1', type: 'product.created', createdAt: '2026-01-01T00:00:00.000Z', data: { object: { id: 'prod_1' } } });
const T = 1_800_000_000;

function reason(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return undefined;
}

describe('verifyWebhook (receiver side)', () => {
  it('accepts a correctly signed body and returns the event', () => {
    const header = signatureHeader([SECRET], T, BODY);
    expect(header).toBe(`t=${T},v1=${computeSignature(SECRET, T, BODY)}`);
    const event = verifyWebhook(BODY, header, SECRET, { now: T });
    expect(event.id).toBe('evt_1');
    expect(verifyWebhook(Buffer.from(BODY), header, SECRET, { now: T }).type).toBe('product.created');
  });

  it('signs HMAC-SHA256 over "<t>.<raw body>" keyed with the full whsec_ string', async () => {
    const crypto = await import('node:crypto');
    const expected = crypto.createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(computeSignature(SECRET, T, BODY)).toBe(expected);
    expect(computeSignature(SECRET.slice('whsec_'.length), T, BODY)).not.toBe(expected);
  });

  it('enforces the 300 s tolerance in both directions, inclusive', () => {
    const header = signatureHeader([SECRET], T, BODY);
    expect(reason(() => verifyWebhook(BODY, header, SECRET, { now: T + 300 }))).toBeUndefined();
    expect(reason(() => verifyWebhook(BODY, header, SECRET, { now: T - 300 }))).toBeUndefined();
    expect(reason(() => verifyWebhook(BODY, header, SECRET, { now: T + 301 }))).toBe('timestamp_out_of_tolerance');
    expect(reason(() => verifyWebhook(BODY, header, SECRET, { now: T - 301 }))).toBe('timestamp_out_of_tolerance');
    expect(reason(() => verifyWebhook(BODY, header, SECRET, { now: T + 1000, toleranceSeconds: 1000 }))).toBeUndefined();
  });

  it('rejects a changed body, a wrong secret and a signature moved to another timestamp', () => {
    const header = signatureHeader([SECRET], T, BODY);
    expect(reason(() => verifyWebhook(BODY.replace('prod_1', 'prod_2'), header, SECRET, { now: T }))).toBe('no_matching_signature');
    expect(reason(() => verifyWebhook(BODY, header, 'whsec_other', { now: T }))).toBe('no_matching_signature');
    const moved = header.replace(`t=${T}`, `t=${T + 1}`);
    expect(reason(() => verifyWebhook(BODY, moved, SECRET, { now: T }))).toBe('no_matching_signature');
    // Re-serialized JSON is not the raw body.
    expect(reason(() => verifyWebhook(JSON.stringify(JSON.parse(BODY), null, 2), header, SECRET, { now: T }))).toBe('no_matching_signature');
  });

  it('accepts any matching v1 (rotation overlap) and accepts a list of secrets', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], T, BODY);
    expect(parseSignatureHeader(header).signatures).toHaveLength(2);
    expect(reason(() => verifyWebhook(BODY, header, 'whsec_new', { now: T }))).toBeUndefined();
    expect(reason(() => verifyWebhook(BODY, header, 'whsec_old', { now: T }))).toBeUndefined();
    expect(reason(() => verifyWebhook(BODY, header, ['whsec_x', 'whsec_old'], { now: T }))).toBeUndefined();
    expect(reason(() => verifyWebhook(BODY, header, 'whsec_third', { now: T }))).toBe('no_matching_signature');
  });

  it('rejects a missing or malformed header', () => {
    expect(reason(() => verifyWebhook(BODY, undefined, SECRET))).toBe('missing_header');
    expect(reason(() => verifyWebhook(BODY, '', SECRET))).toBe('missing_header');
    expect(reason(() => verifyWebhook(BODY, 'v1=abc', SECRET))).toBe('malformed_header');
    expect(reason(() => verifyWebhook(BODY, `t=${T}`, SECRET))).toBe('malformed_header');
    expect(reason(() => verifyWebhook(BODY, `t=soon,v1=${'a'.repeat(64)}`, SECRET))).toBe('malformed_header');
    expect(reason(() => verifyWebhook(BODY, `t=${T},v0=${computeSignature(SECRET, T, BODY)}`, SECRET, { now: T }))).toBe('malformed_header');
  });
});
