import { afterAll, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { payments } from '@/lib/db/schema';
import { Paybase, isPaybaseError, verifyPaybaseWebhook, type PaybaseError } from '@/packages/sdk/src/index';
import { baseUrl } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { startReceiver } from '../helpers/webhook-receiver';

/** The SDK as a seller's backend uses it, against the real server. */
const receivers: { close(): Promise<void> }[] = [];
afterAll(async () => Promise.all(receivers.map((receiver) => receiver.close())));

async function sellerWithSdk(options: { fetch?: typeof fetch } = {}) {
  const { merchant, key } = await newMerchant();
  return { merchant, paybase: new Paybase({ baseUrl: baseUrl(), apiKey: key, fetch: options.fetch, retry: { baseDelayMs: 20 } }) };
}

async function paymentCount(merchantId: string) {
  const [row] = await getDb()
    .select({ value: count() })
    .from(payments)
    .where(and(eq(payments.merchantId, merchantId)));
  return row!.value;
}

describe('@paybase/sdk against the real server', () => {
  it('sells from the catalog through checkout, and verifies the payment.succeeded webhook with the helper', async () => {
    const { paybase } = await sellerWithSdk();
    const receiver = await startReceiver();
    receivers.push(receiver);
    const endpoint = await paybase.post('/api/WebhookEndpoint', { body: { url: `${receiver.url}/hooks`, events: ['payment.succeeded'] } });
    expect(endpoint.signingSecret).toMatch(/^whsec_/);

    const product = await paybase.post('/api/Product', { body: { name: 'Notebook' } });
    const price = await paybase.post('/api/Price', { body: { productId: product.id, type: 'OneTime', amount: 1200, currency: 'EUR' } });
    const checkout = await paybase.post('/api/Checkout', { body: { priceId: price.id, quantity: 2, customerEmail: 'sdk@example.com', tokenRef: 'tok_visa' } });
    expect(checkout).toMatchObject({ paid: true, status: 'paid', total: 2400, currency: 'EUR' });
    expect((await paybase.get('/api/Checkout/{checkoutId}', { params: { path: { checkoutId: checkout.id } } })).paid).toBe(true);

    const [delivery] = await receiver.waitFor((requests) => requests.length >= 1);
    const event = verifyPaybaseWebhook(delivery!.body, delivery!.headers['x-service-signature'] as string, endpoint.signingSecret);
    expect(event.type).toBe('payment.succeeded');
    if (event.type !== 'payment.succeeded') return;
    expect(event.data.object).toMatchObject({ id: checkout.payment!.id, checkoutId: checkout.id, amount: 2400, status: 'succeeded' });
    expect(() => verifyPaybaseWebhook(delivery!.body, delivery!.headers['x-service-signature'] as string, 'whsec_wrong')).toThrow(/No v1 signature/);
  });

  it('throws typed errors by code: a decline is PAYMENT_DECLINED with its payment, a stranger id NOT_FOUND', async () => {
    const { paybase } = await sellerWithSdk();
    const product = await paybase.post('/api/Product', { body: { name: 'Lamp' } });
    const price = await paybase.post('/api/Price', { body: { productId: product.id, type: 'OneTime', amount: 900, currency: 'USD' } });
    const declined = await paybase.post('/api/Checkout', { body: { priceId: price.id, customerEmail: 'no@example.com', tokenRef: 'tok_declined' } }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isPaybaseError(declined, 'PAYMENT_DECLINED')).toBe(true);
    const error = declined as PaybaseError<'PAYMENT_DECLINED'>;
    expect(error.status).toBe(402);
    expect(error.problem).toMatchObject({ code: 'PAYMENT_DECLINED', checkout: { paid: false, payment: { status: 'failed' } } });
    const missing = await paybase.get('/api/Price/{priceId}', { params: { path: { priceId: 'price_nope' } } }).catch((e: unknown) => e);
    expect(isPaybaseError(missing, 'NOT_FOUND')).toBe(true);
    const invalid = await paybase
      .post('/api/Price', { body: { productId: product.id, type: 'OneTime', amount: -1, currency: 'USD' } })
      .catch((e: unknown) => e);
    expect(isPaybaseError(invalid, 'VALIDATION_FAILED') && invalid.problem.errors?.[0]?.path).toBe('amount');
  });

  it('walks every page of a list with the async iterator, by cursor after the first page', async () => {
    const listed: URLSearchParams[] = [];
    const recordingFetch: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'GET') listed.push(new URL(request.url).searchParams);
      return fetch(request);
    };
    const { paybase } = await sellerWithSdk({ fetch: recordingFetch });
    const names = ['A', 'B', 'C', 'D', 'E'];
    const ids: string[] = [];
    for (const name of names) ids.push((await paybase.post('/api/Product', { body: { name } })).id);
    const seen: string[] = [];
    for await (const product of paybase.list('/api/Product', { params: { query: { pageSize: 2, orderDirection: 'asc' } } })) seen.push(product.name);
    expect(seen).toEqual(names);
    expect(listed.map((query) => query.get('startingAfter'))).toEqual([null, ids[1], ids[3]]);

    // Started with endingBefore, it keeps walking backward: each page in the list's order.
    const before: string[] = [];
    for await (const product of paybase.list('/api/Product', { params: { query: { pageSize: 2, orderDirection: 'asc', endingBefore: ids[4] } } }))
      before.push(product.name);
    expect(before).toEqual(['C', 'D', 'A', 'B']);

    // A custom value's id is its key.
    const customer = await paybase.post('/api/Customer', { body: { email: 'values@example.com' } });
    const customValues = { params: { path: { customerId: customer.id } } };
    for (const key of ['a', 'b', 'c']) await paybase.post('/api/Customer/{customerId}/CustomValue', { ...customValues, body: { key, value: key } });
    const keys: string[] = [];
    for await (const value of paybase.list('/api/Customer/{customerId}/CustomValue', {
      params: { ...customValues.params, query: { pageSize: 1, orderBy: 'key', orderDirection: 'asc' } },
    }))
      keys.push(value.key);
    expect(keys).toEqual(['a', 'b', 'c']);
    expect(listed.at(-1)!.get('startingAfter')).toBe('b');

    // Ordered by a value some items lack (a customer's name), it pages by number: no cursor the API would refuse.
    for (const [email, name] of [
      ['n1@example.com', 'Zoe'],
      ['n2@example.com', undefined],
      ['n3@example.com', 'Adam'],
    ] as const)
      await paybase.post('/api/Customer', { body: { email, ...(name ? { name } : {}) } });
    const byName: (string | null | undefined)[] = [];
    for await (const customer of paybase.list('/api/Customer', { params: { query: { pageSize: 1, orderBy: 'name', orderDirection: 'asc' } } }))
      byName.push(customer.email);
    expect(byName).toHaveLength(4);
    expect(new Set(byName)).toEqual(new Set(['values@example.com', 'n1@example.com', 'n2@example.com', 'n3@example.com']));
    expect(listed.at(-1)!.get('page')).toBe('4');
    expect(listed.at(-1)!.get('startingAfter')).toBeNull();
  });

  it('sends an Idempotency-Key on IK endpoints and reuses it when it retries a lost answer: one payment', async () => {
    const keys: (string | null)[] = [];
    let lose = true;
    // The first checkout reaches the server, then its answer is lost, as on a dropped connection.
    const flakyFetch: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST' && new URL(request.url).pathname === '/api/Checkout') {
        keys.push(request.headers.get('idempotency-key'));
        const response = await fetch(request);
        if (lose) {
          lose = false;
          await response.body?.cancel();
          throw new TypeError('fetch failed');
        }
        return response;
      }
      return fetch(request);
    };
    const { paybase, merchant } = await sellerWithSdk({ fetch: flakyFetch });
    const product = await paybase.post('/api/Product', { body: { name: 'Mug' } });
    const price = await paybase.post('/api/Price', { body: { productId: product.id, type: 'OneTime', amount: 700, currency: 'USD' } });
    const answer = await paybase.raw.POST('/api/Checkout', { body: { priceId: price.id, customerEmail: 'retry@example.com', tokenRef: 'tok_visa' } });
    expect(answer.response.status).toBe(201);
    expect(answer.response.headers.get('idempotent-replayed')).toBe('true');
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(await paymentCount(merchant.id)).toBe(1);
  });
});
