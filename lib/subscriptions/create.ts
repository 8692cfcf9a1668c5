import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { paymentMethods, subscriptionBillingRecords, testClockCustomers } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { recordEvent, withEventTime } from '../events/record-event';
import { invalidField } from '../http/errors';
import { findPriceRow } from '../catalog/prices';
import { findChargeableCustomerRow } from '../customers/customers';
import { findPaymentMethodRow } from '../payments/payment-methods';
import { periodBoundary, type BillingCycle } from './periods';
import { timeFor } from './time';
import { subscriptionDiscountFor } from './discounts';
import { billPeriod, ChargeDeclined, productNameOf, recordDeclinedCharge, settlePaid, UNKNOWN_RECHECK_MS } from './billing';
import { requireRecurring } from './price-change';
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
  /** Fixed by the caller when the create runs in phases, so each run charges the same key. */
  subscriptionId?: string;
  /** A promotion code redeemed at checkout: its coupon discounts the periods its duration covers. */
  promotion?: { promotionCodeId: string; couponId: string } | null;
}

/**
 * Starts a subscription. A price with `trialDays` starts `trialing` with no charge; otherwise
 * period 0 is charged at once and the subscription exists only if that charge did not decline:
 * a decline rolls the subscription back (savepoint) and records just the failed payment.
 */
export async function createSubscription(
  tx: Db,
  merchantId: string,
  body: z.output<typeof CreateSubscriptionBody>,
  options: StartOptions,
): Promise<CreateResult> {
  const customer = await findChargeableCustomerRow(tx, merchantId, body.customerId, 'customerId');
  const price = await findPriceRow(tx, merchantId, body.priceId, 'priceId');
  requireRecurring(price, 'priceId');
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
  const name = await productNameOf(tx, price);
  const discount = options.promotion ? await subscriptionDiscountFor(tx, merchantId, options.promotion, cycle) : null;

  try {
    return await withEventTime(testClockId ? at : null, () =>
      tx.transaction(async (sp) => {
        let sub = await insertSubscription(sp, {
          id,
          merchantId,
          customerId: customer.id,
          priceId: price.id,
          paymentMethodId: method?.id ?? null,
          paymentToken: method ? null : (options.paymentToken ?? null),
          status: trialEnd ? 'trialing' : 'active',
          version: 1,
          billingAnchor: anchor,
          currentPeriodIndex: trialEnd ? -1 : 0,
          currentPeriodStart: at,
          currentPeriodEnd: trialEnd ?? periodBoundary(cycle, 1),
          trialEnd,
          discount,
          testClockId,
          metadata: body.metadata ?? {},
          createdAt: now(),
          updatedAt: now(),
        });
        if (!trialEnd) {
          const billed = await billPeriod(sp, sub, price, name, 0, at);
          if (billed.outcome.status === 'failed') {
            throw new ChargeDeclined(
              {
                id: billed.payment.id,
                merchantId,
                customerId: customer.id,
                paymentMethodId: billed.payment.paymentMethodId,
                amount: billed.amount,
                currency: price.currency,
                description: billed.payment.description,
              },
              billed.outcome,
            );
          }
          if (billed.outcome.status === 'succeeded') {
            await settlePaid(sp, sub, billed.link, price.id);
          } else {
            // Outcome unknown: not active until the processor answers; looked at again later.
            await sp
              .update(subscriptionBillingRecords)
              .set({ nextAttemptAt: new Date(at.getTime() + UNKNOWN_RECHECK_MS) })
              .where(eq(subscriptionBillingRecords.id, billed.link.id));
            sub = await startPastDue(sp, sub);
          }
        }
        sub = await refreshNextAction(sp, sub);
        await recordChange(sp, sub, { type: 'Create', actor: options.actor, effectiveAt: at, toPriceId: price.id, version: sub.version });
        await recordEvent(sp, { merchantId, type: 'subscription.created', object: toSubscriptionResponse(sub) });
        return { declined: false as const, subscription: await getSubscriptionDetail(sp, merchantId, sub.id) };
      }),
    );
  } catch (error) {
    if (!(error instanceof ChargeDeclined)) throw error;
    // The subscription was rolled back with its savepoint: the failed payment names none.
    const payment = await recordDeclinedCharge(tx, error);
    return toDeclinedResult(payment, error.outcome);
  }
}
