import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { webhookEndpoints } from '@/lib/db/schema';
import { retryWebhookDelivery } from '@/lib/webhooks/deliveries';
import { listWebhookEndpointsNeedingAttention } from '@/lib/webhooks/endpoints';
import { inTransaction, runConsoleOnce } from '@/lib/server/web/console-once';
import type { Db } from '@/lib/db/client';
import { newMerchant } from '../helpers/merchants';
import { eventually, startReceiver, type Receiver } from '../helpers/webhook-receiver';

// What the seller console adds on top of the webhook domain functions: the double-submit guard
// of its Retry and Recover forms, and the list behind the console banner.

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver(() => ({ status: 200 }));
});
afterAll(() => receiver.close());

async function sellerWithDelivery(name: string) {
  const seller = await newMerchant();
  const endpoint = await seller.api.post('/api/WebhookEndpoint', { url: `${receiver.url}/${name}`, events: ['product.created'] });
  expect(endpoint.status).toBe(201);
  await seller.api.post('/api/Product', { name: `Product for ${name}` });
  const delivery = await eventually(async () => {
    const list = await seller.api.get(`/api/WebhookDelivery?endpointId=${endpoint.body.id}`);
    return list.body.data[0]?.status === 'delivered' && list.body.data[0];
  });
  return { ...seller, endpointId: endpoint.body.id as string, deliveryId: delivery.id as string };
}

const formKey = () => crypto.randomUUID();
/** A console form's submit, as the webhook actions run it. */
const submit = <T>(merchantId: string, key: string, action: string, work: (tx: Db) => Promise<T>) =>
  runConsoleOnce(getDb(), { merchantId, key, action, body: {} }, inTransaction(work));
const attemptsOf = (name: string) => receiver.received.filter((request) => request.path === `/${name}`).length;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('console forms run at most once per form key', () => {
  it('a Retry form submitted twice queues one attempt; the second submit replays the first answer', async () => {
    const { merchant, deliveryId } = await sellerWithDelivery('retry-twice');
    const key = formKey();
    const path = `/api/WebhookDelivery/${deliveryId}/Retry`;
    let runs = 0;
    const retry = () =>
      submit(merchant.id, key, path, async (tx) => {
        runs++;
        return retryWebhookDelivery(tx, merchant.id, deliveryId);
      });
    const first = await retry();
    const second = await retry();
    expect(first.replayed).toBe(false);
    expect(second).toEqual({ replayed: true, result: first.result });
    expect(runs).toBe(1);
    await eventually(async () => attemptsOf('retry-twice') === 2);
    await sleep(1500);
    expect(attemptsOf('retry-twice')).toBe(2);

    // A new form (a new key) is a new retry.
    await submit(merchant.id, formKey(), path, (tx) => retryWebhookDelivery(tx, merchant.id, deliveryId));
    await eventually(async () => attemptsOf('retry-twice') === 3);
  });

  it('concurrent submits of one form run the work once; the others wait and get its answer', async () => {
    const { merchant, deliveryId } = await sellerWithDelivery('retry-race');
    const key = formKey();
    let runs = 0;
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        submit(merchant.id, key, `/api/WebhookDelivery/${deliveryId}/Retry`, async (tx) => {
          runs++;
          await sleep(200);
          return retryWebhookDelivery(tx, merchant.id, deliveryId);
        }),
      ),
    );
    expect(runs).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => JSON.stringify(r.result))).size).toBe(1);
  });

  it('a key is bound to its operation and resource, a failure frees the key to try again, and a malformed key is refused', async () => {
    const { merchant, deliveryId } = await sellerWithDelivery('retry-bound');
    const key = formKey();
    await submit(merchant.id, key, `/api/WebhookDelivery/${deliveryId}/Retry`, (tx) => retryWebhookDelivery(tx, merchant.id, deliveryId));
    await expect(
      submit(merchant.id, key, '/api/WebhookDelivery/wda_other/Retry', (tx) => retryWebhookDelivery(tx, merchant.id, 'wda_other')),
    ).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', detail: 'This form was already submitted with other values; reload the page to start again.' });

    const failing = formKey();
    let runs = 0;
    const missing = () =>
      submit(merchant.id, failing, '/api/WebhookDelivery/wda_missing/Retry', async (tx) => {
        runs++;
        return retryWebhookDelivery(tx, merchant.id, 'wda_missing');
      });
    await expect(missing()).rejects.toMatchObject({ code: 'NOT_FOUND', detail: "No webhook delivery with id 'wda_missing'." });
    // The failure rolled back and freed the key: the same form may be corrected and sent again.
    await expect(missing()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(runs).toBe(2);

    await expect(submit(merchant.id, 'short', '/x', async () => 1)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('another seller’s delivery is not found, even with a fresh key', async () => {
    const { deliveryId } = await sellerWithDelivery('retry-tenant');
    const other = await newMerchant();
    await expect(
      submit(other.merchant.id, formKey(), `/api/WebhookDelivery/${deliveryId}/Retry`, (tx) => retryWebhookDelivery(tx, other.merchant.id, deliveryId)),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('the console banner lists endpoints that need attention', () => {
  it('lists failing and automatically disabled endpoints, not healthy or manually disabled ones', async () => {
    const seller = await newMerchant();
    const create = async (path: string) => (await seller.api.post('/api/WebhookEndpoint', { url: `${receiver.url}/${path}`, events: ['*'] })).body.id as string;
    const [healthy, failing, gone, tired, paused] = [await create('a'), await create('b'), await create('c'), await create('d'), await create('e')];
    const db = getDb();
    const since = new Date(Date.now() - 60_000);
    await db.update(webhookEndpoints).set({ failingSince: since }).where(eq(webhookEndpoints.id, failing));
    await db.update(webhookEndpoints).set({ enabled: false, disabledReason: 'gone', disabledAt: since }).where(eq(webhookEndpoints.id, gone));
    await db
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: 'failing', disabledAt: since, failingSince: since })
      .where(eq(webhookEndpoints.id, tired));
    expect((await seller.api.put(`/api/WebhookEndpoint/${paused}`, { enabled: false })).status).toBe(200);

    const listed = await listWebhookEndpointsNeedingAttention(db, seller.merchant.id);
    expect(listed.hasMore).toBe(false);
    expect(listed.endpoints.map((endpoint) => [endpoint.id, endpoint.status, endpoint.disabledReason])).toEqual([
      [failing, 'failing', null],
      [gone, 'disabled', 'gone'],
      [tired, 'disabled', 'failing'],
    ]);
    expect(listed.endpoints.map((endpoint) => endpoint.id)).not.toContain(healthy);

    const limited = await listWebhookEndpointsNeedingAttention(db, seller.merchant.id, 2);
    expect(limited.endpoints).toHaveLength(2);
    expect(limited.hasMore).toBe(true);

    // Another seller sees none of them.
    const other = await newMerchant();
    expect((await listWebhookEndpointsNeedingAttention(db, other.merchant.id)).endpoints).toEqual([]);

    // Enabling again clears it from the list.
    expect((await seller.api.put(`/api/WebhookEndpoint/${gone}`, { enabled: true })).status).toBe(200);
    expect((await listWebhookEndpointsNeedingAttention(db, seller.merchant.id)).endpoints.map((endpoint) => endpoint.id)).toEqual([failing, tired]);
  });
});
