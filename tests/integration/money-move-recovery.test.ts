import { afterEach, describe, expect, it, vi } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { plainPhases } from '@/lib/db/phases';
import {
  billingRecords,
  checkouts,
  payments,
  paymentMethods,
  sandboxProcessorOperations,
  subscriptionBillingRecords,
  subscriptions,
  testClocks,
} from '@/lib/db/schema';
import { SandboxProcessor } from '@/lib/payments/processor/sandbox';
import { finishPendingPayment } from '@/lib/payments/recovery';
import { completeCheckout } from '@/lib/checkout/checkouts';
import { commandSubscriptionInPhases, createSubscriptionInPhases } from '@/lib/subscriptions/charging-requests';
import { processSubscription } from '@/lib/subscriptions/renewals';
// Recovery finds each payment's kind of money move in the engine's registry: every kind is loaded.
import '@/lib/server/jobs/money-move-kinds';
import { newMerchant } from '../helpers/merchants';
import { oneTimePrice } from '../helpers/payments';
import { clockFor, customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

/**
 * Every kind of money move cut off between its phases, as a crash would leave it (docs/payments.md,
 * "Money moves"): before its charge reached the processor, or after the processor charged and
 * before the answer came back. Recovery then finishes it with its pinned plan: a customer-present
 * move the processor never saw is never charged; a merchant-initiated one is charged once; one
 * the processor charged is recorded, never charged again.
 */
afterEach(() => {
  vi.restoreAllMocks();
});

type Cut = 'before the processor' | 'after the processor';

/** The next charge of the sandbox is cut off: before it is made, or made and its answer lost. */
function cutNextCharge(cut: Cut) {
  const charge = SandboxProcessor.prototype.charge;
  vi.spyOn(SandboxProcessor.prototype, 'charge').mockImplementationOnce(async function (this: SandboxProcessor, input) {
    if (cut === 'after the processor') await charge.call(this, input);
    throw new Error('connection to the processor lost');
  });
}

/** Runs `move` with its charge cut off, then recovery; answers the payment and what the processor booked. */
async function cutAndRecover(merchantId: string, cut: Cut, move: () => Promise<unknown>) {
  cutNextCharge(cut);
  await expect(move()).rejects.toThrow('connection to the processor lost');
  const [pending] = await getDb()
    .select()
    .from(payments)
    .where(and(eq(payments.merchantId, merchantId), eq(payments.status, 'pending')));
  expect(pending, 'phase 1 committed the pending payment').toBeDefined();
  await finishPendingPayment(getDb(), pending!);
  const [settled] = await getDb().select().from(payments).where(eq(payments.id, pending!.id));
  const booked = await getDb().select().from(sandboxProcessorOperations).where(eq(sandboxProcessorOperations.idempotencyKey, pending!.processorKey!));
  return { payment: settled!, booked };
}

const CUTS: Cut[] = ['before the processor', 'after the processor'];

describe.each(CUTS)('recovery of a money move cut off %s', (cut) => {
  const reached = cut === 'after the processor';

  it('one-time checkout (customer present): charged only if the processor charged it before the cut', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 2500);
    const { payment, booked } = await cutAndRecover(merchant.id, cut, () =>
      completeCheckout(plainPhases(getDb()), merchant.id, { priceId: price.id, customerEmail: 'one@example.com', tokenRef: 'tok_visa' }),
    );
    expect(payment.status).toBe(reached ? 'succeeded' : 'failed');
    expect(booked.map((op) => op.status)).toEqual([reached ? 'succeeded' : 'failed']);
    const [checkout] = await getDb().select().from(checkouts).where(eq(checkouts.id, payment.checkoutId!));
    expect(checkout!.status).toBe(reached ? 'paid' : 'failed');
  });

  it('recurring checkout (customer present): the subscription exists only if the processor charged it', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1500 });
    const { payment, booked } = await cutAndRecover(merchant.id, cut, () =>
      completeCheckout(plainPhases(getDb()), merchant.id, { priceId: price.id, customerEmail: 'rec@example.com', tokenRef: 'tok_visa' }),
    );
    expect(payment.status).toBe(reached ? 'succeeded' : 'failed');
    expect(booked.map((op) => op.status)).toEqual([reached ? 'succeeded' : 'failed']);
    const subs = await getDb().select().from(subscriptions).where(eq(subscriptions.merchantId, merchant.id));
    expect(subs.map((sub) => sub.status)).toEqual(reached ? ['active'] : []);
  });

  it("a backend's subscription create (merchant-initiated): charged once and created", async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1900 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    const { payment, booked } = await cutAndRecover(merchant.id, cut, () =>
      createSubscriptionInPhases(plainPhases(getDb()), merchant.id, { customerId, priceId: price.id, paymentMethodId }, { actor: 'test' }),
    );
    expect(payment.status).toBe('succeeded');
    // Recovery asks first: a charge the processor made is found, not asked for again.
    expect(booked.map((op) => [op.status, op.requests])).toEqual([['succeeded', 1]]);
    const subs = await getDb().select().from(subscriptions).where(eq(subscriptions.customerId, customerId));
    expect(subs.map((sub) => [sub.status, sub.currentPeriodIndex])).toEqual([['active', 0]]);
  });

  it('a price change with a proration (merchant-initiated): charged once, applied as planned', async () => {
    const { api, merchant } = await newMerchant();
    const from = await recurringPrice(api, { amount: 1000 });
    const to = await recurringPrice(api, { amount: 3000, productId: from.productId });
    const { customerId } = await customerWithCard(api, merchant.id);
    await clockFor(api, customerId, '2025-03-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: from.id })).body;
    await getDb()
      .update(testClocks)
      .set({ frozenTime: new Date('2025-03-16T12:00:00Z') })
      .where(eq(testClocks.merchantId, merchant.id));
    const { payment, booked } = await cutAndRecover(merchant.id, cut, () =>
      commandSubscriptionInPhases(plainPhases(getDb()), merchant.id, sub.id, { type: 'ChangePrice', priceId: to.id }, 'test'),
    );
    expect(payment.status).toBe('succeeded');
    expect(booked).toHaveLength(1);
    const pinned = (payment.intent as { plan: { change: { amountDueNow: number } } }).plan.change;
    expect(payment.amount).toBe(pinned.amountDueNow);
    const [after] = await getDb().select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(after!.priceId).toBe(to.id);
    const [record] = await getDb().select().from(billingRecords).where(eq(billingRecords.paymentId, payment.id));
    expect(record).toMatchObject({ status: 'paid', amount: pinned.amountDueNow });
  });

  it('a renewal (merchant-initiated): the period billed once, charged once', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1200 });
    const { customerId } = await customerWithCard(api, merchant.id);
    await clockFor(api, customerId, '2025-01-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id })).body;
    await getDb()
      .update(testClocks)
      .set({ frozenTime: new Date('2025-02-01T00:00:00Z') })
      .where(eq(testClocks.merchantId, merchant.id));
    const { payment, booked } = await cutAndRecover(merchant.id, cut, () => processSubscription(getDb(), sub.id));
    expect(payment.status).toBe('succeeded');
    expect(booked.map((op) => op.status)).toEqual(['succeeded']);
    const links = await getDb()
      .select()
      .from(subscriptionBillingRecords)
      .where(and(eq(subscriptionBillingRecords.subscriptionId, sub.id), eq(subscriptionBillingRecords.periodIndex, 1)));
    expect(links).toHaveLength(1);
    const [after] = await getDb().select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(after).toMatchObject({ currentPeriodIndex: 1, status: 'active' });
    expect(await processSubscription(getDb(), sub.id)).toBe(0);
  });

  it('a dunning retry (merchant-initiated): the open record paid once', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 800 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    await clockFor(api, customerId, '2025-01-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id, paymentMethodId })).body;
    // The card starts declining (as a card that can be saved and declines every charge does): the renewal fails into dunning.
    const good = (await getDb().select().from(paymentMethods).where(eq(paymentMethods.id, paymentMethodId)))[0]!.processorToken;
    const declining = await new SandboxProcessor().tokenizeCard({ number: '4000000000000341', expMonth: 12, expYear: 2040, cvc: '123' });
    await getDb().update(paymentMethods).set({ processorToken: declining.token }).where(eq(paymentMethods.id, paymentMethodId));
    await getDb()
      .update(testClocks)
      .set({ frozenTime: new Date('2025-02-01T00:00:00Z') })
      .where(eq(testClocks.merchantId, merchant.id));
    await processSubscription(getDb(), sub.id);
    const [pastDue] = await getDb().select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(pastDue!.status).toBe('past_due');
    // The card is replaced; the retry is due and gets cut off.
    await getDb().update(paymentMethods).set({ processorToken: good }).where(eq(paymentMethods.id, paymentMethodId));
    await getDb()
      .update(testClocks)
      .set({ frozenTime: new Date('2025-02-10T00:00:00Z') })
      .where(eq(testClocks.merchantId, merchant.id));
    const { payment, booked } = await cutAndRecover(merchant.id, cut, () => processSubscription(getDb(), sub.id));
    expect(payment.status).toBe('succeeded');
    expect(booked.map((op) => op.status)).toEqual(['succeeded']);
    const [after] = await getDb().select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(after!.status).toBe('active');
    const retries = await getDb()
      .select()
      .from(sandboxProcessorOperations)
      .where(like(sandboxProcessorOperations.idempotencyKey, `${sub.id}:%:a2`));
    expect(retries).toHaveLength(1);
  });
});
