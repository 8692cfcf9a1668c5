import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { checkouts, payments, products, subscriptions } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { invalidField } from '../errors';
import { findPriceRow } from '../catalog/prices';
import { chargedToken, defineMoneyMove, PinnedCard, pinnedIntent, Pinned, type KnownOutcome } from '../payments/money-moves';
import { createPendingPayment, currentPaymentStatus, paymentAwaitingReview, type PaymentRow } from '../payments/payments';
import { savePaymentMethod } from '../payments/payment-methods';
import { linkBillingRecordToCheckout } from '../billing/billing-records';
import { applySubscriptionCreate, CreatePlan, planSubscriptionCreate, type CreateResult } from '../subscriptions/create';
import { settleSubscriptionCharge } from '../subscriptions/dunning';
import { failCheckout, findCheckoutRowByPayment, markCheckoutPaid } from './checkout-status';
import { checkoutStateMachine } from './checkout-states';
import { toCheckoutResponse } from './checkout-response';
import type { CheckoutOutcome } from './checkout-outcome';

/** What a checkout of a Recurring price asks of subscriptions; pinned with the first charge's plan. */
export const RecurringCheckoutRequest = z.object({
  merchantId: z.string(),
  customerId: z.string(),
  priceId: z.string(),
  quantity: z.number().int(),
  paymentLinkId: z.string().nullable(),
  /** The payment link's metered items, which the subscription carries (none in requests pinned before links had them). */
  items: z.array(z.object({ priceId: z.string() })).default([]),
  /** The saved method to charge, or a one-off processor token, and the card's details. */
  payment: z.object({ paymentMethodId: z.string().nullable(), token: z.string(), card: PinnedCard }),
  promotion: z.object({ promotionCodeId: z.string(), couponId: z.string() }).nullable(),
  successUrl: z.string().nullable().optional(),
  description: z.string().optional(),
  attemptKey: z.string().nullable().optional(),
  /** Chosen in phase 1, so the charge's processor key and a takeover find the same subscription. */
  subscriptionId: z.string(),
  /** The checkout's metadata, kept on its payments and its checkout. */
  metadata: z.record(z.string(), z.string()).optional(),
});
export type RecurringCheckoutRequest = z.output<typeof RecurringCheckoutRequest>;

const SubscriptionCheckoutPlan = z.object({ request: RecurringCheckoutRequest, create: CreatePlan });
type SubscriptionCheckoutPlan = z.output<typeof SubscriptionCheckoutPlan>;

/**
 * The hand-off point to subscriptions: a checkout of a Recurring price ends as a subscription.
 * When it is called, the customer exists, the promotion code is redeemed and the payment link's
 * completion slot is taken, all in `tx` (phase 1). A trial starts at once (its checkout completes
 * with a zero payment); otherwise the first charge is pinned and the subscription, its checkout
 * and the card to keep are written in phase 3 (`applySubscriptionCheckout`). Subscriptions are
 * sold one at a time (quantity 1). A redeemed promotion code's coupon goes onto the subscription
 * and discounts the periods its duration covers (lib/subscriptions/discounts.ts).
 */
export async function startSubscriptionFromCheckout(tx: Db, request: RecurringCheckoutRequest): Promise<CheckoutOutcome | Pinned> {
  if (request.quantity !== 1) throw invalidField('quantity', 'A subscription is sold with quantity 1.');
  const planned = await planSubscriptionCreate(
    tx,
    request.merchantId,
    {
      customerId: request.customerId,
      priceId: request.priceId,
      ...(request.items.length > 0 ? { items: request.items } : {}),
      ...(request.payment.paymentMethodId ? { paymentMethodId: request.payment.paymentMethodId } : {}),
    },
    {
      actor: request.paymentLinkId ? `payment_link:${request.paymentLinkId}` : 'checkout',
      paymentToken: request.payment.paymentMethodId ? null : request.payment.token,
      subscriptionId: request.subscriptionId,
      promotion: request.promotion,
      attemptKey: request.attemptKey ?? null,
      customerPresent: true,
    },
  );
  if ('started' in planned) return recordSubscriptionCheckout(tx, request, planned.started, null);
  const plan: SubscriptionCheckoutPlan = { request, create: planned.plan };
  const { token, processorKey, ...charge } = planned.charge;
  return new Pinned(
    await createPendingPayment(tx, {
      ...charge,
      processorToken: token,
      processorKey,
      intent: pinnedIntent(subscriptionCheckoutMove, plan),
      metadata: request.metadata,
    }),
  );
}

/** Phase 3: the subscription as planned (or the declined payment), then its checkout. */
async function applySubscriptionCheckout(tx: Db, payment: PaymentRow, plan: SubscriptionCheckoutPlan, outcome: KnownOutcome): Promise<CheckoutOutcome> {
  const result = await applySubscriptionCreate(tx, payment, plan.create, outcome);
  return recordSubscriptionCheckout(tx, plan.request, result, payment.id, chargedToken(outcome));
}

