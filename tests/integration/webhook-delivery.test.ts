import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { webhookEndpoints } from '@/lib/db/schema';
import { listRecentEmails } from '@/lib/email/send-email';
import { parseSignatureHeader, verifyWebhook } from '@/packages/sdk/src/webhooks';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { expectAuthFailures } from '../helpers/auth-matrix';
import { eventually, startReceiver, type Receiver } from '../helpers/webhook-receiver';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver((request) => answers.get(request.path.split('/')[1]!)?.(request) ?? { status: 200 });
});
afterAll(() => receiver.close());

/** Each test answers on its own path prefix: `/<name>/…`. */
const answers = new Map<
  string,
  (request: { path: string; body: string }) => { status?: number; body?: string; delayMs?: number; hang?: boolean; headers?: Record<string, string> }
>();
const at = (name: string) => receiver.received.filter((request) => request.path.split('/')[1] === name);

async function setup(name: string, events: string[] = ['product.created']) {
  const merchant = await newMerchant();
  const endpoint = await merchant.api.post('/api/WebhookEndpoint', { url: `${receiver.url}/${name}`, events });
  expect(endpoint.status).toBe(201);
  return { ...merchant, endpoint: endpoint.body as { id: string; signingSecret: string } };
}

async function deliveryOf(api: Awaited<ReturnType<typeof newMerchant>>['api'], eventId: string, endpointId?: string) {
  const list = await api.get(`/api/WebhookDelivery?eventId=${eventId}${endpointId ? `&endpointId=${endpointId}` : ''}`);
  expect(list.body.totalCount).toBe(1);
  return (await api.get(`/api/WebhookDelivery/${list.body.data[0].id}`)).body;
}

