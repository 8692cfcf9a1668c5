import { and, eq, isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { customers, paymentMethods, subscriptionBillingRecords, subscriptions, testClockCustomers } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { recordEvent, withEventTime } from '../events/record-event';
import { invalidField } from '../errors';
import { findPriceRow } from '../catalog/prices';
import { findChargeableCustomerRow } from '../customers/customers';
import { findPaymentMethodRow } from '../payments/payment-methods';
import { chargedToken, defineMoneyMove, pinMoneyMove, type ChargeRequest, type KnownOutcome, type Pinned, type PinnedMove } from '../payments/money-moves';
import { currentPaymentStatus, paymentAwaitingReview, recordChargeOutcome, toPaymentResponse, type PaymentRow } from '../payments/payments';
import { periodBoundary, type BillingCycle } from './periods';
import { timeFor } from './time';
import { subscriptionDiscountFor } from './discounts';
import { billPinnedPeriod, periodChargeAmount, PeriodCharge, planPeriodCharge, productNameOf, resolveToken, settlePaid, UNKNOWN_RECHECK_MS } from './billing';
import { selectTax } from '../tax/tax-selection';
import { settleSubscriptionCharge } from './dunning';
import { requireRecurring } from './price-change';
import { insertSubscriptionItems, resolveMeteredItems } from './items';
import { getSubscriptionDetail } from './queries';
import { toDeclinedResult, toSubscriptionResponse, type DeclinedResult } from './responses';
import { insertSubscription, recordChange, refreshNextAction, startPastDue, type Actor } from './subscription-writer';
import type { CreateSubscriptionBody } from './schemas';

const DAY_MS = 86_400_000;

export type CreateResult = { declined: false; subscription: Awaited<ReturnType<typeof getSubscriptionDetail>> } | DeclinedResult;

export interface StartOptions {
  actor: Actor;
  /** A one-off processor token when no saved method is given (recurring checkout). */
  paymentToken?: string | null;
  /** A saved method to use when the body names none (before falling back to the customer's default). */
  paymentMethodId?: string | null;
  /** Fixed by the caller, so a takeover of a crashed request finds the same subscription. */
  subscriptionId?: string;
  /** A promotion code redeemed at checkout: its coupon discounts the periods its duration covers. */
  promotion?: { promotionCodeId: string; couponId: string } | null;
  /** The request's attempt key (its Idempotency-Key's lifetime), so a takeover finds this create. */
  attemptKey?: string | null;
  /** Paid by a customer at checkout (recovery never charges it), not by a seller's backend. */
  customerPresent?: boolean;
}

/** A subscription as it will be inserted once its first charge did not decline: pinned in phase 1. */
export const CreatePlan = z.object({
  merchantId: z.string(),
  customerId: z.string(),
  paymentMethodId: z.string().nullable(),
  paymentToken: z.string().nullable(),
  anchor: z.coerce.date(),
  testClockId: z.string().nullable(),
  discount: z.custom<typeof subscriptions.$inferSelect.discount>(),
  metadata: z.record(z.string(), z.string()),
  actor: z.string(),
  attemptKey: z.string().nullable(),
  customerPresent: z.boolean(),
  /** The metered items to write with the subscription (none in plans pinned before they existed). */
  meteredPriceIds: z.array(z.string()).default([]),
  usageThresholdAmount: z.number().int().nullable().default(null),
  period: PeriodCharge,
});
export type CreatePlan = z.output<typeof CreatePlan>;

/** Phase 1 of a create: a trial started (nothing to charge), or the plan of the first period's charge. */
export type PlannedCreate = { started: CreateResult } | { plan: CreatePlan; charge: ChargeRequest };

/**
 * Starts a subscription (POST /api/Subscription). A price with `trialDays` starts `trialing`
 * at once with no charge; otherwise period 0 is charged and the subscription exists only if
 * that charge did not decline (docs/subscriptions.md). Phase 1 of a money move
 * (lib/payments/money-moves.ts): returns the result, or the pinned payment to charge.
 */
export async function createSubscription(
  tx: Db,
  merchantId: string,
  body: z.output<typeof CreateSubscriptionBody>,
  options: StartOptions,
): Promise<CreateResult | Pinned> {
  const planned = await planSubscriptionCreate(tx, merchantId, body, options);
  if ('started' in planned) return planned.started;
  return pinMoneyMove(tx, subscriptionCreateMove, planned.plan, planned.charge);
}

/** Validates a create and either starts a trial or plans the first charge (shared with the recurring checkout). */
export async function planSubscriptionCreate(
  tx: Db,
  merchantId: string,
  body: z.output<typeof CreateSubscriptionBody>,
  options: StartOptions,
): Promise<PlannedCreate> {
  const customer = await findChargeableCustomerRow(tx, merchantId, body.customerId, 'customerId');
  const price = await findPriceRow(tx, merchantId, body.priceId, 'priceId');
  requireRecurring(price, 'priceId');
  const meteredPriceIds = (await resolveMeteredItems(tx, merchantId, price, body.items ?? [])).map((metered) => metered.id);
  const usageThresholdAmount = body.usageThresholdAmount ?? null;
  if (usageThresholdAmount !== null && meteredPriceIds.length === 0) {
    throw invalidField('usageThresholdAmount', 'A usage threshold needs metered prices: give a metered priceId or items.');
  }
  if (body.paymentMethodId && body.paymentMethodRefId && body.paymentMethodId !== body.paymentMethodRefId) {
    throw invalidField('paymentMethodRefId', 'paymentMethodId and paymentMethodRefId name different methods; give one.');
  }
  const methodId = body.paymentMethodId ?? body.paymentMethodRefId ?? options.paymentMethodId ?? null;
  const method = methodId
    ? await findPaymentMethodRow(tx, merchantId, customer.id, methodId, body.paymentMethodId ? 'paymentMethodId' : 'paymentMethodRefId')
    : null;
  const trialDays = price.trialDays ?? 0;
  if (!method && !options.paymentToken && trialDays === 0) {
    // The customer's default method, if any, is used; otherwise there is nothing to charge.
    const [fallback] = await tx
      .select({ id: paymentMethods.id })
      .from(paymentMethods)
      .where(and(eq(paymentMethods.customerId, customer.id), eq(paymentMethods.isDefault, true), isNull(paymentMethods.detachedAt)));
    if (!fallback) throw invalidField('paymentMethodId', `Customer ${customer.id} has no saved payment method: give paymentMethodId.`);
  }
  const [attachment] = await tx.select().from(testClockCustomers).where(eq(testClockCustomers.customerId, customer.id));
  const testClockId = attachment?.testClockId ?? null;
  const at = await timeFor(tx, testClockId);
  const trialEnd = trialDays > 0 ? new Date(at.getTime() + trialDays * DAY_MS) : null;
  const anchor = trialEnd ?? at;
  const cycle: BillingCycle = { anchor, interval: price.interval!, intervalCount: price.intervalCount ?? 1 };
  const id = options.subscriptionId ?? newId('subscription');
  const discount = options.promotion ? await subscriptionDiscountFor(tx, merchantId, options.promotion, cycle) : null;
  const paymentMethodId = method?.id ?? null;
  const paymentToken = method ? null : (options.paymentToken ?? null);

  if (trialEnd) {
    const started = await withEventTime(testClockId ? at : null, async () => {
      let sub = await insertSubscription(tx, {
        ...subscriptionValues(
          { id, merchantId, customerId: customer.id, priceId: price.id, paymentMethodId, paymentToken, anchor, testClockId, discount, usageThresholdAmount },
          body.metadata,
        ),
        status: 'trialing',
        currentPeriodIndex: -1,
        currentPeriodStart: at,
        currentPeriodEnd: trialEnd,
        trialEnd,
      });
      await insertSubscriptionItems(tx, sub, meteredPriceIds, at);
      sub = await refreshNextAction(tx, sub);
      await recordChange(tx, sub, { type: 'Create', actor: options.actor, effectiveAt: at, toPriceId: price.id, version: sub.version });
      await recordEvent(tx, { merchantId, type: 'subscription.created', object: toSubscriptionResponse(sub) });
      return { declined: false as const, subscription: await getSubscriptionDetail(tx, merchantId, sub.id) };
    });
    return { started };
  }
  const source = await resolveToken(tx, { paymentMethodId, paymentToken, customerId: customer.id });
  const period = planPeriodCharge(
    { id, discount, creditBalance: 0 },
    { index: 0, start: at, end: periodBoundary(cycle, 1) },
    price,
    await productNameOf(tx, price),
    at,
    source.card,
    [],
    await selectTax(tx, merchantId, customer.id, [price.id]),
  );
  const plan: CreatePlan = {
    merchantId,
    customerId: customer.id,
    paymentMethodId,
    paymentToken,
    anchor,
    testClockId,
    discount,
    metadata: body.metadata ?? {},
    actor: options.actor,
    attemptKey: options.attemptKey ?? null,
    customerPresent: options.customerPresent ?? false,
    meteredPriceIds,
    usageThresholdAmount,
    period,
  };
  const charge: ChargeRequest = {
    merchantId,
    customerId: customer.id,
    checkoutId: null,
    paymentMethodId: source.paymentMethodId,
    amount: periodChargeAmount(period),
    currency: price.currency,
    description: period.description,
    token: source.token,
    processorKey: `${id}:p0:a1`,
  };
  return { plan, charge };
}

function subscriptionValues(
  fields: Pick<
    typeof subscriptions.$inferInsert,
    'id' | 'merchantId' | 'customerId' | 'priceId' | 'paymentMethodId' | 'paymentToken' | 'testClockId' | 'discount' | 'usageThresholdAmount'
  > & { anchor: Date },
  metadata: Record<string, string> | undefined,
) {
  const { anchor, ...rest } = fields;
  return { ...rest, version: 1, billingAnchor: anchor, metadata: metadata ?? {}, createdAt: now(), updatedAt: now() };
}

/**
 * Phase 3 of a create: a declined first charge records just the failed payment (no subscription
 * exists); otherwise the subscription is inserted exactly as planned, with its first period's
 * billing record. An unknown outcome starts it `past_due` until the processor tells.
 */
export async function applySubscriptionCreate(tx: Db, payment: PaymentRow, plan: CreatePlan, outcome: KnownOutcome): Promise<CreateResult> {
  const { period } = plan;
  if (outcome.status === 'failed') {
    const failed = await recordChargeOutcome(tx, payment, outcome);
    return toDeclinedResult(failed, outcome);
  }
  return withEventTime(plan.testClockId ? period.at : null, async () => {
    let sub = await insertSubscription(tx, {
      ...subscriptionValues(
        {
          id: period.subscriptionId,
          merchantId: plan.merchantId,
          customerId: plan.customerId,
          priceId: period.priceId,
          paymentMethodId: plan.paymentMethodId,
          // The card the processor charged, when the token given stood for a new one (a Stripe test token).
          paymentToken: plan.paymentToken && (chargedToken(outcome) ?? plan.paymentToken),
          anchor: plan.anchor,
          testClockId: plan.testClockId,
          discount: plan.discount,
          usageThresholdAmount: plan.usageThresholdAmount,
        },
        plan.metadata,
      ),
      status: 'active',
      currentPeriodIndex: 0,
      currentPeriodStart: period.periodStart,
      currentPeriodEnd: period.periodEnd,
      trialEnd: null,
    });
    await insertSubscriptionItems(tx, sub, plan.meteredPriceIds, period.at);
    const billed = await billPinnedPeriod(tx, sub, period, payment, outcome);
    if (outcome.status === 'succeeded') {
      await settlePaid(tx, sub, billed.link, period.priceId);
    } else {
      // Outcome unknown: not active until the processor answers; looked at again later.
      await tx
        .update(subscriptionBillingRecords)
        .set({ nextAttemptAt: new Date(period.at.getTime() + UNKNOWN_RECHECK_MS) })
        .where(eq(subscriptionBillingRecords.id, billed.link.id));
      sub = await startPastDue(tx, sub);
    }
    sub = await refreshNextAction(tx, sub);
    await recordChange(tx, sub, { type: 'Create', actor: plan.actor, effectiveAt: period.at, toPriceId: period.priceId, version: sub.version });
    await recordEvent(tx, { merchantId: plan.merchantId, type: 'subscription.created', object: toSubscriptionResponse(sub) });
    return { declined: false as const, subscription: await getSubscriptionDetail(tx, plan.merchantId, sub.id) };
  });
}

/** The answer of a create whose outcome another run recorded (a recovery, a takeover). */
export async function recordedSubscriptionCreate(tx: Db, payment: PaymentRow, plan: CreatePlan): Promise<CreateResult> {
  const [created] = await tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.id, plan.period.subscriptionId), eq(subscriptions.merchantId, plan.merchantId)));
  if (created) return { declined: false, subscription: await getSubscriptionDetail(tx, plan.merchantId, created.id) };
  // Phase 3 never ran and a person settles the charge (creating the subscription if it was made).
  if ((await currentPaymentStatus(tx, payment.id)) === 'needs_review') throw paymentAwaitingReview(payment.id);
  return {
    declined: true,
    payment: toPaymentResponse(payment),
    message: payment.failureMessage ?? 'The charge was declined.',
    declineCode: payment.failureCode ?? 'declined',
  };
}

/** A backend's create charges on recovery only while its customer is still there. */
export async function customerStillThere(db: Db, plan: CreatePlan): Promise<boolean> {
  const [row] = await db
    .select({ status: customers.status })
    .from(customers)
    .where(and(eq(customers.id, plan.customerId), eq(customers.merchantId, plan.merchantId)));
  return row?.status === 'active';
}

export const subscriptionCreateMove = defineMoneyMove({
  kind: 'subscription-create',
  plan: CreatePlan,
  customerPresent: (plan) => plan.customerPresent,
  keepsCard: () => true,
  stillWanted: customerStillThere,
  apply: (tx, { payment, plan }: PinnedMove<CreatePlan>, outcome) => applySubscriptionCreate(tx, payment, plan, outcome),
  recorded: (tx, { payment, plan }) => recordedSubscriptionCreate(tx, payment, plan),
  settle: async (tx, { payment }, outcome) => {
    await settleSubscriptionCharge(tx, payment.id, outcome);
  },
});
