import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { checkouts, payments } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { invalidField } from '../errors';
import { INT32_MAX } from '../http/schemas';
import type { Phases } from '../db/phases';
import { lockAttempt } from '../http/idempotency';
import { finishMoneyMove, Pinned, pinnedIntent } from '../payments/money-moves';
import { CardVerificationNeeded, finishCardVerification, verifyCardForSaving, type CardToVerify } from '../payments/card-verification';
import { linkProcessorCustomer } from '../payments/processor-customers';
import { findCustomerByEmail } from '../customers/customers';
import { createPendingPayment, paymentAwaitingReview, type PaymentRow } from '../payments/payments';
import { redeemPromotionCode, type AppliedPromotion } from '../promotions/promotion-codes';
import { assertStatusAcceptsPayments } from '../merchants/accepts-payments';
import {
  readCheckoutParties,
  resolveCustomer,
  resolveItem,
  resolvePaymentMethod,
  reserveLinkSlot,
  checkoutMetadata,
  type CheckoutInput,
  type CheckoutOptions,
  type CheckoutParties,
} from './checkout-input';
import { startSubscriptionFromCheckout, type RecurringCheckoutRequest } from './subscription-handoff';
import type { CheckoutRow } from './checkout-status';
import { checkoutStateMachine } from './checkout-states';
import { billingLines } from '../billing/line-items';
import { NO_TAX } from '../tax/calculate';
import { selectTax } from '../tax/tax-selection';
import { checkoutMove, outcomeOf, type CheckoutOutcome } from './checkout-outcome';

export type { CheckoutOutcome };

/**
 * Completes a checkout (POST /api/Checkout, PaymentLink Complete and the hosted page) in three
 * phases (docs/payments.md): phase 1 finds or creates the customer, prices the item, redeems
 * the promotion code, takes a payment-link completion slot and commits the open checkout with
 * its pending payment; phase 2 charges with no transaction open; phase 3 records the outcome,
 * billing record and events (and the API's idempotency answer). A declined charge is recorded
 * too (the caller answers 402). A repeated attempt key finishes or answers the first attempt.
 */
export async function completeCheckout(phases: Phases, merchantId: string, input: CheckoutInput, options: CheckoutOptions = {}): Promise<CheckoutOutcome> {
  try {
    return await completeCheckoutOnce(phases, merchantId, input, options);
  } catch (error) {
    // Phase 1 found a card to keep that nothing charges now: it rolled back, the card is
    // verified with no transaction open (a decline throws 402, nothing recorded), and it runs again.
    // Back from the customer's 3-D Secure challenge, this attempt's verification is finished instead.
    if (!(error instanceof CardVerificationNeeded)) throw error;
    const card: CardToVerify = { ...error.card, owner: await cardOwner(phases.db, merchantId, input), customerPresent: options.customerPresent };
    const verified = options.authenticatedVerification
      ? await finishCardVerification(phases.db, { reference: options.authenticatedVerification, owner: card.owner, idempotencyKey: card.idempotencyKey })
      : await verifyCardForSaving(phases.db, card);
    return completeCheckoutOnce(phases, merchantId, input, { ...options, verified: { ...verified, requested: error.card.token } });
  }
}

/** Whose card a checkout verifies: its customer, or the one it is about to make (the processor's customer is made first). */
async function cardOwner(db: Db, merchantId: string, input: CheckoutInput): Promise<CardToVerify['owner']> {
  const existing = input.customerId ?? (input.customerEmail ? (await findCustomerByEmail(db, merchantId, input.customerEmail))?.id : undefined);
  if (existing) return { merchantId, customerId: existing };
  return { merchantId, newCustomer: { email: input.customerEmail ?? null, name: input.customerName ?? null } };
}

async function completeCheckoutOnce(phases: Phases, merchantId: string, input: CheckoutInput, options: CheckoutOptions): Promise<CheckoutOutcome> {
  const parties = await readCheckoutParties(phases.db, merchantId, input);
  const prepared = await phases.db.transaction(async (tx) => {
    if (options.attempt) {
      await lockAttempt(tx, merchantId, options.attempt);
      const earlier = options.attempt.isNew ? undefined : await findEarlierAttempt(tx, merchantId, options.attempt.key);
      if (earlier?.checkout) return answerOrResume(tx, phases, earlier.checkout);
      if (earlier?.subscription) {
        // Without its checkout (phase 3 never ran) a payment not pending any more waits for a person.
        if (earlier.subscription.status !== 'pending') throw paymentAwaitingReview(earlier.subscription.id);
        return { payment: earlier.subscription };
      }
    }
    return prepareCheckout(tx, phases, merchantId, input, options, parties);
  });
  if ('done' in prepared) return prepared.done;
  return finishCheckout(phases, prepared.payment, prepared.checkout);
}

