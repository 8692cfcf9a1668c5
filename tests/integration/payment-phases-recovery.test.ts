import { afterEach, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { plainPhases } from '@/lib/db/phases';
import { billingRecords, checkouts, payments, refunds, sandboxProcessorOperations, subscriptions, testClocks } from '@/lib/db/schema';
import { SandboxProcessor } from '@/lib/payments/processor/sandbox';
import { processSubscription } from '@/lib/subscriptions/renewals';
import { finishPendingPayment } from '@/lib/payments/recovery';
// Recovery finds each payment's kind of money move in the engine's registry: every kind is loaded.
import '@/lib/server/jobs/money-move-kinds';
import { completeCheckout, finishCheckout } from '@/lib/checkout/checkouts';
import { finishRefund, refundPayment } from '@/lib/payments/refunds';
import { newMerchant } from '../helpers/merchants';
import { adHocLink, eventsOf, ik, oneTimePrice } from '../helpers/payments';
import { clockFor, customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

/**
 * Domain tests of the recovery of money moves cut off between phase 1 and phase 3 (the
 * checkout's is a SIGKILL test in payment-phases.test.ts). The cut is a processor call that
 * never returns an answer to this process: the request fails after phase 1 committed, as it
 * would if the process died there.
 */
afterEach(() => {
  vi.restoreAllMocks();
});

const lostAnswer = () => Promise.reject(new Error('connection to the processor lost'));

describe('finishing interrupted money moves', () => {
  it('finishes a renewal cut off after its pending payment committed: one charge, period moved once', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1200 });
    const { customerId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2025-01-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id })).body;
    await getDb()
      .update(testClocks)
      .set({ frozenTime: new Date('2025-02-01T00:00:00Z') })
      .where(eq(testClocks.id, clock));

    vi.spyOn(SandboxProcessor.prototype, 'charge').mockImplementationOnce(lostAnswer);
    await expect(processSubscription(getDb(), sub.id)).rejects.toThrow('connection to the processor lost');
    const [pending] = await getDb()
      .select()
      .from(payments)
      .where(and(eq(payments.customerId, customerId), eq(payments.status, 'pending')));
    expect(pending).toMatchObject({
      amount: 1200,
      processorKey: `${sub.id}:p1:a1`,
      intent: { kind: 'subscription-renewal', plan: { subscriptionId: sub.id, periodIndex: 1, unitAmount: 1200 } },
    });
    // Phase 1 moved the period, so no other run renews it while its charge is out.
    const [before] = await getDb().select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(before!.currentPeriodIndex).toBe(1);
    expect(await processSubscription(getDb(), sub.id)).toBe(0);

    await finishPendingPayment(getDb(), pending!);
    const [settled] = await getDb().select().from(payments).where(eq(payments.id, pending!.id));
    expect(settled!.status).toBe('succeeded');
    const [after] = await getDb().select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    expect(after).toMatchObject({ currentPeriodIndex: 1, status: 'active' });
    const booked = await getDb()
      .select()
      .from(sandboxProcessorOperations)
      .where(eq(sandboxProcessorOperations.idempotencyKey, `${sub.id}:p1:a1`));
    expect(booked).toHaveLength(1);
    // Running the engine again finds nothing more to charge.
    expect(await processSubscription(getDb(), sub.id)).toBe(0);
  });

  it('finishes a refund cut off after it was requested; meanwhile its amount stays reserved', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 3000);
    const paid = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'r@example.com', tokenRef: 'tok_visa' }, ik());
    expect(paid.status, paid.text).toBe(201);
    const paymentId = paid.body.payment.id as string;

    vi.spyOn(SandboxProcessor.prototype, 'refund').mockImplementationOnce(lostAnswer);
    await expect(refundPayment(plainPhases(getDb()), merchant.id, paymentId, { amount: 2000 })).rejects.toThrow('connection to the processor lost');
    const [requested] = await getDb().select().from(refunds).where(eq(refunds.paymentId, paymentId));
    expect(requested!.status).toBe('requested');
    // The requested refund holds its share: only 1000 is left to refund.
    const over = await api.post(`/api/Payment/${paymentId}/Refund`, { amount: 1500 }, ik());
    expect(over.status).toBe(400);

    const finished = await finishRefund(plainPhases(getDb()), requested!.id);
    expect(finished).toMatchObject({ status: 'succeeded', amount: 2000 });
    const [payment] = await getDb().select().from(payments).where(eq(payments.id, paymentId));
    expect(payment).toMatchObject({ status: 'partially_refunded', amountRefunded: 2000 });
    const booked = await getDb().select().from(sandboxProcessorOperations).where(eq(sandboxProcessorOperations.idempotencyKey, requested!.id));
    expect(booked).toHaveLength(1);
    // Finishing again changes nothing.
    expect(await finishRefund(plainPhases(getDb()), requested!.id)).toMatchObject({ status: 'succeeded' });
    const [again] = await getDb().select().from(payments).where(eq(payments.id, paymentId));
    expect(again!.amountRefunded).toBe(2000);
  });

  it('records a checkout cut off after phase 1 once when a late request and the recovery race: both answer what the processor did', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 2500);
    vi.spyOn(SandboxProcessor.prototype, 'charge').mockImplementationOnce(lostAnswer);
    await expect(
      completeCheckout(plainPhases(getDb()), merchant.id, { priceId: price.id, customerEmail: 'race@example.com', tokenRef: 'tok_visa' }),
    ).rejects.toThrow('connection to the processor lost');
    const [pending] = await getDb()
      .select()
      .from(payments)
      .where(and(eq(payments.merchantId, merchant.id), eq(payments.status, 'pending')));
    expect(pending).toMatchObject({ amount: 2500, intent: { kind: 'checkout', plan: { savePaymentMethod: false } } });

    // A late request (it charges) and the recovery (the customer is present: it cancels what the
    // processor never saw) finish it at the same moment. Whichever reaches the processor first
    // decides, and both record and answer that.
    const [first] = await Promise.all([finishCheckout(plainPhases(getDb()), pending!), finishPendingPayment(getDb(), pending!)]);
    const booked = await getDb().select().from(sandboxProcessorOperations).where(eq(sandboxProcessorOperations.idempotencyKey, pending!.processorKey!));
    expect(booked).toHaveLength(1);
    const charged = booked[0]!.status === 'succeeded';
    expect(first.checkout).toMatchObject({
      status: charged ? 'paid' : 'failed',
      paid: charged,
      payment: { id: pending!.id, status: charged ? 'succeeded' : 'failed' },
    });
    const again = await finishCheckout(plainPhases(getDb()), pending!);
    expect(again.checkout).toEqual(first.checkout);
    expect(await getDb().select().from(billingRecords).where(eq(billingRecords.paymentId, pending!.id))).toHaveLength(charged ? 1 : 0);
    expect(await eventsOf(merchant.id, charged ? 'payment.succeeded' : 'payment.failed')).toHaveLength(1);
    expect(await eventsOf(merchant.id, charged ? 'payment.failed' : 'payment.succeeded')).toHaveLength(0);
  });

  it('never charges a customer-present checkout the processor never saw: it fails, gives back its slot, and a late charge is refused', async () => {
    const { api, merchant } = await newMerchant();
    const link = await adHocLink(api, { maxCompletions: 1 });
    // The request dies before its charge reaches the processor.
    vi.spyOn(SandboxProcessor.prototype, 'charge').mockImplementationOnce(lostAnswer);
    await expect(
      completeCheckout(plainPhases(getDb()), merchant.id, { paymentLinkToken: link.token, customerEmail: 'left@example.com', tokenRef: 'tok_visa' }),
    ).rejects.toThrow('connection to the processor lost');
    const [pending] = await getDb()
      .select()
      .from(payments)
      .where(and(eq(payments.merchantId, merchant.id), eq(payments.status, 'pending')));
    expect((await api.get(`/api/PaymentLink/${link.id}`)).body.completionCount).toBe(1);

    await finishPendingPayment(getDb(), pending!);
    const [failed] = await getDb().select().from(payments).where(eq(payments.id, pending!.id));
    expect(failed).toMatchObject({ status: 'failed', failureCode: 'interrupted' });
    const [checkout] = await getDb().select().from(checkouts).where(eq(checkouts.id, pending!.checkoutId!));
    expect(checkout!.status).toBe('failed');
    expect((await api.get(`/api/PaymentLink/${link.id}`)).body).toMatchObject({ status: 'active', completionCount: 0 });
    // The key is canceled at the processor: a request arriving late cannot charge it.
    const late = await new SandboxProcessor().charge({
      token: 'tok_visa',
      amount: 4500,
      currency: 'USD',
      idempotencyKey: pending!.processorKey!,
      offSession: false,
    });
    expect(late).toMatchObject({ status: 'failed', declineCode: 'canceled' });
    const booked = await getDb().select().from(sandboxProcessorOperations).where(eq(sandboxProcessorOperations.idempotencyKey, pending!.processorKey!));
    expect(booked.map((op) => op.status)).toEqual(['failed']);
  });
});
