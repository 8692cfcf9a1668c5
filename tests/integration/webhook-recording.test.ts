import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '@/lib/db/schema';
import { newMerchant } from '../helpers/merchants';
import { eventually, startReceiver, type Answer, type Receiver } from '../helpers/webhook-receiver';

/**
 * Recording webhook attempts (docs/webhooks.md, "What is kept of an answer" and "The
 * dispatcher"): whatever a receiver answers, and whatever one attempt's bookkeeping runs into,
 * every other attempt is recorded, for every seller, and no attempt row is written twice.
 */
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver((request, index) => answers.get(request.path.split('/')[1]!)?.(index) ?? { status: 200 });
});
afterAll(() => receiver.close());

/** Each test answers on its own path: `/<name>`. */
const answers = new Map<string, (index: number) => Answer>();
const at = (name: string) => receiver.received.filter((request) => request.path.split('/')[1] === name);

async function sellerWithEndpoint(name: string, answer: (index: number) => Answer = () => ({ status: 200 })) {
  answers.set(name, answer);
  const seller = await newMerchant();
  const endpoint = await seller.api.post('/api/WebhookEndpoint', { url: `${receiver.url}/${name}`, events: ['product.created'] });
  expect(endpoint.status).toBe(201);
  return { ...seller, endpointId: endpoint.body.id as string };
}

type Seller = Awaited<ReturnType<typeof sellerWithEndpoint>>;

const createProducts = (seller: Seller, n: number) =>
  Promise.all(Array.from({ length: n }, (_, i) => seller.api.post('/api/Product', { name: `Recorded ${i}` }).then((r) => expect(r.status).toBe(201))));

async function deliveredCount(seller: Seller): Promise<number> {
  const list = await seller.api.get(`/api/WebhookDelivery?endpointId=${seller.endpointId}&status=delivered&pageSize=100`);
  return list.body.totalCount;
}

async function firstDelivery(seller: Seller) {
  const list = await seller.api.get(`/api/WebhookDelivery?endpointId=${seller.endpointId}&pageSize=1`);
  return (await seller.api.get(`/api/WebhookDelivery/${list.body.data[0].id}`)).body;
}

const attemptRows = async (endpointId: string) =>
  (
    await getDb()
      .select({ n: count() })
      .from(webhookAttempts)
      .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
      .where(eq(webhookDeliveries.endpointId, endpointId))
  )[0]!.n;

/**
 * A trigger that makes PostgreSQL refuse some rows of a table, as it refused a NUL byte: the
 * stand-in for a row the service did not foresee it could not store. `when` is a condition on
 * `new`; it matches only this test's rows, so other test files sharing the database are not
 * affected. Removed by the returned function.
 */
async function refuseRows(table: 'webhook_attempts' | 'outbound_emails', when: string): Promise<() => Promise<void>> {
  const name = `test_refuse_${crypto.randomBytes(6).toString('hex')}`;
  await getDb().execute(
    sql.raw(`create function ${name}() returns trigger language plpgsql as $$
      begin
        if ${when} then raise exception 'refused by the test' using errcode = '22021'; end if;
        return new;
      end $$`),
  );
  await getDb().execute(sql.raw(`create trigger ${name} before insert on ${table} for each row execute function ${name}()`));
  return async () => {
    await getDb().execute(sql.raw(`drop trigger if exists ${name} on ${table}`));
    await getDb().execute(sql.raw(`drop function if exists ${name}()`));
  };
}

