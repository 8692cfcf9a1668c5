import http from 'node:http';
import { and, eq, sql } from 'drizzle-orm';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { customers, idempotencyKeys, payments } from '@/lib/db/schema';
import { baseUrl, call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { adHocLink, ik, oneTimePrice } from '../helpers/payments';

/** A request exactly as written (methods fetch refuses, paths it would normalize, no Content-Type). */
function raw(method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }>((resolve, reject) => {
    const request = http.request(`${baseUrl()}${path}`, { method, headers: options.headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text ? JSON.parse(text) : undefined }));
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

const customerCount = async (merchantId: string) =>
  (await getDb().select({ n: sql<number>`count(*)::int` }).from(customers).where(eq(customers.merchantId, merchantId)))[0]!.n;

describe('input the database cannot store', () => {
  it('answers 400 naming the field for a NUL character in a string, a metadata value or a path id', async () => {
    const { api, merchant } = await newMerchant();
    const name = await api.post('/api/Customer', { name: 'a\u0000b' });
    expect(name.status).toBe(400);
    expect(name.headers.get('content-type')).toContain('application/problem+json');
    expect(name.body.errors).toEqual([{ path: 'name', message: expect.stringContaining('NUL') }]);
    const metadata = await api.post('/api/Customer', { name: 'ok', metadata: { note: 'x\u0000' } });
    expect(metadata.status).toBe(400);
    expect(metadata.body.errors[0].path).toBe('metadata.note');
    const pathId = await api.get('/api/Customer/%00');
    expect(pathId.status).toBe(400);
    expect(pathId.body.errors[0].path).toBe('customerId');
    expect(await customerCount(merchant.id)).toBe(0);
  });

  it('stores nothing under an Idempotency-Key for a NUL input: the key is free for the corrected request', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 1000);
    const key = { 'Idempotency-Key': `nul-${merchant.id}` };
    const bad = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'nul@example.com', customerName: 'N\u0000', tokenRef: 'tok_visa' }, key);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('customerName');
    const stored = await getDb().select().from(idempotencyKeys).where(eq(idempotencyKeys.merchantId, merchant.id));
    expect(stored).toHaveLength(0);
    const good = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'nul@example.com', customerName: 'N', tokenRef: 'tok_visa' }, key);
    expect(good.status, good.text).toBe(201);
  });

  it('refuses test-clock times outside 2000–2100 with 400', async () => {
    const { api } = await newMerchant();
    for (const frozenTime of ['0023-01-01T00:00:00Z', '9999-06-01T00:00:00Z']) {
      const answer = await api.post('/api/TestClock', { frozenTime });
      expect(answer.status, frozenTime).toBe(400);
      expect(answer.body.errors[0].path).toBe('frozenTime');
    }
    const clock = await api.post('/api/TestClock', { frozenTime: '2099-06-01T00:00:00Z' });
    expect(clock.status).toBe(201);
    const beyond = await api.post(`/api/TestClock/${clock.body.id}/Advance`, { frozenTime: '2101-01-01T00:00:00Z' });
    expect(beyond.status).toBe(400);
  });
});

