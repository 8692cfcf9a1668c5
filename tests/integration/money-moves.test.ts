import crypto from 'node:crypto';
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingRecords, events, payments, refunds, sandboxProcessorOperations, subscriptionChanges, subscriptions } from '@/lib/db/schema';
import { startServer, type RunningServer } from '../setup/server';
import { eventually } from '../helpers/webhook-receiver';
import { call } from '../helpers/api';
import { serverPool, serverDatabase } from '../helpers/server-pool';

/**
 * The money-move engine against a processor as slow as a real one (1.5 s a call), on real time
 * (docs/payments.md, "Money moves"): phase 3 applies the plan pinned in phase 1, whatever
 * happened meanwhile, and recovery finishes what a crash cut off with that same plan.
 */
const LATENCY_MS = 1_500;
const ENV = {
  SANDBOX_PROCESSOR_LATENCY_MS: String(LATENCY_MS),
  // Longer than any processor call, so recovery never races a request still in phase 2.
  PAYMENT_PENDING_RECONCILE_AFTER_MS: '5000',
  PAYMENT_RECONCILE_DELAY_MS: '200',
  PAYMENT_RECOVERY_MAX_ATTEMPTS: '2',
};

let server: RunningServer;
let pool: pg.Pool | undefined;
let key: string;

beforeAll(async () => {
  server = await startServer({ env: ENV });
  key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
}, 240_000);

afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

const api = (method: string, path: string, body?: unknown) =>
  call(method, path, { key, body, headers: { 'idempotency-key': crypto.randomUUID() }, baseUrl: server.baseUrl });

/** The same data on a server started again with `env` (killed first unless it was already). */
async function restart(env: Record<string, string>, options: { killed?: boolean } = {}) {
  await pool?.end();
  pool = undefined;
  if (!options.killed) await server.kill();
  server = await startServer({ env, dataDir: server.dataDir });
  key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
}

function database() {
  pool ??= serverPool(server.databaseUrl, 2);
  return serverDatabase(pool);
}

async function twoPrices(amounts: [number, number]) {
  const product = (await api('POST', '/api/Product', { name: `Plan ${crypto.randomUUID().slice(0, 6)}` })).body;
  const [from, to] = await Promise.all(
    amounts.map(async (amount) => {
      const price = await api('POST', '/api/Price', { productId: product.id, type: 'Recurring', amount, currency: 'USD', interval: 'month' });
      expect(price.status, price.text).toBe(201);
      return price.body.id as string;
    }),
  );
  return { from: from!, to: to! };
}

/** A customer with a saved card, subscribed (and charged) on `priceId`. */
async function subscribed(priceId: string, tokenRef = 'tok_visa') {
  const customer = (await api('POST', '/api/Customer', { email: `c-${crypto.randomUUID()}@example.com`, name: 'Ada' })).body;
  const method = await api('POST', `/api/Customer/${customer.id}/PaymentMethod`, { tokenRef });
  expect(method.status, method.text).toBe(201);
  const sub = await api('POST', '/api/Subscription', { customerId: customer.id, priceId, paymentMethodId: method.body.id });
  expect(sub.status, sub.text).toBe(201);
  return sub.body as { id: string; version: string; customerId: string };
}

const changePrice = (sub: { id: string; version: string }, priceId: string) =>
  api('POST', `/api/Subscription/${sub.id}/Command`, { type: 'ChangePrice', priceId, expectedVersion: sub.version });

/** The proration charge of a subscription: its payment, its billing record and what the processor booked. */
async function prorationOf(subscriptionId: string) {
  const db = database();
  const [sub] = await db.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId));
  const charged = await db
    .select()
    .from(payments)
    .where(and(eq(payments.customerId, sub!.customerId), like(payments.description, 'Proration:%')));
  const records = charged.length
    ? await db
        .select()
        .from(billingRecords)
        .where(
          inArray(
            billingRecords.paymentId,
            charged.map((p) => p.id),
          ),
        )
    : [];
  const booked = await db
    .select()
    .from(sandboxProcessorOperations)
    .where(like(sandboxProcessorOperations.idempotencyKey, `${subscriptionId}:v%:proration`));
  return { sub: sub!, charged, records, booked };
}