describe('recording webhook attempts', () => {
  it('records 20 of 20 deliveries for a receiver answering with a NUL byte and for another seller’s healthy one, with no repeats', async () => {
    const nul = await sellerWithEndpoint('nul', () => ({ status: 200, body: 'ok\0' }));
    const healthy = await sellerWithEndpoint('healthy');
    await Promise.all([createProducts(nul, 20), createProducts(healthy, 20)]);

    await eventually(async () => (await deliveredCount(healthy)) === 20 && (await deliveredCount(nul)) === 20, 30_000, '20 of 20 deliveries recorded for both');
    expect(at('healthy')).toHaveLength(20);
    expect(new Set(at('healthy').map((r) => r.headers['x-service-delivery-id'])).size).toBe(20);
    expect(at('nul')).toHaveLength(20);
    // The NUL is kept visible as U+FFFD (PostgreSQL text cannot hold U+0000).
    const delivery = await firstDelivery(nul);
    expect(delivery.attempts).toHaveLength(1);
    expect(delivery.attempts[0]).toMatchObject({ responseStatus: 200, responseBody: 'ok\uFFFD', succeeded: true });
  }, 60_000);

  it('records an attempt whose answer PostgreSQL refuses without that answer, and every other attempt of its batch as it was', async () => {
    const marker = `unstorable-${crypto.randomBytes(6).toString('hex')}`;
    const removeTrigger = await refuseRows('webhook_attempts', `new.response_body like '%${marker}%'`);
    try {
      const refused = await sellerWithEndpoint('refused', () => ({ status: 200, body: marker }));
      const healthy = await sellerWithEndpoint('beside-refused');
      await Promise.all([createProducts(refused, 20), createProducts(healthy, 20)]);

      await eventually(async () => (await deliveredCount(healthy)) === 20 && (await deliveredCount(refused)) === 20, 30_000, '20 of 20 recorded for both');
      expect(at('beside-refused')).toHaveLength(20);
      expect(at('refused')).toHaveLength(20);
      const delivery = await firstDelivery(refused);
      expect(delivery.attempts).toHaveLength(1);
      expect(delivery.attempts[0]).toMatchObject({ responseStatus: 200, responseBody: null, succeeded: true });
      expect(delivery.attempts[0].error).toMatch(/could not be stored/);
    } finally {
      await removeTrigger();
    }
  }, 60_000);

  it('writes no attempt row twice when disabling an endpoint fails: attempts, deliveries and the disabling are one transaction', async () => {
    const gone = await sellerWithEndpoint('gone', () => ({ status: 410 }));
    // The disabling writes the seller's email in its transaction; refusing that email makes it fail.
    const removeTrigger = await refuseRows(
      'outbound_emails',
      `new.category = 'webhook.endpoint_disabled' and new.to_address = '${gone.merchant.email.toLowerCase()}'`,
    );
    try {
      await createProducts(gone, 1);
      await receiver.waitFor(() => at('gone').length >= 1);
      // Long enough for a flush that kept its batch after a failure to write it again (it retried every second).
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(await attemptRows(gone.endpointId)).toBeLessThanOrEqual(at('gone').length);
    } finally {
      await removeTrigger();
    }
    await eventually(
      async () => (await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, gone.endpointId)))[0]!.enabled === false,
      30_000,
      'the endpoint disabled once its email can be written',
    );
    // One row per request the receiver got: an attempt whose outcome could not be recorded is in
    // the history as such (its lease ran out and it was sent again), never twice.
    expect(await attemptRows(gone.endpointId)).toBe(at('gone').length);
    const delivery = await firstDelivery(gone);
    expect(delivery.status).toBe('dead');
  }, 60_000);

  it('records a delivery whose signing secret cannot be decrypted as failed attempts until it is dead, sending nothing', async () => {
    const seller = await sellerWithEndpoint('undecryptable');
    // Another endpoint's ciphertext: sealed for another id, so it does not decrypt here (as with another SECRET_KEY).
    const other = await seller.api.post('/api/WebhookEndpoint', { url: `${receiver.url}/other`, events: ['customer.created'] });
    const [source] = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, other.body.id));
    await getDb().update(webhookEndpoints).set({ secretCiphertext: source!.secretCiphertext }).where(eq(webhookEndpoints.id, seller.endpointId));

    await createProducts(seller, 1);
    const delivery = await eventually(
      async () => {
        const d = await firstDelivery(seller);
        return d.status === 'dead' && d;
      },
      30_000,
      'the delivery dead',
    );
    // 8 automatic attempts (the first and one per delay of the schedule), none of them sent.
    expect(delivery.attempts).toHaveLength(8);
    for (const attempt of delivery.attempts) {
      expect(attempt).toMatchObject({ succeeded: false, responseStatus: null, responseBody: null });
      expect(attempt.error).toMatch(/cannot decrypt/);
    }
    expect(at('undecryptable')).toHaveLength(0);
  }, 60_000);
});