/** Phase 1's answer: done (nothing to charge, or an earlier attempt's answer), or a pinned payment to finish. */
type Prepared = { done: CheckoutOutcome } | { payment: PaymentRow; checkout?: CheckoutRow };

/**
 * An earlier run of this attempt: its checkout, or — for a subscription, whose checkout is
 * written in phase 3 — its payment. Twins of one attempt take turns (`lockAttempt`), so
 * the second finds what the first committed.
 */
async function findEarlierAttempt(tx: Db, merchantId: string, attemptKey: string) {
  const checkout = await findCheckoutRowByAttempt(tx, merchantId, attemptKey);
  if (checkout) return { checkout };
  const [payment] = await tx
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.merchantId, merchantId),
        sql`${payments.intent}->>'kind' = 'subscription-checkout' and ${payments.intent}->'plan'->'request'->>'attemptKey' = ${attemptKey}`,
      ),
    )
    .limit(1);
  return payment ? { subscription: payment } : undefined;
}

async function answerOrResume(tx: Db, phases: Phases, earlier: CheckoutRow): Promise<Prepared> {
  const [payment] = earlier.paymentId
    ? await tx
        .select()
        .from(payments)
        .where(and(eq(payments.id, earlier.paymentId), eq(payments.merchantId, earlier.merchantId)))
    : [];
  if (payment?.status === 'pending') return { payment, checkout: earlier };
  // Read again: phase 3 of the earlier attempt may have committed since `earlier` was read.
  const [current] = await tx
    .select()
    .from(checkouts)
    .where(and(eq(checkouts.id, earlier.id), eq(checkouts.merchantId, earlier.merchantId)));
  const done = await outcomeOf(tx, current!);
  await phases.answer(tx, done);
  return { done };
}

