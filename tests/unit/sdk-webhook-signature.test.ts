import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signatureHeader, standardSignatureHeader } from '@/lib/webhooks/signature';
import { standardWebhookSignature, verifyWebhook, webhookSignatureHeader } from '@/packages/sdk/src/webhooks';

/** The SDK signs (for `paybase listen`) exactly as the service signs real deliveries. */
describe('the SDK signature matches the service signature', () => {
  it('gives the same X-Service-Signature for any secrets, timestamp and body, and verifies it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        fc.string(),
        (secrets, timestamp, body) => {
          const header = webhookSignatureHeader(secrets, timestamp, body);
          expect(header).toBe(signatureHeader(secrets, timestamp, body));
          for (const secret of secrets)
            expect(() =>
              verifyWebhook(JSON.stringify(body), webhookSignatureHeader(secret, timestamp, JSON.stringify(body)), secret, { now: timestamp }),
            ).not.toThrow();
        },
      ),
    );
  });

  it('gives the same Standard Webhooks webhook-signature for any secrets, message id, timestamp and body', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 24, maxLength: 24 }), { minLength: 1, maxLength: 3 }),
        fc.string({ minLength: 1 }),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        fc.string(),
        (keys, messageId, timestamp, body) => {
          const secrets = keys.map((key) => `whsec_${Buffer.from(key).toString('base64')}`);
          expect(standardWebhookSignature(secrets, messageId, timestamp, body)).toBe(standardSignatureHeader(secrets, messageId, timestamp, body));
        },
      ),
    );
  });
});
