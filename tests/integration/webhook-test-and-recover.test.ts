import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookBodyViolations } from '../helpers/contract';
import { getDb } from '@/lib/db/client';
import { sendEmail } from '@/lib/email/send-email';
import { verifyWebhook } from '@/packages/sdk/src/webhooks';
import { EVENT_SAMPLES } from '@/lib/webhooks/samples';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { expectAuthFailures } from '../helpers/auth-matrix';
import { eventually, startReceiver, type Receiver } from '../helpers/webhook-receiver';

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const at = (name: string) => receiver.received.filter((request) => request.path.split('/')[1] === name);

async function setup(name: string, events: string[]) {
  const merchant = await newMerchant();
  const endpoint = await merchant.api.post('/api/WebhookEndpoint', { url: `${receiver.url}/${name}`, events });
  expect(endpoint.status, endpoint.text).toBe(201);
  return { ...merchant, endpoint: endpoint.body as { id: string; signingSecret: string } };
}

describe('webhooks in development', () => {
  it('sends a signed test event of a chosen type to one endpoint as a normal delivery', async () => {
    const { api, endpoint, merchant } = await setup('test-event', ['product.created']);
    const other = await api.post('/api/WebhookEndpoint', { url: `${receiver.url}/test-other`, events: ['*'] });
    const path = `/api/WebhookEndpoint/${endpoint.id}/Test`;

    const sent = await api.post(path, { type: 'subscription.updated' });
    expect(sent.status, sent.text).toBe(202);
    expect(sent.body).toMatchObject({ endpointId: endpoint.id, eventType: 'subscription.updated', status: 'pending' });
    await receiver.waitFor(() => at('test-event').length === 1);
    const request = at('test-event')[0]!;
    expect(request.headers['x-service-event-type']).toBe('subscription.updated');
    expect(request.headers['x-service-delivery-id']).toBe(sent.body.id);
    const event = verifyWebhook(request.body, request.headers['x-service-signature'] as string, endpoint.signingSecret);
    expect(event).toMatchObject({ id: sent.body.eventId, type: 'subscription.updated', data: { ...EVENT_SAMPLES['subscription.updated'].data, test: true } });

    const delivery = await eventually(async () => {
      const d = (await api.get(`/api/WebhookDelivery/${sent.body.id}`)).body;
      return d.status === 'delivered' && d;
    });
    expect(delivery.attempts).toHaveLength(1);
    expect((await api.get(`/api/WebhookEvent/${sent.body.eventId}`)).body.data.test).toBe(true);
    // The body holds to the document's schema of its type; the event log tells test events apart.
    expect(webhookBodyViolations('subscription.updated', JSON.parse(request.body))).toEqual([]);
    const testOnly = (await api.get('/api/WebhookEvent?test=true')).body.data.map((item: { id: string }) => item.id);
    expect(testOnly).toEqual([sent.body.eventId]);
    // Only the chosen endpoint gets it.
    expect((await api.get(`/api/WebhookDelivery?eventId=${sent.body.eventId}`)).body.totalCount).toBe(1);
    expect(at('test-other')).toHaveLength(0);
    expect(other.status).toBe(201);
    await api.post('/api/Product', { name: 'A real event' });
    const realOnly = (await api.get('/api/WebhookEvent?test=false')).body.data as { id: string; type: string }[];
    expect(realOnly.map((item) => item.id)).not.toContain(sent.body.eventId);
    expect(realOnly.map((item) => item.type)).toContain('product.created');

    expect((await api.post(path, { type: 'nonsense.happened' })).status).toBe(400);
    expect((await api.post(path, {})).body.errors[0].path).toBe('type');
    const stranger = await newMerchant();
    expect((await stranger.api.post(path, { type: 'product.created' })).status).toBe(404);
    await api.put(`/api/WebhookEndpoint/${endpoint.id}`, { enabled: false });
    expect((await api.post(path, { type: 'product.created' })).status).toBe(409);
    await expectAuthFailures(merchant.id, 'POST', path, 'webhooks:write', { type: 'product.created' });
  });

  it('recover delivers the subscribed events raised while the endpoint was disabled', async () => {
    const { api, endpoint } = await setup('recover-window', ['product.created']);
    const since = new Date(Date.now() - 1000).toISOString();
    await api.put(`/api/WebhookEndpoint/${endpoint.id}`, { enabled: false });
    const missed = (await api.post('/api/Product', { name: 'While disabled' })).body;
    await api.post('/api/Customer', { email: 'not-subscribed@example.com' });
    expect((await api.get(`/api/WebhookDelivery?endpointId=${endpoint.id}`)).body.totalCount).toBe(0);
    await api.put(`/api/WebhookEndpoint/${endpoint.id}`, { enabled: true });

    const path = `/api/WebhookEndpoint/${endpoint.id}/RetryFailedDeliveries`;
    const recovered = await api.post(path, { since }, { 'Idempotency-Key': `recover-${Date.now()}` });
    expect(recovered.status, recovered.text).toBe(202);
    expect(recovered.body).toMatchObject({ requeued: 0, missedEventsDelivered: 1, hasMore: false });
    await receiver.waitFor(() => at('recover-window').length === 1);
    const event = verifyWebhook(at('recover-window')[0]!.body, at('recover-window')[0]!.headers['x-service-signature'] as string, endpoint.signingSecret);
    expect(event).toMatchObject({ type: 'product.created', data: { object: { id: missed.id } } });

    // Once delivered, a second recover finds nothing more; a window before the event finds nothing.
    const again = await api.post(path, { since }, { 'Idempotency-Key': `recover-again-${Date.now()}` });
    expect(again.body).toMatchObject({ requeued: 0, missedEventsDelivered: 0 });
    const before = await api.post(path, { since: '2020-01-01T00:00:00Z', until: since }, { 'Idempotency-Key': `recover-before-${Date.now()}` });
    expect(before.body.missedEventsDelivered).toBe(0);
  });

  it('the dev mailbox answers JSON with each email’s links', async () => {
    const email = `mailbox-${Date.now()}@example.com`;
    await getDb().transaction((tx) =>
      sendEmail(tx, {
        to: email,
        subject: 'Your sign-in link',
        text: 'Open https://example.com/verify?token=abc to sign in.',
        html: '<p>link</p>',
        category: 'test',
      }),
    );
    const mailbox = await call('GET', `/dev/mailbox?format=json&to=${encodeURIComponent(email)}`);
    expect(mailbox.status).toBe(200);
    expect(mailbox.headers.get('content-type')).toContain('application/json');
    expect(mailbox.body.data).toHaveLength(1);
    expect(mailbox.body.data[0]).toMatchObject({ to: email, subject: 'Your sign-in link', links: ['https://example.com/verify?token=abc'] });
    const page = await call('GET', `/dev/mailbox?to=${encodeURIComponent(email)}`);
    expect(page.headers.get('content-type')).toContain('text/html');
  });
});
