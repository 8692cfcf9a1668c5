import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, billingRecords, checkouts, events, merchants, payments, type PaymentReview } from '@/lib/db/schema';
import { ensureAdmin } from '@/lib/admins/admins';
import { runInRequestContext } from '@/lib/audit/request-context';
import { listPaymentsToReview, settlePaymentAfterReview } from '@/lib/operator/payment-review';
import { loadPlatformOverview } from '@/lib/operator/platform-overview';
// Settling applies the payment's kind of money move: every kind is registered here, as in the console.
import '@/lib/server/jobs/money-move-kinds';
import { startServer, type RunningServer } from '../setup/server';
import { eventually } from '../helpers/webhook-receiver';
import { call } from '../helpers/api';
import { serverPool, serverDatabase } from '../helpers/server-pool';

/**
 * Payments recovery gives up on (docs/operations.md, "Payments that need review"): the operator
 * console lists them across sellers and a person settles each, with its checkout and billing
 * record following and an audit entry naming the admin. A server of its own, so recovery gives up
 * after two tries a few seconds apart (production: 20).
 */
const ENV = {
  SANDBOX_PROCESSOR_LATENCY_MS: '1000',
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

function database() {
  pool ??= serverPool(server.databaseUrl, 4);
  return serverDatabase(pool);
}

async function oneTimePrice(amount: number) {
  const product = await api('POST', '/api/Product', { name: `Lamp ${crypto.randomUUID().slice(0, 6)}` });
  const price = await api('POST', '/api/Price', { productId: product.body.id, type: 'OneTime', amount, currency: 'EUR' });
  expect(price.status, price.text).toBe(201);
  return price.body.id as string;
}

const checkout = (priceId: string, tokenRef: string, customerEmail = `buyer-${crypto.randomUUID()}@example.com`) =>
  api('POST', '/api/Checkout', { priceId, customerEmail, tokenRef });

async function paymentRow(paymentId: string) {
  const [row] = await database().select().from(payments).where(eq(payments.id, paymentId));
  return row!;
}

/** The payment, its checkout and its billing record as they are now. */
async function settled(paymentId: string) {
  const db = database();
  const payment = await paymentRow(paymentId);
  const [checkoutRow] = await db.select().from(checkouts).where(eq(checkouts.paymentId, paymentId));
  const records = await db.select().from(billingRecords).where(eq(billingRecords.paymentId, paymentId));
  const outcomeEvents = await db
    .select({ type: events.type })
    .from(events)
    .where(and(eq(events.merchantId, payment.merchantId), sql`${events.data}->'object'->>'id' = ${paymentId}`));
  return { payment, checkout: checkoutRow!, records, eventTypes: outcomeEvents.map((event) => event.type) };
}

/** A charge the processor never settles, handed to a person after two tries (nothing else touches it). */
async function paymentNeedingReview(priceId: string, customerEmail?: string) {
  const paying = await checkout(priceId, 'tok_processing_error', customerEmail);
  expect(paying.status, paying.text).toBe(201);
  expect(paying.body.payment).toMatchObject({ status: 'unknown' });
  const paymentId = paying.body.payment.id as string;
  return eventually(
    async () => {
      const row = await paymentRow(paymentId);
      return row.status === 'needs_review' && row;
    },
    60_000,
    'the payment handed to a person',
  );
}

/**
 * The pending payment of `amount` a request is charging (phase 1 committed, the processor is being
 * asked: 1 s), handed to a person as recovery does when it gives up on a pending move (its
 * processor unreachable at every try).
 */
async function handedOverWhilePending(amount: number) {
  const db = database();
  const pending = await eventually(
    async () => {
      const [row] = await db
        .select()
        .from(payments)
        .where(and(eq(payments.status, 'pending'), eq(payments.amount, amount)));
      return row;
    },
    10_000,
    'the pending payment',
  );
  const review: PaymentReview = { from: 'pending', reason: 'connect ECONNREFUSED (the processor)', at: new Date().toISOString() };
  const handed = await db
    .update(payments)
    .set({ status: 'needs_review', review, recoveryAttempts: 2 })
    .where(and(eq(payments.id, pending.id), eq(payments.status, 'pending')))
    .returning({ id: payments.id });
  expect(handed).toHaveLength(1);
  return pending;
}

/** Runs `work` as a console server action of `admin` does (the audit entry's actor). */
function asAdmin<T>(admin: { id: string; name: string }, work: () => Promise<T>) {
  return runInRequestContext({ requestId: `req_${crypto.randomUUID()}`, ip: '198.18.0.9', actor: { kind: 'admin', id: admin.id } }, work);
}

async function reviewer() {
  const admin = await ensureAdmin(database(), { name: `reviewer-${crypto.randomBytes(4).toString('hex')}`, password: 'a long admin password' });
  return admin!;
}

describe('payments that need review', () => {
  it('a charge the processor never settles ends needs_review, is listed across sellers, and settles as charged: checkout paid, record paid, audited', async () => {
    const db = database();
    const priceId = await oneTimePrice(15_000);
    const customerEmail = `ada-${crypto.randomUUID()}@example.com`;
    const reviewed = await paymentNeedingReview(priceId, customerEmail);
    expect(reviewed.recoveryAttempts).toBe(2);
    expect(reviewed.review).toMatchObject({ from: 'unknown', reason: expect.stringContaining('cannot tell') });
    // Until a person decides, the checkout stays open and its billing record open.
    expect(await settled(reviewed.id)).toMatchObject({ checkout: { status: 'open' }, records: [{ status: 'open', amount: 15_000 }] });

    const [seller] = await db.select().from(merchants).where(eq(merchants.id, reviewed.merchantId));
    const listed = (await listPaymentsToReview(db)).data.find((payment) => payment.id === reviewed.id);
    expect(listed).toMatchObject({
      sellerName: seller!.name,
      customerEmail,
      amount: 15_000,
      currency: 'EUR',
      recoveryAttempts: 2,
      processorKey: reviewed.processorKey,
      review: { from: 'unknown' },
    });
    const overview = await loadPlatformOverview(db, { range: '7d', at: new Date() });
    expect(overview.reconciliation.needsReview).toBeGreaterThanOrEqual(1);

    const admin = await reviewer();
    const after = await asAdmin(admin, () => settlePaymentAfterReview(db, { paymentId: reviewed.id, outcome: 'succeeded' }));
    expect(after).toMatchObject({ id: reviewed.id, status: 'succeeded' });
    const state = await settled(reviewed.id);
    expect(state.checkout.status).toBe('paid');
    expect(state.records).toMatchObject([{ status: 'paid', amount: 15_000 }]);
    expect(state.eventTypes).toContain('payment.succeeded');
    expect((await listPaymentsToReview(db)).data.map((payment) => payment.id)).not.toContain(reviewed.id);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'payment.review_settled'), eq(auditLog.targetId, reviewed.id)));
    expect(entry).toMatchObject({
      merchantId: reviewed.merchantId,
      actorKind: 'admin',
      actorId: admin.id,
      actorLabel: admin.name,
      metadata: { outcome: 'succeeded', amount: 15_000, currency: 'EUR', from: 'unknown' },
    });

    // Settled once: a second decision (another admin's, a double submit) changes nothing.
    await expect(asAdmin(admin, () => settlePaymentAfterReview(db, { paymentId: reviewed.id, outcome: 'failed' }))).rejects.toMatchObject({
      code: 'INVALID_STATE',
    });
    expect((await paymentRow(reviewed.id)).status).toBe('succeeded');
    expect(await db.select().from(auditLog).where(eq(auditLog.targetId, reviewed.id))).toHaveLength(1);
  }, 120_000);

  it('settled as not charged: the payment fails, the checkout fails and the billing record is void', async () => {
    const db = database();
    const reviewed = await paymentNeedingReview(await oneTimePrice(4_200));
    const admin = await reviewer();
    const after = await asAdmin(admin, () => settlePaymentAfterReview(db, { paymentId: reviewed.id, outcome: 'failed' }));
    expect(after).toMatchObject({ status: 'failed', failureCode: 'settled_by_review' });
    const state = await settled(reviewed.id);
    expect(state.checkout.status).toBe('failed');
    expect(state.records).toMatchObject([{ status: 'void' }]);
    expect(state.eventTypes).toContain('payment.failed');
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.targetId, reviewed.id));
    expect(entry).toMatchObject({ actorLabel: admin.name, metadata: { outcome: 'failed' } });
  }, 120_000);

  it('a payment whose outcome was never recorded (recovery gave up on it while pending) is applied with the decision', async () => {
    const db = database();
    const priceId = await oneTimePrice(2_500);
    const paying = checkout(priceId, 'tok_visa');
    const pending = await handedOverWhilePending(2_500);
    // The request's phase 3 finds the payment no longer pending and answers what is recorded: no 5xx.
    const answered = await paying;
    expect(answered.status, answered.text).toBeLessThan(500);
    expect((await paymentRow(pending.id)).status).toBe('needs_review');

    const admin = await reviewer();
    const after = await asAdmin(admin, () => settlePaymentAfterReview(db, { paymentId: pending.id, outcome: 'succeeded' }));
    expect(after).toMatchObject({ status: 'succeeded' });
    const state = await settled(pending.id);
    expect(state.checkout.status).toBe('paid');
    expect(state.records).toMatchObject([{ status: 'paid', amount: 2_500 }]);
    expect(state.eventTypes).toContain('payment.succeeded');
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.targetId, pending.id));
    expect(entry).toMatchObject({ actorLabel: admin.name, metadata: { outcome: 'succeeded', from: 'pending' } });
  }, 120_000);

  it('a first subscription charge whose outcome was never recorded: 503 until a person settles it, then the same key answers the subscription', async () => {
    const db = database();
    const product = await api('POST', '/api/Product', { name: `Plan ${crypto.randomUUID().slice(0, 6)}` });
    const price = await api('POST', '/api/Price', { productId: product.body.id, type: 'Recurring', amount: 3_700, currency: 'EUR', interval: 'month' });
    expect(price.status, price.text).toBe(201);
    const idempotencyKey = crypto.randomUUID();
    const subscribe = () =>
      call('POST', '/api/Checkout', {
        key,
        body: { priceId: price.body.id, customerEmail: `subscriber-${idempotencyKey}@example.com`, tokenRef: 'tok_visa' },
        headers: { 'idempotency-key': idempotencyKey },
        baseUrl: server.baseUrl,
      });
    const paying = subscribe();
    const pending = await handedOverWhilePending(3_700);
    // Its checkout and subscription are written in phase 3, which cannot run: no outcome to answer yet.
    const waiting = await paying;
    expect(waiting.status, waiting.text).toBe(503);
    expect(waiting.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', reason: 'payment_needs_review', paymentId: pending.id });
    const retried = await subscribe();
    expect(retried.status, retried.text).toBe(503);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();

    const after = await asAdmin(await reviewer(), () => settlePaymentAfterReview(db, { paymentId: pending.id, outcome: 'succeeded' }));
    expect(after).toMatchObject({ status: 'succeeded' });
    const state = await settled(pending.id);
    expect(state.checkout.status).toBe('paid');
    expect(state.records).toMatchObject([{ status: 'paid', amount: 3_700 }]);
    const answered = await subscribe();
    expect(answered.status, answered.text).toBe(201);
    expect(answered.body).toMatchObject({ id: state.checkout.id, payment: { id: pending.id, status: 'succeeded' } });
    const subscription = await api('GET', `/api/Subscription/${state.checkout.subscriptionId}`);
    expect(subscription.body).toMatchObject({ status: 'active', priceId: price.body.id });
    // One payment: neither the retries nor the settling prepared or charged another.
    const customerPayments = await db.select({ id: payments.id }).from(payments).where(eq(payments.customerId, pending.customerId!));
    expect(customerPayments).toEqual([{ id: pending.id }]);
  }, 120_000);

  it('a payment whose plan no kind can read is refused with the reason, and nothing changes', async () => {
    const db = database();
    const reviewed = await paymentNeedingReview(await oneTimePrice(990));
    // As a payment pinned by an older version with a kind this one no longer has would be.
    await db
      .update(payments)
      .set({ intent: { kind: 'retired_kind', plan: {} } })
      .where(eq(payments.id, reviewed.id));
    const admin = await reviewer();
    await expect(asAdmin(admin, () => settlePaymentAfterReview(db, { paymentId: reviewed.id, outcome: 'succeeded' }))).rejects.toMatchObject({
      code: 'INVALID_STATE',
      detail: expect.stringContaining('cannot be settled from the console'),
    });
    expect(await settled(reviewed.id)).toMatchObject({ payment: { status: 'needs_review' }, checkout: { status: 'open' }, records: [{ status: 'open' }] });
    expect(await db.select().from(auditLog).where(eq(auditLog.targetId, reviewed.id))).toEqual([]);
  }, 120_000);
});
