import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { customers, usageRecords } from '@/lib/db/schema';
import { findRequestLog } from '@/lib/request-logs/request-logs';
import { MAX_JSON_DEPTH } from '@/lib/http/input-checks';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { waitFor } from '../helpers/payments';
import { freshIp } from '../helpers/sessions';

const customerCount = async (merchantId: string) =>
  (await getDb().select({ n: sql<number>`count(*)::int` }).from(customers).where(eq(customers.merchantId, merchantId)))[0]!.n;

const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('bodies nested too deeply', () => {
  it('answers 10,000 levels with 400 VALIDATION_FAILED on a sign-in endpoint that takes no credentials', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        call('POST', '/api/MerchantAuth/Login', { rawBody: nestedArrays(10_000), headers: { 'content-type': 'application/json', ...freshIp() } }),
      ),
    );
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'body', message: `Nested deeper than ${MAX_JSON_DEPTH} levels.` }] });
    }
    expect((await call('GET', '/api/health')).status).toBe(200);
  });

  it(`refuses a value nested past ${MAX_JSON_DEPTH} levels inside a valid body, and takes one at the limit to its schema`, async () => {
    const { api, key, merchant } = await newMerchant();
    const deepMetadata = `{"name":"Deep","metadata":{"note":${nestedArrays(MAX_JSON_DEPTH - 1)}}}`;
    const refused = await call('POST', '/api/Customer', { key, rawBody: deepMetadata, headers: { 'content-type': 'application/json' } });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.errors).toEqual([{ path: 'body', message: `Nested deeper than ${MAX_JSON_DEPTH} levels.` }]);
    // Brackets inside strings are text, not nesting.
    const bracketsInText = await api.post('/api/Customer', { name: '['.repeat(100), metadata: { note: '{'.repeat(100) } });
    expect(bracketsInText.status, bracketsInText.text).toBe(201);
    // At the limit the schema decides: metadata values are strings.
    const atLimit = `{"name":"Deep","metadata":{"note":${nestedArrays(MAX_JSON_DEPTH - 2)}}}`;
    const judged = await call('POST', '/api/Customer', { key, rawBody: atLimit, headers: { 'content-type': 'application/json' } });
    expect(judged.status).toBe(400);
    expect(judged.body.errors[0].path).toBe('metadata.note');
    expect(await customerCount(merchant.id)).toBe(1);
  });
});

describe('lone UTF-16 surrogates', () => {
  it('answers 400 naming the field for a lone surrogate bound for jsonb or text, in a value or a key, and stores nothing', async () => {
    const { api, merchant } = await newMerchant();
    const metadata = await api.post('/api/Customer', { name: 'ok', metadata: { note: 'a\ud800b' } });
    expect(metadata.status, metadata.text).toBe(400);
    expect(metadata.body.errors).toEqual([{ path: 'metadata.note', message: expect.stringContaining('lone UTF-16 surrogate') }]);
    const name = await api.post('/api/Customer', { name: '\udfff' });
    expect(name.status, name.text).toBe(400);
    expect(name.body.errors[0].path).toBe('name');
    const key = await api.post('/api/Customer', { name: 'ok', metadata: { 'x\ud83d': 'y' } });
    expect(key.status, key.text).toBe(400);
    expect(key.body.errors[0].path).toBe('metadata.x\\ud83d');
    expect(await customerCount(merchant.id)).toBe(0);
    // A whole pair is one character and is stored as sent.
    const emoji = await api.post('/api/Customer', { name: 'Ada \ud83d\ude00', metadata: { mood: '\ud83d\ude00' } });
    expect(emoji.status, emoji.text).toBe(201);
    expect(emoji.body).toMatchObject({ name: 'Ada 😀', metadata: { mood: '😀' } });
  });

  it('refuses one deep inside free-form usage properties (jsonb)', async () => {
    const { api, merchant } = await newMerchant();
    const customer = await api.post('/api/Customer', { email: 'usage-surrogate@example.com' });
    const override = await api.post(`/api/Customer/${customer.body.id}/EntitlementOverride`, { feature: 'messages', allowed: 'Unlimited' });
    expect(override.status, override.text).toBe(201);
    const usage = { customerId: customer.body.id, feature: 'messages', properties: { model: { tags: ['ok', '\ud800'] } } };
    const answer = await api.post('/api/Usage', usage);
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.errors[0].path).toBe('properties.model.tags.1');
    const rows = await getDb()
      .select()
      .from(usageRecords)
      .where(and(eq(usageRecords.merchantId, merchant.id)));
    expect(rows).toHaveLength(0);
  });
});

describe('the request log', () => {
  it('keeps a refused body holding a raw NUL byte, and the rows written with it', async () => {
    const { key, merchant } = await newMerchant();
    const headers = { 'content-type': 'application/json' };
    const [withNul, other] = await Promise.all([
      call('POST', '/api/Customer', { key, rawBody: '{"name":"a\u0000', headers }),
      call('POST', '/api/Customer', { key, rawBody: '{"name":', headers }),
    ]);
    expect([withNul.status, other.status]).toEqual([400, 400]);
    for (const answer of [withNul, other]) {
      const logged = await waitFor(() => findRequestLog(getDb(), merchant.id, answer.headers.get('X-Request-Id')!));
      expect(logged.status).toBe(400);
    }
    const logged = await findRequestLog(getDb(), merchant.id, withNul.headers.get('X-Request-Id')!);
    expect(logged!.requestBody).toBe('{"name":"a\uFFFD');
  });
});
