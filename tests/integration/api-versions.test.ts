import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { apiKeys } from '@/lib/db/schema';
import { API_VERSIONS, CURRENT_API_VERSION, FIRST_API_VERSION } from '@/lib/http/api-versions';
import { Paybase } from '@/packages/sdk/src/index';
import { API_VERSION } from '@/packages/sdk/src/api-version';
import { baseUrl, call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { registerSeller } from '../helpers/sessions';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';

/** Dated API versions (docs/changelog.md): pinned per key, the header wins, on every answer and delivery. */
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const known = API_VERSIONS.map((version) => version.name);

describe('API versions', () => {
  it('pins a new key to the current version, shown by the key API, and answers its requests in it', async () => {
    const { tokens } = await registerSeller();
    const created = await call('POST', '/api/MerchantApiKey', { key: tokens.accessToken, body: { name: 'Backend', scopes: ['products:write'] } });
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe(CURRENT_API_VERSION);
    expect(created.headers.get('Paybase-Version')).toBe(CURRENT_API_VERSION);
    const listed = await call('GET', '/api/MerchantApiKey', { key: tokens.accessToken });
    expect(listed.body.data[0]).toMatchObject({ id: created.body.id, apiVersion: CURRENT_API_VERSION });
    const [stored] = await getDb().select({ apiVersion: apiKeys.apiVersion }).from(apiKeys).where(eq(apiKeys.id, created.body.id));
    expect(stored!.apiVersion).toBe(CURRENT_API_VERSION);

    const product = await call('POST', '/api/Product', { key: created.body.secret, body: { name: 'Versioned' } });
    expect(product.status).toBe(201);
    expect(product.headers.get('Paybase-Version')).toBe(CURRENT_API_VERSION);
  });

  it("answers without the header in the key's pinned version, and in the header's version when one is sent", async () => {
    const { key, keyId, api } = await newMerchant();
    // A key pinned to a version no longer served is answered in the oldest one served.
    await getDb().update(apiKeys).set({ apiVersion: '2020-01-01' }).where(eq(apiKeys.id, keyId));
    expect((await api.get('/api/Product')).headers.get('Paybase-Version')).toBe(FIRST_API_VERSION);
    const asked = await call('GET', '/api/Product', { key, headers: { 'Paybase-Version': CURRENT_API_VERSION } });
    expect(asked.status).toBe(200);
    expect(asked.headers.get('Paybase-Version')).toBe(CURRENT_API_VERSION);
  });

  it('refuses an unknown version with 400 listing the known ones, before doing anything', async () => {
    const { key, api } = await newMerchant();
    const refused = await call('POST', '/api/Product', { key, body: { name: 'Never made' }, headers: { 'Paybase-Version': '1999-01-01' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VALIDATION_FAILED', knownVersions: known, errors: [{ path: 'Paybase-Version' }] });
    expect(refused.body.detail).toContain(known[0]);
    expect(refused.headers.get('Paybase-Version')).toBe(CURRENT_API_VERSION);
    expect((await api.get('/api/Product')).body.totalCount).toBe(0);
    // Also on answers that need no key: an unauthenticated request and the sign-in API.
    const anonymous = await call('GET', '/api/Product', { headers: { 'Paybase-Version': 'latest' } });
    expect(anonymous.status).toBe(400);
    expect((await call('GET', '/api/Product')).headers.get('Paybase-Version')).toBe(CURRENT_API_VERSION);
    // And on the front door's refusals (an unknown path), made before any route runs.
    const unknownPath = await call('GET', '/api/NoSuchResource', { key });
    expect(unknownPath.status).toBe(404);
    expect(unknownPath.headers.get('Paybase-Version')).toBe(CURRENT_API_VERSION);
  });

  it('carries the version on every webhook delivery, as a header and as apiVersion in the body', async () => {
    const { api } = await newMerchant();
    expect((await api.post('/api/WebhookEndpoint', { url: `${receiver.url}/versions`, events: ['product.created'] })).status).toBe(201);
    const { body: product } = await api.post('/api/Product', { name: 'Delivered' });
    await receiver.waitFor(() => receiver.received.some((request) => request.body.includes(product.id)));
    const delivery = receiver.received.find((request) => request.body.includes(product.id))!;
    expect(delivery.headers['paybase-version']).toBe(CURRENT_API_VERSION);
    expect(JSON.parse(delivery.body)).toMatchObject({ apiVersion: CURRENT_API_VERSION, type: 'product.created', data: { object: { id: product.id } } });
  });

  it('the SDK sends the version it was generated for unless told another', async () => {
    const { key } = await newMerchant();
    const sent: (string | null)[] = [];
    const recording: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      sent.push(request.headers.get('Paybase-Version'));
      return fetch(request);
    };
    expect(API_VERSION).toBe(CURRENT_API_VERSION);
    await new Paybase({ baseUrl: baseUrl(), apiKey: key, fetch: recording }).get('/api/Product');
    const other = new Paybase({ baseUrl: baseUrl(), apiKey: key, fetch: recording, apiVersion: '1999-01-01' });
    const refused = await other.get('/api/Product').catch((error: unknown) => error);
    expect(sent).toEqual([API_VERSION, '1999-01-01']);
    expect(refused).toMatchObject({ code: 'VALIDATION_FAILED', extra: { knownVersions: known } });
  });
});
