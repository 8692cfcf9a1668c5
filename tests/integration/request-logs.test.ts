import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { apiRequestLogs } from '@/lib/db/schema';
import { findRequestLog, listRequestLogs, pruneRequestLogs } from '@/lib/request-logs/request-logs';
import { redactBody } from '@/lib/request-logs/redact';
import { keyWithScopes, newMerchant } from '../helpers/merchants';
import { call } from '../helpers/api';
import { ik, waitFor } from '../helpers/payments';

const logged = (merchantId: string, requestId: string) => waitFor(() => findRequestLog(getDb(), merchantId, requestId));

describe('Developers → Logs', () => {
  it('records every API request with its key, idempotency key and replay, found by X-Request-Id', async () => {
    const { api, merchant, keyId } = await newMerchant();
    const created = await api.post('/api/Customer', { email: 'log@example.com' }, { 'Idempotency-Key': 'cust-1' });
    const replay = await api.post('/api/Customer', { email: 'log@example.com' }, { 'Idempotency-Key': 'cust-1' });
    expect(replay.headers.get('Idempotent-Replayed')).toBe('true');
    const listed = await api.get('/api/Customer');

    const first = await logged(merchant.id, created.headers.get('X-Request-Id')!);
    expect(first).toMatchObject({
      method: 'POST',
      path: '/api/Customer',
      status: created.status,
      apiKeyId: keyId,
      apiKeyName: 'test',
      idempotencyKey: 'cust-1',
      replayed: false,
      requestBody: null,
      responseBody: null,
    });
    expect((await logged(merchant.id, replay.headers.get('X-Request-Id')!)).replayed).toBe(true);
    const read = await logged(merchant.id, listed.headers.get('X-Request-Id')!);
    expect(read).toMatchObject({ method: 'GET', status: 200, idempotencyKey: null });
    expect(read.durationMs).toBeGreaterThanOrEqual(0);

    // Another seller never sees them.
    const other = await newMerchant();
    expect(await findRequestLog(getDb(), other.merchant.id, listed.headers.get('X-Request-Id')!)).toBeUndefined();
    expect((await listRequestLogs(getDb(), other.merchant.id, {})).data).toEqual([]);
  });

  it('keeps bodies of failed requests only, without card data, secrets or passwords', async () => {
    const { api, merchant, key } = await newMerchant();
    const failed = await api.post(
      '/api/Checkout',
      {
        priceId: 'price_nope',
        customerEmail: 'x@example.com',
        cardNumber: '4242 4242 4242 4242',
        cvc: '123',
        password: 'hunter2',
        tokenRef: 'tok_visa',
        note: `my key is ${key}`,
      },
      ik(),
    );
    expect(failed.status).toBeGreaterThanOrEqual(400);
    const entry = await logged(merchant.id, failed.headers.get('X-Request-Id')!);
    expect(entry.status).toBe(failed.status);
    expect(entry.requestBody).toContain('x@example.com');
    for (const secret of ['4242', 'hunter2', '"123"', 'tok_visa', key]) expect(entry.requestBody).not.toContain(secret);
    expect(JSON.parse(entry.responseBody!)).toMatchObject({ requestId: failed.headers.get('X-Request-Id') });

    const ok = await api.post('/api/Product', { name: 'Fine' });
    expect((await logged(merchant.id, ok.headers.get('X-Request-Id')!)).requestBody).toBeNull();

    // No key or an unknown key: the request belongs to no seller and is not logged.
    const anonymous = await call('GET', '/api/Customer');
    expect(anonymous.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const [row] = await getDb()
      .select()
      .from(apiRequestLogs)
      .where((await import('drizzle-orm')).eq(apiRequestLogs.requestId, anonymous.headers.get('X-Request-Id')!));
    expect(row).toBeUndefined();
  });

  it('caps bodies and redacts non-JSON text', () => {
    const long = redactBody(JSON.stringify({ description: 'x'.repeat(10_000) }))!;
    expect(long.length).toBeLessThan(4200);
    expect(long.endsWith('[truncated]')).toBe(true);
    expect(redactBody('number=4000000000000002&exp=12/40')).toBe('number=[redacted]&exp=12/40');
    expect(JSON.parse(redactBody('{"code":"NOT_FOUND","recoveryCode":"abcd-efgh"}')!)).toEqual({ code: 'NOT_FOUND', recoveryCode: '[redacted]' });
    expect(redactBody('{"card":{"number":"4242424242424242","expMonth":12},"authorization":"Bearer sk_abc"}')).toBe(
      '{"card":{"number":"[redacted]","expMonth":"[redacted]"},"authorization":"[redacted]"}',
    );
  });

  it('filters by status class, path, key and request id, newest first', async () => {
    const { api, merchant } = await newMerchant();
    const reader = await keyWithScopes(merchant.id, ['customers:read']);
    const ok = await api.post('/api/Product', { name: 'A' });
    const notFound = await api.get('/api/Product/prod_missing');
    const forbidden = await reader.api.post('/api/Product', { name: 'B' });
    expect(forbidden.status).toBe(403);
    await logged(merchant.id, forbidden.headers.get('X-Request-Id')!);
    await logged(merchant.id, notFound.headers.get('X-Request-Id')!);
    await logged(merchant.id, ok.headers.get('X-Request-Id')!);
    const ids = async (filters: Parameters<typeof listRequestLogs>[2]) => (await listRequestLogs(getDb(), merchant.id, filters)).data.map((r) => r.requestId);
    const id = (answer: { headers: Headers }) => answer.headers.get('X-Request-Id')!;
    expect(await ids({})).toEqual([id(forbidden), id(notFound), id(ok)]);
    expect(await ids({ statusClass: '4xx' })).toEqual([id(forbidden), id(notFound)]);
    expect(await ids({ statusClass: '2xx' })).toEqual([id(ok)]);
    expect(await ids({ path: '/api/Product/' })).toEqual([id(notFound)]);
    expect(await ids({ apiKeyId: reader.keyId })).toEqual([id(forbidden)]);
    expect(await ids({ requestId: id(notFound) })).toEqual([id(notFound)]);
  });

  it('the retention job deletes requests older than 30 days and keeps the rest', async () => {
    const { api, merchant } = await newMerchant();
    const recent = await api.get('/api/Product');
    await logged(merchant.id, recent.headers.get('X-Request-Id')!);
    const old = new Date(Date.now() - 31 * 86_400_000);
    await getDb()
      .insert(apiRequestLogs)
      .values({
        merchantId: merchant.id,
        requestId: `req_old_${merchant.id}`,
        method: 'GET',
        path: '/api/Product',
        status: 200,
        durationMs: 3,
        createdAt: old,
      });
    expect(await pruneRequestLogs(getDb())).toBeGreaterThanOrEqual(1);
    const left = await getDb()
      .select({ requestId: apiRequestLogs.requestId })
      .from(apiRequestLogs)
      .where((await import('drizzle-orm')).eq(apiRequestLogs.merchantId, merchant.id));
    expect(left.map((r) => r.requestId)).toEqual([recent.headers.get('X-Request-Id')]);
  });
});