async function prepareCheckout(
  tx: Db,
  phases: Phases,
  merchantId: string,
  input: CheckoutInput,
  options: CheckoutOptions,
  parties: CheckoutParties,
): Promise<Prepared> {
  assertStatusAcceptsPayments(parties.sellerStatus);
  const item = await resolveItem(tx, merchantId, input, options, parties);
  const customer = await resolveCustomer(tx, merchantId, input, parties);
  const method = await resolvePaymentMethod(tx, merchantId, customer.id, input, parties);
  if (options.verified?.processorCustomer) await linkProcessorCustomer(tx, merchantId, customer.id, options.verified.processorCustomer);

  const metadata = checkoutMetadata(item.link, input.metadata);
  const subtotal = item.unitAmount * item.quantity;
  if (subtotal > INT32_MAX) throw invalidField('quantity', `The total must not exceed ${INT32_MAX} minor units.`);
  const promotion: AppliedPromotion | null = input.promotionCode
    ? await redeemPromotionCode(tx, merchantId, input.promotionCode, { currency: item.currency, subtotal })
    : null;

  // A recurring price's first period is taxed by the subscription's own plan (lib/subscriptions/create.ts).
  const tax = item.price?.type === 'Recurring' ? NO_TAX : await selectTax(tx, merchantId, customer.id, [item.price?.id ?? null]);
  const billed = billingLines(
    { kind: 'one_time', description: item.description, priceId: item.price?.id ?? null, quantity: item.quantity, unitAmount: item.unitAmount },
    { discountAmount: promotion?.discount ?? 0 },
    [],
    tax,
  );
  const total = billed.amount;
  if (total > INT32_MAX) throw invalidField('quantity', `The total with tax must not exceed ${INT32_MAX} minor units.`);
  // A card is kept only once the processor accepted it: a charge now does that; a trial or a
  // zero total charges nothing, so the card is verified first (lib/payments/card-verification.ts).
  const keepsCard = item.price?.type === 'Recurring' || Boolean(options.savePaymentMethod);
  const chargedNow = item.price?.type === 'Recurring' ? ((item.price.trialDays ?? 0) > 0 ? 0 : item.price.amount) : total;
  // The card verified for this attempt is kept as the processor answered it (Stripe's test tokens stand for a new PaymentMethod each time).
  const verifiedHere = method.newCard && options.verified?.requested === method.token;
  if (method.newCard && keepsCard && chargedNow === 0 && !verifiedHere) {
    throw new CardVerificationNeeded({
      token: method.token,
      currency: item.currency,
      idempotencyKey: `checkout:${options.attempt?.key ?? newId('checkout')}`,
    });
  }

  const token = verifiedHere ? options.verified!.token : method.token;

  // Taken before the hand-off too, so maxCompletions also holds for links that sell subscriptions.
  if (item.link) await reserveLinkSlot(tx, item.link);

  if (item.price?.type === 'Recurring') {
    const request: RecurringCheckoutRequest = {
      merchantId,
      customerId: customer.id,
      priceId: item.price.id,
      quantity: item.quantity,
      paymentLinkId: item.link?.id ?? null,
      items: item.link?.items ?? [],
      payment: { paymentMethodId: method.paymentMethodId, token, card: method.card },
      promotion: promotion && { promotionCodeId: promotion.promotionCodeId, couponId: promotion.couponId },
      successUrl: item.successUrl,
      description: item.description,
      attemptKey: options.attempt?.key ?? null,
      subscriptionId: newId('subscription'),
      metadata,
    };
    const started = await startSubscriptionFromCheckout(tx, request);
    if (started instanceof Pinned) return { payment: started.payment };
    await phases.answer(tx, started);
    return { done: started };
  }

  const at = now();
  const checkoutId = newId('checkout');
  const paymentId = newId('payment');
  // One statement: the checkout rides along the payment's insert as a data-modifying CTE. Its
  // row is all ours (no column defaults), so phase 3 gets it without reading it back.
  const checkout: CheckoutRow = {
    id: checkoutId,
    merchantId,
    status: checkoutStateMachine.start('open'),
    paymentLinkId: item.link?.id ?? null,
    priceId: item.price?.id ?? null,
    customerId: customer.id,
    description: item.description,
    currency: item.currency,
    unitAmount: item.unitAmount,
    quantity: item.quantity,
    subtotal,
    discountAmount: promotion?.discount ?? 0,
    taxAmount: billed.taxAmount,
    tax,
    total,
    promotionCodeId: promotion?.promotionCodeId ?? null,
    couponId: promotion?.couponId ?? null,
    paymentId,
    subscriptionId: null,
    successUrl: item.successUrl,
    attemptKey: options.attempt?.key ?? null,
    metadata,
    createdAt: at,
    updatedAt: at,
  };
  const payment = await createPendingPayment(
    tx,
    {
      id: paymentId,
      merchantId,
      customerId: customer.id,
      checkoutId,
      paymentMethodId: method.paymentMethodId,
      amount: total,
      currency: item.currency,
      description: item.description,
      processorToken: token,
      processorKey: paymentId,
      metadata,
      intent: pinnedIntent(
        checkoutMove,
        { savePaymentMethod: Boolean(options.savePaymentMethod && method.newCard), card: method.card },
        input.returnUrl?.replaceAll('{CHECKOUT_ID}', checkoutId),
      ),
    },
    tx.$with('inserted_checkout', {}).as(tx.insert(checkouts).values(checkout).getSQL()),
  );
  return { payment, checkout };
}

/**
 * Phases 2 and 3 of a one-time checkout (lib/payments/money-moves.ts). `checkout` is the
 * payment's checkout when the caller has it (phase 1 wrote it), else it is read.
 */
export function finishCheckout(phases: Phases, payment: PaymentRow, checkout?: CheckoutRow): Promise<CheckoutOutcome> {
  return finishMoneyMove<CheckoutOutcome>(phases, payment, { by: 'charge' }, checkout);
}

async function findCheckoutRowByAttempt(db: Db, merchantId: string, attemptKey: string) {
  const [row] = await db
    .select()
    .from(checkouts)
    .where(and(eq(checkouts.merchantId, merchantId), eq(checkouts.attemptKey, attemptKey)));
  return row;
}

/** The outcome of an earlier hosted-page attempt with this key, if it was recorded. */
export async function findCheckoutByAttempt(db: Db, merchantId: string, attemptKey: string) {
  const earlier = await findCheckoutRowByAttempt(db, merchantId, attemptKey);
  return earlier ? outcomeOf(db, earlier) : undefined;
}
