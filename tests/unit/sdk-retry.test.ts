import { describe, expect, it } from 'vitest';
import { Paybase, isPaybaseError } from '@/packages/sdk/src/index';

/** A scripted transport: each call answers the next scripted outcome and records the request. */
function transport(outcomes: (Response | Error)[]) {
  const requests: Request[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    requests.push(new Request(input, init));
    const outcome = outcomes.shift();
    if (!outcome) throw new Error('no more scripted answers');
    if (outcome instanceof Error) throw outcome;
    return outcome;
  };
  return { fetch, requests };
}

const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ type: 'about:blank', title: code, status, detail: code, code, requestId: 'req_1' }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const sdk = (fetch: typeof globalThis.fetch, maxRetries = 3) =>
  new Paybase({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test', fetch, retry: { baseDelayMs: 1, maxRetries } });
const checkoutBody = { priceId: 'price_1', tokenRef: 'tok_visa' };

describe('@paybase/sdk retries', () => {
  it('waits out 409 IDEMPOTENCY_KEY_IN_USE and retries with the same key', async () => {
    const { fetch, requests } = transport([problem(409, 'IDEMPOTENCY_KEY_IN_USE', { 'retry-after': '0' }), json(201, { id: 'cs_1' })]);
    const checkout = await sdk(fetch).post('/api/Checkout', { body: checkoutBody });
    expect(checkout.id).toBe('cs_1');
    expect(requests).toHaveLength(2);
    expect(requests[1]!.headers.get('idempotency-key')).toBe(requests[0]!.headers.get('idempotency-key'));
    expect(await requests[1]!.json()).toEqual(checkoutBody);
  });

  it('retries network errors and 5xx with backoff, then gives up with the last answer', async () => {
    const { fetch, requests } = transport([new TypeError('fetch failed'), problem(503, 'INTERNAL'), json(200, { id: 'price_1' })]);
    expect((await sdk(fetch).get('/api/Price/{priceId}', { params: { path: { priceId: 'price_1' } } })).id).toBe('price_1');
    expect(requests).toHaveLength(3);

    const failing = transport([problem(500, 'INTERNAL'), problem(500, 'INTERNAL'), problem(500, 'INTERNAL')]);
    const error = await sdk(failing.fetch, 2)
      .get('/api/Price/{priceId}', { params: { path: { priceId: 'price_1' } } })
      .catch((e: unknown) => e);
    expect(isPaybaseError(error, 'INTERNAL')).toBe(true);
    expect(failing.requests).toHaveLength(3);
  });

  it('does not retry a replayed 5xx (the key holds that answer), another 4xx, or a POST without a key', async () => {
    const replayed = transport([problem(500, 'INTERNAL', { 'idempotent-replayed': 'true' })]);
    await expect(sdk(replayed.fetch).post('/api/Checkout', { body: checkoutBody })).rejects.toMatchObject({ code: 'INTERNAL', status: 500 });
    expect(replayed.requests).toHaveLength(1);

    const conflict = transport([problem(409, 'VERSION_CONFLICT')]);
    await expect(
      sdk(conflict.fetch).post('/api/Subscription/{subscriptionId}/Command', { params: { path: { subscriptionId: 'sub_1' } }, body: { type: 'Pause' } }),
    ).rejects.toMatchObject({ code: 'VERSION_CONFLICT' });
    expect(conflict.requests).toHaveLength(1);

    // Registering a webhook endpoint takes no Idempotency-Key: sending it twice could register two.
    const lost = transport([new TypeError('fetch failed')]);
    await expect(sdk(lost.fetch).post('/api/WebhookEndpoint', { body: { url: 'https://example.com/hook', events: ['*'] } })).rejects.toThrow('fetch failed');
    expect(lost.requests).toHaveLength(1);
    expect(lost.requests[0]!.headers.has('idempotency-key')).toBe(false);
  });

  it('sends any request again after a 429 Retry-After (it was not executed), but not after a longer wait than maxDelayMs', async () => {
    const endpoint = { url: 'https://example.com/hook', events: ['*' as const] };
    const limited = transport([problem(429, 'RATE_LIMITED', { 'retry-after': '0' }), json(201, { id: 'we_1' })]);
    expect((await sdk(limited.fetch).post('/api/WebhookEndpoint', { body: endpoint })).id).toBe('we_1');
    expect(limited.requests).toHaveLength(2);
    expect(await limited.requests[1]!.json()).toEqual(endpoint);

    const longWait = transport([problem(429, 'RATE_LIMITED', { 'retry-after': '60' })]);
    await expect(sdk(longWait.fetch).get('/api/Price/{priceId}', { params: { path: { priceId: 'price_1' } } })).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      status: 429,
    });
    expect(longWait.requests).toHaveLength(1);
  });

  it('keeps a key the caller chose', async () => {
    const { fetch, requests } = transport([json(201, { id: 'cs_1' })]);
    await sdk(fetch).post('/api/Checkout', { body: checkoutBody, params: { header: { 'Idempotency-Key': 'order-42' } } });
    expect(requests[0]!.headers.get('idempotency-key')).toBe('order-42');
  });

  it('abandons an attempt after timeoutMs, retries a repeatable request, and throws the TimeoutError for one that is not', async () => {
    let calls = 0;
    const hanging: typeof globalThis.fetch = async (_input, init) => {
      calls += 1;
      if (calls === 2) return json(200, { id: 'price_1' });
      return new Promise((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)));
    };
    const paybase = new Paybase({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test', fetch: hanging, timeoutMs: 50, retry: { baseDelayMs: 1 } });
    expect((await paybase.get('/api/Price/{priceId}', { params: { path: { priceId: 'price_1' } } })).id).toBe('price_1');
    expect(calls).toBe(2);

    // A POST without an Idempotency-Key is never sent twice: its TimeoutError is the answer.
    calls = 10;
    const notRepeatable = paybase.raw.POST('/api/MerchantAuth/Logout', { body: {} });
    await expect(notRepeatable).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(calls).toBe(11);
  });
});