describe('money moves with a slow processor', () => {
  it('upgrades 16 subscriptions mid-period at different moments: every answer 2xx, each charged once, recorded as charged', async () => {
    const prices = await twoPrices([100_000, 1_000_000]);
    const subs = await Promise.all(Array.from({ length: 16 }, () => subscribed(prices.from)));
    // Each upgrade starts at its own millisecond, so each proration is computed for another instant.
    const answers = await Promise.all(subs.map((sub, i) => new Promise((resolve) => setTimeout(resolve, i * 37)).then(() => changePrice(sub, prices.to))));
    expect(answers.map((answer) => answer.status)).toEqual(Array(16).fill(200));
    for (const [i, sub] of subs.entries()) {
      const { sub: row, charged, records, booked } = await prorationOf(sub.id);
      expect(row.priceId).toBe(prices.to);
      expect(charged).toHaveLength(1);
      expect(charged[0]!.status).toBe('succeeded');
      expect(booked).toHaveLength(1);
      // What was recorded is what was charged, to the minor unit, and what the answer said.
      expect(booked[0]!.amount).toBe(charged[0]!.amount);
      expect(records).toHaveLength(1);
      expect(records[0]!.amount).toBe(booked[0]!.amount);
      expect(records[0]!.status).toBe('paid');
      expect(answers[i]!.body.change).toMatchObject({ type: 'ChangePrice', status: 'applied', toPriceId: prices.to });
    }
  }, 180_000);

  it('a command between phase 1 and phase 3 changes other things: the upgrade still applies as planned', async () => {
    const prices = await twoPrices([2_000, 5_000]);
    const sub = await subscribed(prices.from);
    const upgrading = changePrice(sub, prices.to);
    // Phase 1 committed (the payment is pending) and the processor is being asked: another command comes in.
    await eventually(async () => (await prorationOf(sub.id)).charged.some((p) => p.status === 'pending'), 10_000, 'the proration pending');
    const paused = await api('POST', `/api/Subscription/${sub.id}/Command`, { type: 'Pause' });
    expect(paused.status, paused.text).toBe(200);
    const upgraded = await upgrading;
    expect(upgraded.status, upgraded.text).toBe(200);
    expect(upgraded.body.change).toMatchObject({ status: 'applied', toPriceId: prices.to });
    const after = (await api('GET', `/api/Subscription/${sub.id}`)).body;
    expect(after).toMatchObject({ priceId: prices.to, pausedAt: expect.any(String) });
    expect(Number(after.version)).toBe(Number(sub.version) + 2);
    const { charged, records } = await prorationOf(sub.id);
    expect(charged.map((p) => p.status)).toEqual(['succeeded']);
    expect(records[0]!.amount).toBe(charged[0]!.amount);
  }, 60_000);

  it('a subscription canceled between the phases: the charge is recorded, the change is not applied, the proration is refunded', async () => {
    const prices = await twoPrices([2_000, 5_000]);
    const sub = await subscribed(prices.from);
    const upgrading = changePrice(sub, prices.to);
    await eventually(async () => (await prorationOf(sub.id)).charged.some((p) => p.status === 'pending'), 10_000, 'the proration pending');
    const canceled = await api('POST', `/api/Subscription/${sub.id}/Cancel`, { immediate: true });
    expect(canceled.status, canceled.text).toBe(200);
    const upgraded = await upgrading;
    expect(upgraded.status, upgraded.text).toBe(200);
    expect(upgraded.body.change).toMatchObject({ status: 'canceled', toPriceId: prices.to, reason: expect.stringContaining('refunded') });
    const db = database();
    const { sub: row, charged, records } = await prorationOf(sub.id);
    expect(row).toMatchObject({ status: 'ended', priceId: prices.from });
    expect(records[0]).toMatchObject({ status: 'paid', amount: charged[0]!.amount });
    // The decision is visible: a refund of the whole charge, requested in the same transaction and finished by the worker.
    const refunded = await eventually(
      async () => {
        const rows = await db.select().from(refunds).where(eq(refunds.paymentId, charged[0]!.id));
        return rows[0]?.status === 'succeeded' && rows;
      },
      30_000,
      'the proration refunded',
    );
    expect(refunded).toHaveLength(1);
    expect(refunded[0]!.amount).toBe(charged[0]!.amount);
    const changes = await db
      .select()
      .from(subscriptionChanges)
      .where(and(eq(subscriptionChanges.subscriptionId, sub.id), eq(subscriptionChanges.type, 'ChangePrice')));
    expect(changes.map((change) => change.status)).toEqual(['canceled']);
  }, 60_000);

  it('a crash during the proration charge is finished by recovery with the pinned plan, charged once', async () => {
    const prices = await twoPrices([3_000, 9_000]);
    const sub = await subscribed(prices.from);
    // A processor slow enough that the test sees the pending charge and kills the server before it answers.
    await restart({ ...ENV, SANDBOX_PROCESSOR_LATENCY_MS: '8000' });
    const upgrading = changePrice(sub, prices.to).catch(() => 'cut off');
    await eventually(async () => (await prorationOf(sub.id)).charged.some((p) => p.status === 'pending'), 10_000, 'the proration pending');
    const [pending] = (await prorationOf(sub.id)).charged;
    const pinned = (pending!.intent as { plan: { change: { amountDueNow: number } } }).plan;
    await server.kill();
    expect(await upgrading).toBe('cut off');
    await restart(ENV, { killed: true });
    // A seller's backend asked for it (merchant-initiated): recovery may charge, with the same processor key.
    const finished = await eventually(
      async () => {
        const state = await prorationOf(sub.id);
        return state.sub.priceId === prices.to && state;
      },
      120_000,
      'the upgrade finished by recovery',
    );
    expect(finished.charged).toHaveLength(1);
    expect(finished.charged[0]).toMatchObject({ id: pending!.id, status: 'succeeded', amount: pinned.change.amountDueNow });
    expect(finished.booked).toHaveLength(1);
    expect(finished.records[0]!.amount).toBe(finished.booked[0]!.amount);
    const outcome = await database()
      .select()
      .from(events)
      .where(and(eq(events.type, 'payment.succeeded'), eq(events.merchantId, pending!.merchantId), sql`${events.data}->'object'->>'id' = ${pending!.id}`));
    expect(outcome).toHaveLength(1);
  }, 240_000);

  it('gives up loudly on a charge the processor never settles: needs_review, then settled by a person', async () => {
    const link = (await api('POST', '/api/PaymentLink', { name: 'Consulting hour', unitAmount: 15_000, currency: 'USD' })).body;
    const paying = await api('POST', `/api/PaymentLink/${link.id}/Complete`, {
      customerEmail: `p-${crypto.randomUUID()}@example.com`,
      tokenRef: 'tok_processing_error',
    });
    expect(paying.status, paying.text).toBe(201);
    expect(paying.body.payment).toMatchObject({ status: 'unknown' });
    const paymentId = paying.body.payment.id as string;
    const db = database();
    const reviewed = await eventually(
      async () => {
        const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
        return row?.status === 'needs_review' && row;
      },
      60_000,
      'the payment handed to a person',
    );
    expect(reviewed.recoveryAttempts).toBe(2);
    expect(reviewed.review).toMatchObject({ from: 'unknown', reason: expect.stringContaining('cannot tell') });
    expect((await api('GET', `/api/Payment/${paymentId}`)).body.status).toBe('needs_review');
  }, 90_000);
});