/**
 * The checkout of a subscription that started (or whose first charge declined): paid, failed,
 * or open while the first charge's outcome is unknown. A card given as a one-off token is kept
 * for the renewals once the subscription exists.
 */
async function recordSubscriptionCheckout(
  tx: Db,
  request: RecurringCheckoutRequest,
  result: CreateResult,
  chargeId: string | null,
  keptToken?: string,
): Promise<CheckoutOutcome> {
  const price = await findPriceRow(tx, request.merchantId, request.priceId);
  const [product] = await tx
    .select({ name: products.name })
    .from(products)
    .where(and(eq(products.id, price.productId), eq(products.merchantId, request.merchantId)));
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
    discountAmount: firstRecord?.discountAmount ?? 0,
    taxAmount: firstRecord?.taxAmount ?? 0,
    total,
    promotionCodeId: request.promotion?.promotionCodeId ?? null,
    couponId: request.promotion?.couponId ?? null,
    subscriptionId: result.declined ? null : result.subscription.id,
    paymentId: null,
    successUrl: request.successUrl ?? null,
    attemptKey: request.attemptKey ?? null,
    metadata: request.metadata ?? {},
    createdAt: at,
    updatedAt: at,
  });

  // Nothing is due during a trial: its checkout completes without a payment (none is written).
  let paymentId: string | null = null;
  if (result.declined) {
    paymentId = result.payment.id;
  } else if (!trial) {
    paymentId = chargeId ?? firstRecord!.paymentId!;
    await linkBillingRecordToCheckout(tx, firstRecord!.id, checkoutId);
  }
  if (paymentId) {
    await tx
      .update(payments)
      .set({ checkoutId })
      .where(and(eq(payments.id, paymentId), eq(payments.merchantId, request.merchantId)));
  }
  const [withPayment] = await tx
    .update(checkouts)
    .set({ paymentId })
    .where(and(eq(checkouts.id, checkoutId), eq(checkouts.merchantId, request.merchantId)))
    .returning();

  if (result.declined) {
    await failCheckout(tx, withPayment!);
  } else {
    if (!request.payment.paymentMethodId && request.payment.card) {
      const saved = await savePaymentMethod(tx, request.merchantId, request.customerId, { token: keptToken ?? request.payment.token, ...request.payment.card });
      await tx
        .update(subscriptions)
        .set({ paymentMethodId: saved.id, paymentToken: null })
        .where(and(eq(subscriptions.id, result.subscription.id), eq(subscriptions.merchantId, request.merchantId)));
    }
    const [payment] = paymentId
      ? await tx
          .select({ status: payments.status })
          .from(payments)
          .where(and(eq(payments.id, paymentId), eq(payments.merchantId, request.merchantId)))
      : [];
    if (trial || payment?.status === 'succeeded') await markCheckoutPaid(tx, withPayment!);
  }
  return answerFor(tx, checkoutId, request.merchantId, result.declined);
}

async function answerFor(tx: Db, checkoutId: string, merchantId: string, declined: boolean): Promise<CheckoutOutcome> {
  const [latest] = await tx
    .select()
    .from(checkouts)
    .where(and(eq(checkouts.id, checkoutId), eq(checkouts.merchantId, merchantId)));
  const response = await toCheckoutResponse(tx, latest!);
  return { checkout: { ...response, subscriptionId: latest!.subscriptionId }, declined };
}

/** The answer of a subscription checkout another run (a recovery, a twin attempt) recorded. */
async function recordedSubscriptionCheckout(tx: Db, payment: PaymentRow): Promise<CheckoutOutcome> {
  const checkout = await findCheckoutRowByPayment(tx, payment.id);
  const status = await currentPaymentStatus(tx, payment.id);
  if (!checkout) {
    // Its checkout is written in phase 3, which never ran: a person settles it (then it is written).
    if (status === 'needs_review') throw paymentAwaitingReview(payment.id);
    throw new Error(`Payment ${payment.id} was settled but its checkout was not written.`);
  }
  return answerFor(tx, checkout.id, checkout.merchantId, status === 'failed');
}

/** An unknown first charge settles: the subscription follows (dunning.ts) and so does its checkout. */
async function settleSubscriptionCheckout(tx: Db, payment: PaymentRow, outcome: Parameters<typeof settleSubscriptionCharge>[2]) {
  const checkout = await findCheckoutRowByPayment(tx, payment.id);
  const settled = await settleSubscriptionCharge(tx, payment.id, outcome);
  if (settled === 'already_settled' || !checkout) return;
  if (outcome.status === 'succeeded') await markCheckoutPaid(tx, checkout);
  else await failCheckout(tx, checkout);
}

export const subscriptionCheckoutMove = defineMoneyMove({
  kind: 'subscription-checkout',
  plan: SubscriptionCheckoutPlan,
  customerPresent: () => true,
  keepsCard: () => true,
  apply: (tx, { payment, plan }, outcome) => applySubscriptionCheckout(tx, payment, plan, outcome),
  recorded: (tx, { payment }) => recordedSubscriptionCheckout(tx, payment),
  settle: (tx, { payment }, outcome) => settleSubscriptionCheckout(tx, payment, outcome),
});