describe('body limit and media type', () => {
  const big = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) });
  // Refused bodies go through connections of their own: one that carried a body refused while it
  // was still being sent is not handed to the rest of the suite (it later met "other side closed").
  const refusedBodies = new Agent();
  afterAll(() => refusedBodies.close());
  const postBig = () =>
    undiciFetch(`${baseUrl()}/api/Customer`, { method: 'POST', body: big, headers: { 'content-type': 'application/json' }, dispatcher: refusedBodies });

  it('refuses a body over 1 MB with 413 before authenticating it', async () => {
    const anonymous = await postBig();
    expect(anonymous.status).toBe(413);
    expect(await anonymous.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', status: 413, limitBytes: 1024 * 1024 });
    expect(anonymous.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('reads and drops the rest of a refused body of bounded length: clients still sending it get the 413, not a reset', async () => {
    // Unread, the body left in the socket turned its close into a reset: about 1 in 20 of these saw EPIPE.
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        postBig().then(
          async (answer) => ({ status: answer.status, connection: answer.headers.get('connection') }),
          (error: Error & { cause?: { code?: string } }) => ({ status: error.cause?.code ?? String(error), connection: null }),
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(40).fill(413));
    expect(answers.every((answer) => answer.connection !== 'close')).toBe(true);
  });

  it('closes the connection after refusing a declared body too large to drop (over 8 MB), without reading it', async () => {
    const refused = await new Promise<{ status: number; connection?: string }>((resolve, reject) => {
      const request = http.request(`${baseUrl()}/api/Customer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(100 * 1024 * 1024) },
      });
      request.on('response', (response) => {
        resolve({ status: response.statusCode!, connection: response.headers.connection });
        response.resume();
        request.destroy();
      });
      request.on('error', reject);
      request.flushHeaders();
    });
    expect(refused).toEqual({ status: 413, connection: 'close' });
  });

  it('cuts off a chunked body (no Content-Length) once it passes the limit', async () => {
    const { key, merchant } = await newMerchant();
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ === 0) controller.enqueue(new TextEncoder().encode('{"name":"'));
        else if (sent < 40) controller.enqueue(chunk);
        else {
          controller.enqueue(new TextEncoder().encode('"}'));
          controller.close();
        }
      },
    });
    // The server answers 413 and closes without reading the rest; a client still writing may see
    // the answer or, when the close wins the race, a broken pipe. Either way nothing is created.
    const answer = await fetch(`${baseUrl()}/api/Customer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit).catch((error: Error & { cause?: { code?: string } }) => {
      if (['EPIPE', 'ECONNRESET', 'UND_ERR_SOCKET'].includes(error.cause?.code ?? '')) return 'cut off' as const;
      throw error;
    });
    if (answer !== 'cut off') expect(answer.status).toBe(413);
    expect(await customerCount(merchant.id)).toBe(0);
    expect((await call('POST', '/api/Customer', { key, body: { name: 'After' } })).status).toBe(201);
  });

  it('answers 415 for JSON sent as text/plain or without a Content-Type, and runs nothing', async () => {
    const { key, merchant } = await newMerchant();
    const body = JSON.stringify({ name: 'Plain' });
    const plain = await call('POST', '/api/Customer', { key, rawBody: body, headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(415);
    expect(plain.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const untyped = await raw('POST', '/api/Customer', { headers: { authorization: `Bearer ${key}` }, body });
    expect(untyped.status).toBe(415);
    expect(untyped.headers['content-type']).toContain('application/problem+json');
    expect(await customerCount(merchant.id)).toBe(0);
    const typed = await call('POST', '/api/Customer', { key, rawBody: body, headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(typed.status).toBe(201);
  });
});

describe('problem+json where Next.js would answer HTML or plain text', () => {
  it('answers an unknown /api/ path with 404 problem+json', async () => {
    const { key } = await newMerchant();
    for (const path of ['/api/NoSuchResource', '/api/Customer/cus_1/NoSuchAction']) {
      const answer = await call('GET', path, { key });
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(answer.body).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    }
  });

  it('answers TRACE with 405 and a malformed % escape with 400, as problem+json', async () => {
    const trace = await raw('TRACE', '/api/Customer');
    expect(trace.status).toBe(405);
    expect(trace.headers['content-type']).toContain('application/problem+json');
    expect(trace.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
    expect((await raw('TRACE', '/merchant')).status).toBe(405);
    const malformed = await raw('GET', '/api/Customer/%E0%A4%A');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
  });

  it('answers a method the endpoint lacks with 405 problem+json, Allow and X-Request-Id', async () => {
    const { api, key } = await newMerchant();
    const customer = await api.post('/api/Customer', { name: 'Kept' });
    const answer = await call('DELETE', `/api/Customer/${customer.body.id}`, { key });
    expect(answer.status).toBe(405);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.headers.get('allow')).toBe('GET, HEAD, PUT, OPTIONS');
    expect(answer.headers.get('x-request-id')).toBe(answer.body.requestId);
    expect((await api.get(`/api/Customer/${customer.body.id}`)).status).toBe(200);
  });
});

describe('console server actions from another site', () => {
  /** A server action post as a browser sends one: `Next-Action` (or a multipart form) and its page's Origin. */
  function postAction(headers: Record<string, string>, body = '[]') {
    return new Promise<{ status: number; contentType: string | undefined; text: string }>((resolve, reject) => {
      const request = http.request(`${baseUrl()}/merchant/login`, { method: 'POST', headers }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode!, contentType: response.headers['content-type'], text }));
      });
      request.on('error', reject);
      request.end(body);
    });
  }
  const action = { 'next-action': '7f'.repeat(21), 'content-type': 'text/plain;charset=UTF-8' };

  it('answers 403 problem+json (not 500) to an action whose Origin is another site, null or malformed', async () => {
    const multipart = { 'content-type': 'multipart/form-data; boundary=x', origin: 'https://evil.example' };
    for (const headers of [
      { ...action, origin: 'https://evil.example' },
      { ...action, origin: 'null' },
      { ...action, origin: 'not a url' },
      { ...action, origin: `http://127.0.0.1:1`, 'x-forwarded-host': 'evil.example' },
      multipart,
    ]) {
      const answer = await postAction(headers, headers === multipart ? '--x--\r\n' : '[]');
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(answer.contentType).toContain('application/problem+json');
      expect(JSON.parse(answer.text)).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    }
  });

  it('lets an action from this site through to Next.js', async () => {
    const answer = await postAction({ ...action, origin: baseUrl() });
    expect(answer.status).not.toBe(403);
    expect(answer.contentType ?? '').not.toContain('application/problem+json');
  });
});

describe('problem bodies', () => {
  it('keep `status` the HTTP status on 409 INVALID_STATE and name the resource state `state`', async () => {
    const { api } = await newMerchant();
    const price = await oneTimePrice(api, 3000);
    const paid = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'state@example.com', tokenRef: 'tok_visa' }, ik());
    expect(paid.status, paid.text).toBe(201);
    const paymentId = paid.body.payment.id as string;
    expect((await api.post(`/api/Payment/${paymentId}/Refund`, { amount: 3000 }, ik())).status).toBe(201);
    const again = await api.post(`/api/Payment/${paymentId}/Refund`, { amount: 100 }, ik());
    expect(again.body).toMatchObject({ status: 409, code: 'INVALID_STATE', state: 'refunded' });

    const link = await adHocLink(api);
    expect((await api.post(`/api/PaymentLink/${link.id}/Archive`)).status).toBe(200);
    const archived = await api.post(`/api/PaymentLink/${link.id}/Archive`);
    expect(archived.body).toMatchObject({ status: 409, code: 'INVALID_STATE', state: 'archived' });
  });
});

describe('API details', () => {
  it('replays a request whose body is the same JSON re-serialized (key order, whitespace)', async () => {
    const { key, merchant } = await newMerchant();
    const headers = { 'content-type': 'application/json', 'Idempotency-Key': 'canonical' };
    const first = await call('POST', '/api/Customer', { key, headers, rawBody: '{"name":"Ada","metadata":{"a":"1","b":"2"}}' });
    expect(first.status).toBe(201);
    const second = await call('POST', '/api/Customer', { key, headers, rawBody: '{ "metadata": { "b": "2", "a": "1" },\n  "name": "Ada" }' });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.id).toBe(first.body.id);
    const different = await call('POST', '/api/Customer', { key, headers, rawBody: '{"name":"Ada","metadata":{"a":"1","b":"3"}}' });
    expect(different.status).toBe(422);
    expect(await customerCount(merchant.id)).toBe(1);
  });

  it('refuses unknown body fields on the no-body actions', async () => {
    const { api } = await newMerchant();
    const link = await adHocLink(api);
    for (const action of ['Disable', 'Enable', 'Duplicate', 'Archive']) {
      const answer = await api.post(`/api/PaymentLink/${link.id}/${action}`, { reason: 'typo' });
      expect(answer.status, action).toBe(400);
      expect(answer.body.errors).toEqual([{ path: 'reason', message: 'Unknown field.' }]);
    }
    expect((await api.get(`/api/PaymentLink/${link.id}`)).body.status).toBe('active');
    expect((await api.post(`/api/PaymentLink/${link.id}/Disable`, {})).status).toBe(200);
  });

  it('answers an empty Idempotency-Key with 400 IDEMPOTENCY_KEY_REQUIRED', async () => {
    const { api } = await newMerchant();
    const price = await oneTimePrice(api, 1000);
    const answer = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'e@example.com', tokenRef: 'tok_visa' }, { 'Idempotency-Key': '' });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
  });

  it('refuses to charge an archived customer by id: 409 INVALID_STATE, no payment', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 1000);
    const customer = await api.post('/api/Customer', { name: 'Gone', email: 'gone@example.com' });
    expect((await api.put(`/api/Customer/${customer.body.id}`, { status: 'archived' })).status).toBe(200);
    const answer = await api.post('/api/Checkout', { priceId: price.id, customerId: customer.body.id, tokenRef: 'tok_visa' }, ik());
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({ code: 'INVALID_STATE', state: 'archived', errors: [{ path: 'customerId' }] });
    const charged = await getDb()
      .select()
      .from(payments)
      .where(and(eq(payments.merchantId, merchant.id), eq(payments.customerId, customer.body.id)));
    expect(charged).toHaveLength(0);
  });
});

describe('caching and compression of API answers', () => {
  it('marks every answer no-store, sends small answers uncompressed and compresses large ones', async () => {
    const { key, api } = await newMerchant();
    const gzip = { 'accept-encoding': 'gzip' };
    const created = await call('POST', '/api/Product', { key, body: { name: 'Small' }, headers: gzip });
    expect(created.status).toBe(201);
    expect(created.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(created.headers.get('content-encoding')).toBeNull();
    const problem = await call('GET', '/api/Product/prod_missing', { key, headers: gzip });
    expect(problem.status).toBe(404);
    expect(problem.headers.get('content-encoding')).toBeNull();
    const health = await call('GET', '/api/health', { headers: gzip });
    expect(health.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(health.headers.get('content-encoding')).toBeNull();
    for (let i = 0; i < 20; i++) expect((await api.post('/api/Product', { name: `Product ${i} with a name long enough to fill a page` })).status).toBe(201);
    const page = await call('GET', '/api/Product?pageSize=20', { key, headers: gzip });
    expect(page.status).toBe(200);
    expect(page.text.length).toBeGreaterThan(1024);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('content-encoding')).toBe('gzip');
  });
});
