import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryHeaders } from '@/lib/webhooks/attempt-request';
import { standardWebhookSignature, verifyWebhook } from '@/packages/sdk/src/webhooks';
import { newMerchant } from '../helpers/merchants';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';

/**
 * Deliveries carry Standard Webhooks headers (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`) beside the interface's `X-Service-*` ones (docs/webhooks.md, "Standard
 * Webhooks"), checked with the `standardwebhooks` npm package that Svix, Clerk and Resend
 * receivers use.
 */
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const asRecord = (headers: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(Object.entries(headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])));

describe('Standard Webhooks', () => {
  it("a delivery verifies with the standardwebhooks package and the endpoint's signing secret, as with the SDK", async () => {
    const { api } = await newMerchant();
    const endpoint = await api.post('/api/WebhookEndpoint', { url: `${receiver.url}/standard`, events: ['product.created'] });
    expect(endpoint.status).toBe(201);
    const { body: product } = await api.post('/api/Product', { name: 'Standard' });
    await receiver.waitFor(() => receiver.received.some((request) => request.body.includes(product.id)));
    const request = receiver.received.find((candidate) => candidate.body.includes(product.id))!;
    const headers = asRecord(request.headers);

    expect(headers['webhook-id']).toBe(headers['x-service-event-id']);
    expect(headers['webhook-timestamp']).toMatch(/^\d+$/);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const payload = new Webhook(endpoint.body.signingSecret).verify(request.body, headers) as { id: string; data: { object: { id: string } } };
    expect(payload.data.object.id).toBe(product.id);
    expect(verifyWebhook(request.body, headers['x-service-signature'], endpoint.body.signingSecret).id).toBe(payload.id);
    // Another secret does not verify it.
    const other = new Webhook(`whsec_${Buffer.from('another secret of 24 bytes').toString('base64')}`);
    expect(() => other.verify(request.body, headers)).toThrow();
  });

  it('signs with every live secret during a rotation, each verifiable on its own', () => {
    const secrets = [`whsec_${Buffer.alloc(24, 1).toString('base64')}`, `whsec_${Buffer.alloc(24, 2).toString('base64')}`];
    const body = JSON.stringify({ id: 'evt_rotation', type: 'product.created', data: { object: {} } });
    const headers = deliveryHeaders({ id: 'wda_1', eventId: 'evt_rotation', eventType: 'product.created' }, secrets, body, new Date());
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const secret of secrets) expect(new Webhook(secret).verify(body, headers)).toMatchObject({ id: 'evt_rotation' });
    // The SDK (`paybase listen` forwards with it) signs the same way.
    expect(standardWebhookSignature(secrets, 'evt_rotation', Number(headers['webhook-timestamp']), body)).toBe(headers['webhook-signature']);
    // A changed body fails.
    expect(() => new Webhook(secrets[0]!).verify(body.replace('rotation', 'other'), headers)).toThrow();
  });
});
