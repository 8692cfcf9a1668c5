import crypto from 'node:crypto';
import { and, eq, like, sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { customers, idempotencyKeys, payments, sandboxProcessorOperations, subscriptions } from '@/lib/db/schema';
import { savePaymentMethod } from '@/lib/payments/payment-methods';
import { SandboxProcessor } from '@/lib/payments/processor/sandbox';
import { startServer, type RunningServer } from '../setup/server';
import { eventually } from '../helpers/webhook-receiver';
import { call as callApi } from '../helpers/api';
import { serverPool, serverDatabase } from '../helpers/server-pool';

/**
 * A subscription create cut off between phase 1 and phase 3 (SIGKILL while the slow sandbox
 * charges), retried with the same Idempotency-Key once the in-progress lock has timed out: the
 * retry takes the key over and finishes the earlier attempt's charge. One subscription, one
 * charge, and the retry's answer is stored for later replays.
 */
const ENV = { SANDBOX_PROCESSOR_LATENCY_MS: '3000' };

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

// Through the suite's `call()`, so every answer (also across the crash) is held to the OpenAPI document.
async function call(key: string, method: string, path: string, body?: unknown, idempotencyKey: string = crypto.randomUUID()) {
  const answer = await callApi(method, path, { key, body, headers: { 'idempotency-key': idempotencyKey }, baseUrl: server!.baseUrl });
  return { status: answer.status, replayed: answer.headers.get('idempotent-replayed'), text: answer.text };
}

describe('subscription create taken over after a crash', () => {
  it('finishes the crashed attempt instead of creating and charging a second subscription', async () => {
    server = await startServer({ env: ENV });
    const dataDir = server.dataDir;
    const key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
    let db = database();

    const product = JSON.parse((await call(key, 'POST', '/api/Product', { name: 'Pro plan' })).text);
    const price = JSON.parse(
      (await call(key, 'POST', '/api/Price', { productId: product.id, type: 'Recurring', amount: 1900, currency: 'USD', interval: 'month' })).text,
    );
    const customer = JSON.parse((await call(key, 'POST', '/api/Customer', { email: 'grace@example.com', name: 'Grace' })).text);
    const [owner] = await db.select({ merchantId: customers.merchantId }).from(customers).where(eq(customers.id, customer.id));
    const card = await new SandboxProcessor().tokenizeCard({ number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' });
    const method = await db.transaction((tx) => savePaymentMethod(tx, owner!.merchantId, customer.id, card));

    const idempotencyKey = crypto.randomUUID();
    const body = { customerId: customer.id, priceId: price.id, paymentMethodId: method.id };
    const cutOff = call(key, 'POST', '/api/Subscription', body, idempotencyKey).catch(() => 'cut off');
    // Phase 1 committed the pending charge; the sandbox is still answering (phase 2).
    const pending = await eventually(
      async () => {
        const [row] = await db
          .select()
          .from(payments)
          .where(and(eq(payments.customerId, customer.id), eq(payments.status, 'pending')));
        return row;
      },
      20_000,
      'the pending subscription charge',
    );
    await server.kill();
    expect(await cutOff).toBe('cut off');
    const subscriptionId = (pending.intent as { plan: { period: { subscriptionId: string } } }).plan.period.subscriptionId;

    await pool!.end();
    server = await startServer({ env: ENV, dataDir });
    db = database();
    // The crashed execution's claim is older than the in-progress timeout (2 min): as time would make it.
    await db
      .update(idempotencyKeys)
      .set({ lockedAt: sql`${idempotencyKeys.lockedAt} - interval '3 minutes'` })
      .where(eq(idempotencyKeys.key, idempotencyKey));

    const retried = await call(key, 'POST', '/api/Subscription', body, idempotencyKey);
    expect(retried.status, retried.text).toBe(201);
    expect(JSON.parse(retried.text).id).toBe(subscriptionId);
    expect(JSON.parse(retried.text).status).toBe('active');

    const created = await db.select().from(subscriptions).where(eq(subscriptions.customerId, customer.id));
    expect(created.map((row) => row.id)).toEqual([subscriptionId]);
    const charged = await db.select().from(payments).where(eq(payments.customerId, customer.id));
    expect(charged.map((row) => [row.id, row.status])).toEqual([[pending.id, 'succeeded']]);
    const booked = await db
      .select()
      .from(sandboxProcessorOperations)
      .where(like(sandboxProcessorOperations.idempotencyKey, `${subscriptionId}%`));
    expect(booked.map((op) => [op.status, op.amount])).toEqual([['succeeded', 1900]]);

    const replayed = await call(key, 'POST', '/api/Subscription', body, idempotencyKey);
    expect(replayed.status).toBe(201);
    expect(replayed.replayed).toBe('true');
    expect(replayed.text).toBe(retried.text);
  }, 240_000);
});
