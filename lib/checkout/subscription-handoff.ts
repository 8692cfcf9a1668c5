import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { checkouts, payments, products, subscriptions } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { invalidField } from '../http/errors';
import { findPriceRow } from '../catalog/prices';
import { paymentProcessor } from '../payments/processor';
import { createPendingPayment, recordChargeOutcome } from '../payments/payments';
import { savePaymentMethod } from '../payments/payment-methods';
import { recordEvent } from '../events/record-event';
import { linkBillingRecordToCheckout } from '../billing/billing-records';
import { createSubscription } from '../subscriptions/create';
import { failCheckout, markCheckoutPaid } from './checkout-status';
import { checkoutStateMachine } from './checkout-states';
import { toCheckoutResponse } from './checkout-response';

export interface RecurringCheckoutRequest {
  merchantId: string;
  customerId: string;
  priceId: string;
  quantity: number;
  paymentLinkId: string | null;
  /** The saved method to charge, or a one-off processor token. */
  payment: { paymentMethodId: string | null; token: string };
  promotion: { promotionCodeId: string; couponId: string } | null;
  successUrl?: string | null;
  description?: string;
  attemptKey?: string | null;
  /** Chosen in phase 1, so every run of the hand-off charges the same processor key. */
  subscriptionId: string;
}

/**
 * The hand-off point to subscriptions: a checkout of a Recurring price ends as a subscription.
 * When it is called, the customer exists, the promotion code is redeemed and the payment link's
 * completion slot is taken, all in `tx`. It starts the subscription (first period charged, or
 * the trial started with a zero payment), writes the checkout for it and marks it paid or
 * failed. A card given as a one-off token is saved for the renewals once the subscription
 * exists. Subscriptions are sold one at a time (quantity 1). A redeemed promotion code's coupon
 * goes onto the subscription and discounts the periods its duration covers
 * (lib/subscriptions/discounts.ts); the checkout shows the discount on what is charged today.
 */
export async function startSubscriptionFromCheckout(tx: Db, request: RecurringCheckoutRequest) {
  if (request.quantity !== 1) throw invalidField('quantity', 'A subscription is sold with quantity 1.');
  const price = await findPriceRow(tx, request.merchantId, request.priceId);
  const [product] = await tx
    .select({ name: products.name })
    .from(products)
    .where(and(eq(products.id, price.productId), eq(products.merchantId, request.merchantId)));
  const result = await createSubscription(
    tx,
    request.merchantId,
    {
      customerId: request.customerId,
      priceId: request.priceId,
      ...(request.payment.paymentMethodId ? { paymentMethodId: request.payment.paymentMethodId } : {}),
    },
    {
      actor: request.paymentLinkId ? `payment_link:${request.paymentLinkId}` : 'checkout',
      paymentToken: request.payment.paymentMethodId ? null : request.payment.token,
      subscriptionId: request.subscriptionId,
      promotion: request.promotion,
    },
  );

  const at = now();
  const checkoutId = newId('checkout');
  const trial = !result.declined && result.subscription.status === 'trialing';
  const firstRecord = result.declined ? null : result.subscription.latestBillingRecord;
  // What today's charge was (or would have been, when declined): nothing during a trial.
  const total = result.declined ? result.payment.amount : trial ? 0 : firstRecord!.amount;
  await tx.insert(checkouts).values({
    id: checkoutId,
    merchantId: request.merchantId,
    status: checkoutStateMachine.start('open'),
    paymentLinkId: request.paymentLinkId,
    priceId: price.id,
    customerId: request.customerId,
    description: request.description ?? product?.name ?? price.id,
    currency: price.currency,
    unitAmount: price.amount,
    quantity: 1,
    subtotal: trial ? 0 : price.amount,
    discountAmount: trial ? 0 : price.amount - total,
    total,
    promotionCodeId: request.promotion?.promotionCodeId ?? null,
    couponId: request.promotion?.couponId ?? null,
    subscriptionId: result.declined ? null : result.subscription.id,
    paymentId: null,
    successUrl: request.successUrl ?? null,
    attemptKey: request.attemptKey ?? null,
    createdAt: at,
    updatedAt: at,
  });

  let paymentId: string;
  if (result.declined) {
    paymentId = result.payment.id;
  } else if (trial) {
    // Nothing is due during the trial: a zero payment records that the checkout completed.
    const pending = await createPendingPayment(tx, {
      merchantId: request.merchantId,
      customerId: request.customerId,
      checkoutId,
      paymentMethodId: request.payment.paymentMethodId,
      amount: 0,
      currency: price.currency,
      description: `${product?.name ?? price.id} — trial until ${result.subscription.trialEnd}`,
    });
    paymentId = (
      await recordChargeOutcome(tx, pending, { status: 'succeeded', reference: null, card: null }, recordEvent, { subscriptionId: result.subscription.id })
    ).id;
  } else {
    paymentId = firstRecord!.paymentId!;
    await linkBillingRecordToCheckout(tx, firstRecord!.id, checkoutId);
  }
  await tx
    .update(payments)
    .set({ checkoutId })
    .where(and(eq(payments.id, paymentId), eq(payments.merchantId, request.merchantId)));
  const [withPayment] = await tx
    .update(checkouts)
    .set({ paymentId })
    .where(and(eq(checkouts.id, checkoutId), eq(checkouts.merchantId, request.merchantId)))
    .returning();

  if (result.declined) {
    await failCheckout(tx, withPayment!);
  } else {
    if (!request.payment.paymentMethodId) {
      const details = paymentProcessor().describeToken(request.payment.token);
      if (details) {
        const saved = await savePaymentMethod(tx, request.merchantId, request.customerId, { token: request.payment.token, ...details });
        await tx
          .update(subscriptions)
          .set({ paymentMethodId: saved.id, paymentToken: null })
          .where(and(eq(subscriptions.id, result.subscription.id), eq(subscriptions.merchantId, request.merchantId)));
      }
    }
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.id, paymentId), eq(payments.merchantId, request.merchantId)));
    if (payment?.status === 'succeeded') await markCheckoutPaid(tx, withPayment!);
  }
  const [latest] = await tx
    .select()
    .from(checkouts)
    .where(and(eq(checkouts.id, checkoutId), eq(checkouts.merchantId, request.merchantId)));
  const response = await toCheckoutResponse(tx, latest!);
  return {
    checkout: { ...response, subscriptionId: result.declined ? null : result.subscription.id },
    declined: result.declined,
  };
}