describe('webhook delivery', () => {
  it('POSTs the event with the spec headers and a signature the documented algorithm verifies', async () => {
    const { api, endpoint } = await setup('basic');
    const { body: product } = await api.post('/api/Product', { name: 'Delivered' });
    const [request] = await receiver.waitFor(() => at('basic').length === 1).then(() => at('basic'));
    const headers = request!.headers;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-service-event-type']).toBe('product.created');
    expect(headers['x-service-event-id']).toMatch(/^evt_/);
    expect(headers['x-service-delivery-id']).toMatch(/^wda_/);
    expect(headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const t = parseSignatureHeader(headers['x-service-signature'] as string).timestamp;
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(10);

    const event = verifyWebhook(request!.body, headers['x-service-signature'] as string, endpoint.signingSecret);
    expect(event.id).toBe(headers['x-service-event-id']);
    expect(event).toMatchObject({ type: 'product.created', data: { object: product } });
    expect(Object.keys(event)).toEqual(['id', 'apiVersion', 'type', 'sequence', 'createdAt', 'data']);

    const eventRead = await api.get(`/api/WebhookEvent/${event.id}`);
    expect(eventRead.body).toEqual(event);
    const delivery = await eventually(async () => {
      const d = await deliveryOf(api, event.id);
      return d.status === 'delivered' && d;
    });
    expect(delivery).toMatchObject({
      id: headers['x-service-delivery-id'],
      endpointId: endpoint.id,
      eventType: 'product.created',
      attemptCount: 1,
      lastResponseStatus: 200,
    });
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ trigger: 'automatic', responseStatus: 200, responseBody: 'ok', error: null, succeeded: true });
    expect(delivery.attempts[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(delivery.attempts[0].requestHeaders['X-Service-Signature']).toBe(headers['x-service-signature']);
  });

  it('sends only subscribed types, everything to *, and nothing to a disabled endpoint', async () => {
    const { api, endpoint } = await setup('subscribed', ['customer.created']);
    await api.post('/api/WebhookEndpoint', { url: `${receiver.url}/subscribed-all`, events: ['*'] });
    const off = await api.post('/api/WebhookEndpoint', { url: `${receiver.url}/subscribed-off`, events: ['*'], enabled: false });
    expect(off.body.enabled).toBe(false);
    await api.post('/api/Product', { name: 'Not for the customer endpoint' });
    await api.post('/api/Customer', { email: 'buyer@example.com' });
    await receiver.waitFor(() => at('subscribed-all').length === 2 && at('subscribed').length === 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const onlyCustomer = at('subscribed');
    expect(onlyCustomer.map((request) => request.headers['x-service-event-type'])).toEqual(['customer.created']);
    expect(
      at('subscribed-all')
        .map((request) => request.headers['x-service-event-type'])
        .sort(),
    ).toEqual(['customer.created', 'product.created']);
    expect(at('subscribed-off')).toHaveLength(0);
    const deliveries = await api.get(`/api/WebhookDelivery?endpointId=${endpoint.id}`);
    expect(deliveries.body.totalCount).toBe(1);
    expect((await api.get(`/api/WebhookDelivery?endpointId=${off.body.id}`)).body.totalCount).toBe(0);
  });

  it('retries after a 500 and a timeout with a fresh signature and the identical body, then delivers', async () => {
    answers.set('flaky', (_request) => {
      const n = at('flaky').length;
      if (n === 1) return { status: 500, body: 'x'.repeat(10_000) };
      if (n === 2) return { hang: true };
      return { status: 204, body: '' };
    });
    const { api, endpoint } = await setup('flaky');
    await api.post('/api/Product', { name: 'Flaky' });
    const requests = await receiver.waitFor(() => at('flaky').length === 3, 25_000).then(() => at('flaky'));
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    expect(new Set(requests.map((r) => r.headers['x-service-delivery-id'])).size).toBe(1);
    // t is taken at each attempt (unix seconds: two attempts in the same second share it).
    for (const request of requests) {
      const { timestamp } = parseSignatureHeader(request.headers['x-service-signature'] as string);
      expect(Math.abs(timestamp - request.receivedAt / 1000)).toBeLessThanOrEqual(1.5);
    }
    expect(parseSignatureHeader(requests[2]!.headers['x-service-signature'] as string).timestamp).toBeGreaterThan(
      parseSignatureHeader(requests[0]!.headers['x-service-signature'] as string).timestamp,
    );
    for (const request of requests)
      expect(() => verifyWebhook(request.body, request.headers['x-service-signature'] as string, endpoint.signingSecret)).not.toThrow();

    const eventId = requests[0]!.headers['x-service-event-id'] as string;
    const delivery = await eventually(async () => {
      const d = await deliveryOf(api, eventId);
      return d.status === 'delivered' && d;
    });
    expect(delivery.attemptCount).toBe(3);
    const [first, second, third] = delivery.attempts;
    expect(first).toMatchObject({ responseStatus: 500, succeeded: false, error: 'Answered 500.' });
    expect(first.responseBody).toHaveLength(4096);
    expect(second).toMatchObject({ responseStatus: null, succeeded: false });
    expect(second.error).toMatch(/Timed out after 1500 ms/);
    expect(second.durationMs).toBeGreaterThanOrEqual(1400);
    expect(third).toMatchObject({ responseStatus: 204, succeeded: true });
    // The compressed schedule (300 ms, then 600 ms) separates the attempts.
    expect(new Date(second.startedAt).getTime() - new Date(first.startedAt).getTime()).toBeGreaterThanOrEqual(250);
  }, 40_000);

  it('does not follow redirects', async () => {
    answers.set('redirect', () => ({ status: 302, headers: { location: `${receiver.url}/redirect-target` } }));
    const { api } = await setup('redirect');
    await api.post('/api/Product', { name: 'Redirected' });
    await receiver.waitFor(() => at('redirect').length >= 2, 20_000);
    expect(at('redirect-target')).toHaveLength(0);
    const eventId = at('redirect')[0]!.headers['x-service-event-id'] as string;
    const delivery = await deliveryOf(api, eventId);
    expect(delivery.attempts[0].error).toMatch(/redirects are not followed/);
  });

  it('dead-letters after 8 failed attempts', async () => {
    answers.set('dead', () => ({ status: 503 }));
    const { api, endpoint } = await setup('dead');
    await api.post('/api/Product', { name: 'Never received' });
    const delivery = await eventually(
      async () => {
        const list = await api.get(`/api/WebhookDelivery?endpointId=${endpoint.id}&status=dead`);
        return list.body.totalCount === 1 && list.body.data[0];
      },
      40_000,
      'dead delivery',
    );
    expect(delivery).toMatchObject({ attemptCount: 8, nextAttemptAt: null, lastResponseStatus: 503 });
    expect(at('dead')).toHaveLength(8);
    const endpointNow = await api.get(`/api/WebhookEndpoint/${endpoint.id}`);
    expect(endpointNow.body).toMatchObject({ enabled: true, status: 'failing' });
    expect(endpointNow.body.failingSince).not.toBeNull();
  }, 50_000);

  it('resends one delivery on Retry (IK), whatever its state, and replays a repeated key', async () => {
    const { api, key, merchant } = await setup('manual');
    await api.post('/api/Product', { name: 'Again' });
    await receiver.waitFor(() => at('manual').length === 1);
    const deliveryId = at('manual')[0]!.headers['x-service-delivery-id'] as string;
    await eventually(async () => (await api.get(`/api/WebhookDelivery/${deliveryId}`)).body.status === 'delivered');

    const missing = await api.post(`/api/WebhookDelivery/${deliveryId}/Retry`);
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const retried = await api.post(`/api/WebhookDelivery/${deliveryId}/Retry`, undefined, { 'Idempotency-Key': 'retry-1' });
    expect(retried.status).toBe(202);
    expect(retried.body.id).toBe(deliveryId);
    const replay = await api.post(`/api/WebhookDelivery/${deliveryId}/Retry`, undefined, { 'Idempotency-Key': 'retry-1' });
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(retried.text);

    await receiver.waitFor(() => at('manual').length === 2);
    const [first, second] = at('manual');
    expect(second!.body).toBe(first!.body);
    expect(second!.headers['x-service-delivery-id']).toBe(deliveryId);
    const delivery = await eventually(async () => {
      const d = (await api.get(`/api/WebhookDelivery/${deliveryId}`)).body;
      return d.attempts.length === 2 && d;
    });
    expect(delivery.attempts.map((a: { trigger: string }) => a.trigger)).toEqual(['automatic', 'manual']);
    expect(delivery).toMatchObject({ status: 'delivered', attemptCount: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(at('manual')).toHaveLength(2); // the replayed key sent nothing more

    const stranger = await newMerchant();
    expect((await stranger.api.post(`/api/WebhookDelivery/${deliveryId}/Retry`, undefined, { 'Idempotency-Key': 'x' })).status).toBe(404);
    expect((await stranger.api.get(`/api/WebhookDelivery/${deliveryId}`)).status).toBe(404);
    await expectAuthFailures(merchant.id, 'POST', `/api/WebhookDelivery/${deliveryId}/Retry`, 'webhooks:write');
    await expectAuthFailures(merchant.id, 'GET', `/api/WebhookDelivery/${deliveryId}`, 'webhooks:read');
    expect((await call('POST', `/api/WebhookDelivery/wda_nope/Retry`, { key, headers: { 'Idempotency-Key': 'y' } })).status).toBe(404);
  });

  it('signs with both secrets during the rotation overlap, then with the new one only', async () => {
    const { api, endpoint } = await setup('rotate');
    const rotated = (await api.post(`/api/WebhookEndpoint/${endpoint.id}/RotateSecret`)).body;
    await api.post('/api/Product', { name: 'Rotated' });
    await receiver.waitFor(() => at('rotate').length === 1);
    const header = at('rotate')[0]!.headers['x-service-signature'] as string;
    expect(parseSignatureHeader(header).signatures).toHaveLength(2);
    const body = at('rotate')[0]!.body;
    expect(() => verifyWebhook(body, header, endpoint.signingSecret)).not.toThrow();
    expect(() => verifyWebhook(body, header, rotated.signingSecret)).not.toThrow();

    // The overlap ends: only the new secret signs.
    await getDb()
      .update(webhookEndpoints)
      .set({ previousSecretExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(webhookEndpoints.id, endpoint.id));
    await api.post('/api/Product', { name: 'After the overlap' });
    await receiver.waitFor(() => at('rotate').length === 2);
    const later = at('rotate')[1]!;
    expect(parseSignatureHeader(later.headers['x-service-signature'] as string).signatures).toHaveLength(1);
    expect(() => verifyWebhook(later.body, later.headers['x-service-signature'] as string, rotated.signingSecret)).not.toThrow();
    expect(() => verifyWebhook(later.body, later.headers['x-service-signature'] as string, endpoint.signingSecret)).toThrow();
    expect((await api.get(`/api/WebhookEndpoint/${endpoint.id}`)).body.previousSecretExpiresAt).toBeNull();
  });

  it('disables an endpoint at once on 410 Gone and tells the seller', async () => {
    answers.set('gone', () => ({ status: 410 }));
    const { api, endpoint, merchant } = await setup('gone');
    await api.post('/api/Product', { name: 'Gone' });
    const disabled = await eventually(async () => {
      const e = (await api.get(`/api/WebhookEndpoint/${endpoint.id}`)).body;
      return !e.enabled && e;
    });
    expect(disabled).toMatchObject({ status: 'disabled', disabledReason: 'gone' });
    expect(at('gone')).toHaveLength(1);
    const delivery = (await api.get(`/api/WebhookDelivery?endpointId=${endpoint.id}`)).body.data[0];
    expect(delivery).toMatchObject({ status: 'dead', attemptCount: 1, lastResponseStatus: 410 });
    const [mail] = await listRecentEmails(getDb(), { to: merchant.email });
    expect(mail).toMatchObject({ category: 'webhook.endpoint_disabled' });
    expect(mail!.textBody).toContain('410');
    await api.post('/api/Product', { name: 'Not sent' });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(at('gone')).toHaveLength(1);
    expect((await api.get(`/api/WebhookDelivery?endpointId=${endpoint.id}`)).body.totalCount).toBe(1);
  });

  it('disables an endpoint that has failed every attempt for 5 days and emails the seller', async () => {
    answers.set('failing', () => ({ status: 500 }));
    const { api, endpoint, merchant } = await setup('failing');
    const fiveDaysAgo = new Date(Date.now() - 5 * 86_400_000 - 60_000);
    await getDb().update(webhookEndpoints).set({ failingSince: fiveDaysAgo }).where(eq(webhookEndpoints.id, endpoint.id));
    await api.post('/api/Product', { name: 'Last straw' });
    const disabled = await eventually(async () => {
      const e = (await api.get(`/api/WebhookEndpoint/${endpoint.id}`)).body;
      return !e.enabled && e;
    });
    expect(disabled).toMatchObject({ status: 'disabled', disabledReason: 'failing', failingSince: fiveDaysAgo.toISOString() });
    const [mail] = await listRecentEmails(getDb(), { to: merchant.email });
    expect(mail!.subject).toContain('Webhook endpoint disabled');
    expect(mail!.textBody).toContain(endpoint.id);

    // A younger failure run does not disable.
    const young = await setup('failing-young');
    answers.set('failing-young', () => ({ status: 500 }));
    await young.api.post('/api/Product', { name: 'Just one failure' });
    await receiver.waitFor(() => at('failing-young').length >= 1);
    // The attempt's outcome is recorded after the receiver answers: wait for the record, not a fixed time.
    const failing = await eventually(async () => {
      const e = (await young.api.get(`/api/WebhookEndpoint/${young.endpoint.id}`)).body;
      return e.status !== 'enabled' && e;
    });
    expect(failing).toMatchObject({ enabled: true, status: 'failing' });
  });

  it('keeps healthy endpoints flowing while another endpoint hangs', async () => {
    answers.set('slow', () => ({ hang: true }));
    const { api } = await setup('slow');
    await api.post('/api/WebhookEndpoint', { url: `${receiver.url}/healthy`, events: ['product.created'] });
    for (let i = 0; i < 8; i++) await api.post('/api/Product', { name: `Busy ${i}` });
    // Each attempt to the hanging endpoint waits out the 1.5 s timeout; the healthy endpoint's
    // deliveries are claimed, sent and recorded beside them, never behind them: all eight arrive
    // while the hanging endpoint has not answered one (how fast depends on the machine, so no clock is read here).
    await receiver.waitFor(() => new Set(at('healthy').map((r) => r.headers['x-service-event-id'])).size === 8, 20_000);
    await receiver.waitFor(() => at('slow').length > 0);
  }, 30_000);

  it('recovers every failed or dead delivery of an endpoint since a time (IK)', async () => {
    answers.set('recover', () => ({ status: 500 }));
    const { api, endpoint, merchant } = await setup('recover');
    const since = new Date(Date.now() - 1000).toISOString();
    for (const name of ['R1', 'R2']) await api.post('/api/Product', { name });
    await eventually(async () => (await api.get(`/api/WebhookDelivery?endpointId=${endpoint.id}&status=dead`)).body.totalCount === 2, 40_000, 'two dead');
    answers.set('recover', () => ({ status: 200 }));
    const path = `/api/WebhookEndpoint/${endpoint.id}/RetryFailedDeliveries`;
    expect((await api.post(path, { since })).status).toBe(400);
    const bad = await api.post(path, { since: 'yesterday' }, { 'Idempotency-Key': 'bad' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].path).toBe('since');
    const recovered = await api.post(path, { since }, { 'Idempotency-Key': 'recover-1' });
    expect(recovered.status).toBe(202);
    expect(recovered.body).toMatchObject({ endpointId: endpoint.id, requeued: 2, hasMore: false });
    await eventually(async () => (await api.get(`/api/WebhookDelivery?endpointId=${endpoint.id}&status=delivered`)).body.totalCount === 2, 20_000);
    const none = await api.post(path, { since }, { 'Idempotency-Key': 'recover-2' });
    expect(none.body.requeued).toBe(0);

    await api.put(`/api/WebhookEndpoint/${endpoint.id}`, { enabled: false });
    const disabled = await api.post(path, { since }, { 'Idempotency-Key': 'recover-3' });
    expect(disabled.status).toBe(409);
    expect(disabled.body.code).toBe('INVALID_STATE');
    await expectAuthFailures(merchant.id, 'POST', path, 'webhooks:write', { since });
  }, 60_000);

  it('lists events and deliveries with filters, and retrieves one of each', async () => {
    const { api, endpoint, merchant } = await setup('lists', ['*']);
    const { body: product } = await api.post('/api/Product', { name: 'Listed' });
    await api.post('/api/Customer', { email: 'listed@example.com' });
    await receiver.waitFor(() => at('lists').length === 2);
    const events = await api.get('/api/WebhookEvent');
    expect(events.body.totalCount).toBe(2);
    expect(events.body.data.map((e: { type: string }) => e.type)).toEqual(['customer.created', 'product.created']);
    const products = await api.get('/api/WebhookEvent?type=product.created');
    expect(products.body.data).toHaveLength(1);
    expect(products.body.data[0].data.object).toEqual(product);
    expect((await api.get('/api/WebhookEvent?type=bogus')).status).toBe(400);
    const eventId = products.body.data[0].id;
    expect((await api.get(`/api/WebhookEvent/${eventId}`)).body).toEqual(products.body.data[0]);

    await eventually(async () => (await api.get('/api/WebhookDelivery?status=delivered')).body.totalCount === 2);
    expect((await api.get(`/api/WebhookDelivery?eventId=${eventId}`)).body.data[0]).toMatchObject({ eventId, endpointId: endpoint.id });
    expect((await api.get('/api/WebhookDelivery?type=customer.created')).body.totalCount).toBe(1);
    expect((await api.get('/api/WebhookDelivery?status=dead')).body.totalCount).toBe(0);
    expect((await api.get('/api/WebhookDelivery?status=lost')).status).toBe(400);
    expect((await api.get('/api/WebhookDelivery?pageSize=1')).body).toMatchObject({ totalCount: 2, hasMore: true });

    const stranger = await newMerchant();
    expect((await stranger.api.get(`/api/WebhookEvent/${eventId}`)).status).toBe(404);
    expect((await stranger.api.get('/api/WebhookEvent')).body.totalCount).toBe(0);
    expect((await stranger.api.get(`/api/WebhookDelivery?eventId=${eventId}`)).body.totalCount).toBe(0);
    await expectAuthFailures(merchant.id, 'GET', '/api/WebhookEvent', 'webhooks:read');
    await expectAuthFailures(merchant.id, 'GET', `/api/WebhookEvent/${eventId}`, 'webhooks:read');
    await expectAuthFailures(merchant.id, 'GET', '/api/WebhookDelivery', 'webhooks:read');
  });
});
