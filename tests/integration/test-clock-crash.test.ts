import crypto from 'node:crypto';
import { and, eq, inArray, like } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { payments, sandboxProcessorOperations, subscriptions } from '@/lib/db/schema';
import { startServer, type RunningServer } from '../setup/server';
import { eventually } from '../helpers/webhook-receiver';
import { call as callApi } from '../helpers/api';
import { serverPool, serverDatabase } from '../helpers/server-pool';

/**
 * Two test clocks advance a month at once, 40 and 20 monthly subscriptions, each renewal a slow
 * sandbox charge; the server is SIGKILLed when a few renewals are done. After the restart, the
 * first clock's Advance is retried with its Idempotency-Key and finishes the advance (200); the
 * second is left alone and the worker finishes it. Every subscription is renewed exactly once.
 */
const ENV = { SANDBOX_PROCESSOR_LATENCY_MS: '250' };
const START = '2025-01-01T00:00:00.000Z';
const TARGET = '2025-02-01T12:00:00.000Z';

let server: RunningServer | undefined;
let pool: pg.Pool | undefined;

afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

function database() {
  pool = serverPool(server!.databaseUrl, 2);
  return serverDatabase(pool);
}

async function call(key: string, method: string, path: string, body?: unknown, idempotencyKey: string = crypto.randomUUID()) {
  const answer = await callApi(method, path, { key, body, headers: { 'idempotency-key': idempotencyKey }, baseUrl: server!.baseUrl });
  return { status: answer.status, replayed: answer.headers.get('idempotent-replayed'), text: answer.text, body: answer.body };
}

async function created(key: string, path: string, body: unknown) {
  const answer = await call(key, 'POST', path, body);
  expect(answer.status, answer.text).toBeLessThan(300);
  return answer.body;
}

/** A clock at START with `count` customers on it, each subscribed monthly with a card (period 0 charged). */
async function clockWithSubscriptions(key: string, priceId: string, count: number) {
  const clock = await created(key, '/api/TestClock', { name: `crash ${count}`, frozenTime: START });
  const subscriptionIds: string[] = [];
  for (let index = 0; index < count; index++) {
    const customer = await created(key, '/api/Customer', { email: `clock-${count}-${index}@example.com`, name: 'Grace' });
    await created(key, `/api/TestClock/${clock.id}/Customer`, { customerId: customer.id });
    const card = await created(key, `/api/Customer/${customer.id}/PaymentMethod`, { tokenRef: 'tok_visa' });
    subscriptionIds.push((await created(key, '/api/Subscription', { customerId: customer.id, priceId, paymentMethodId: card.id })).id);
  }
  return { id: clock.id as string, subscriptionIds };
}

describe('a test-clock Advance cut off by a crash', () => {
  it('is finished by a retry with the same Idempotency-Key, or else by the worker: every renewal exactly once', async () => {
    server = await startServer({ env: ENV });
    const dataDir = server.dataDir;
    const key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
    let db = database();

    const product = await created(key, '/api/Product', { name: 'Clock plan' });
    const price = await created(key, '/api/Price', { productId: product.id, type: 'Recurring', amount: 900, currency: 'USD', interval: 'month' });
    const retried = await clockWithSubscriptions(key, price.id, 40);
    const leftToWorker = await clockWithSubscriptions(key, price.id, 20);

    const renewed = async (subscriptionIds: string[]) => {
      const rows = await db
        .select({ subscriptionId: subscriptions.id, periodIndex: subscriptions.currentPeriodIndex })
        .from(subscriptions)
        .where(inArray(subscriptions.id, subscriptionIds));
      return rows.filter((row) => row.periodIndex === 1).length;
    };

    const retryKey = crypto.randomUUID();
    const workerKey = crypto.randomUUID();
    const cutOff = [
      call(key, 'POST', `/api/TestClock/${retried.id}/Advance`, { frozenTime: TARGET }, retryKey).catch(() => 'cut off'),
      call(key, 'POST', `/api/TestClock/${leftToWorker.id}/Advance`, { frozenTime: TARGET }, workerKey).catch(() => 'cut off'),
    ];
    await eventually(async () => (await renewed(retried.subscriptionIds)) >= 5, 60_000, 'five renewals of the first clock');
    await server.kill();
    expect(await Promise.all(cutOff)).toEqual(['cut off', 'cut off']);
    const renewedBeforeCrash = [await renewed(retried.subscriptionIds), await renewed(leftToWorker.subscriptionIds)];
    expect(renewedBeforeCrash[0]).toBeLessThan(40);
    expect(renewedBeforeCrash[1]).toBeLessThan(20);

    await pool!.end();
    server = await startServer({ env: ENV, dataDir });
    db = database();
    // The crashed request's Idempotency-Key lease (5 s) has lapsed while the server restarted.
    const retry = await call(key, 'POST', `/api/TestClock/${retried.id}/Advance`, { frozenTime: TARGET }, retryKey);
    expect(retry.status, retry.text).toBe(200);
    expect(retry.replayed).toBeNull();
    expect(retry.body).toMatchObject({ id: retried.id, frozenTime: TARGET, status: 'ready' });
    expect(await renewed(retried.subscriptionIds)).toBe(40);

    // Nobody retries the second clock's Advance: the worker finds it advancing and finishes it.
    await eventually(
      async () => (await call(key, 'GET', `/api/TestClock/${leftToWorker.id}`)).body.status === 'ready',
      150_000,
      'the worker finishing the second advance',
    );
    expect(await renewed(leftToWorker.subscriptionIds)).toBe(20);
    const late = await call(key, 'POST', `/api/TestClock/${leftToWorker.id}/Advance`, { frozenTime: TARGET }, workerKey);
    expect(late.status, late.text).toBe(200);
    expect(late.body).toMatchObject({ frozenTime: TARGET, status: 'ready', actionsRun: 0 });

    // Exactly once: two charges per subscription (periods 0 and 1) at the processor and in our books.
    for (const subscriptionId of [...retried.subscriptionIds, ...leftToWorker.subscriptionIds]) {
      const booked = await db
        .select({ key: sandboxProcessorOperations.idempotencyKey, status: sandboxProcessorOperations.status })
        .from(sandboxProcessorOperations)
        .where(like(sandboxProcessorOperations.idempotencyKey, `${subscriptionId}:%`));
      expect(
        booked.map((operation) => operation.status),
        subscriptionId,
      ).toEqual(['succeeded', 'succeeded']);
      const charged = await db
        .select({ key: payments.processorKey })
        .from(payments)
        .where(and(like(payments.processorKey, `${subscriptionId}:%`), eq(payments.status, 'succeeded')));
      expect(charged).toHaveLength(2);
    }

    const replayed = await call(key, 'POST', `/api/TestClock/${retried.id}/Advance`, { frozenTime: TARGET }, retryKey);
    expect(replayed.replayed).toBe('true');
    expect(replayed.text).toBe(retry.text);
  }, 480_000);
});
