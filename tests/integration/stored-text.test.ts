import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { auditLog } from '@/lib/db/schema';
import { findRequestLog } from '@/lib/request-logs/request-logs';
import { newMerchant } from '../helpers/merchants';
import { call } from '../helpers/api';
import { waitFor } from '../helpers/payments';
import { registerSeller } from '../helpers/sessions';

/**
 * Text from outside that the service stores without validating it as input (a body that is not
 * JSON, a proxy's address header) is made storable (lib/stored-text.ts): a NUL byte or an
 * over-long value never fails the write, its own or its batch's.
 */
describe('text from outside, stored', () => {
  it('logs a request whose raw body holds a NUL byte, and another seller’s request written in the same batch', async () => {
    const sender = await newMerchant();
    const other = await newMerchant();
    const [withNul, plain] = await Promise.all([
      call('POST', '/api/Product', { key: sender.key, rawBody: '{"name":"a\u0000b"}', headers: { 'content-type': 'application/json' } }),
      call('POST', '/api/Product', { key: other.key, body: {} }),
    ]);
    expect(withNul.status).toBe(400);
    expect(plain.status).toBe(400);

    const logged = await waitFor(() => findRequestLog(getDb(), sender.merchant.id, withNul.headers.get('X-Request-Id')!));
    expect(logged.requestBody).toBe('{"name":"a\uFFFDb"}');
    expect((await waitFor(() => findRequestLog(getDb(), other.merchant.id, plain.headers.get('X-Request-Id')!))).status).toBe(400);
  });

  it('keeps at most 64 characters of a proxy-forwarded client address in the audit log', async () => {
    const { email } = await registerSeller();
    const address = crypto.randomBytes(4_500).toString('base64url');
    const answer = await call('POST', '/api/MerchantAuth/Login', { body: { email, password: 'not the password' }, headers: { 'x-forwarded-for': address } });
    expect(answer.status, answer.text).toBe(401);
    const [entry] = await getDb()
      .select()
      .from(auditLog)
      .where(eq(auditLog.requestId, answer.headers.get('X-Request-Id')!));
    expect(entry!.action).toBe('seller.sign_in_failed');
    expect(entry!.ip).toBe(address.slice(0, 64));
  });
});
