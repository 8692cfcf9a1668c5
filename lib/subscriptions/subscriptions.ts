import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, min, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database, Db } from '../db/client';
import { plainPhases } from '../db/phases';
import { billingRecords, paymentMethods, payments, products, subscriptionBillingRecords, subscriptionChanges, subscriptions, testClockCustomers } from '../db/schema';
import type { SubscriptionCommandType, SubscriptionStatus } from '../db/schema';
import { paginate, mapPage, type PageRequest } from '../db/paginate';
import { newId } from '../ids';
import { now } from '../clock';
import { changedAttributes, recordEvent, withEventTime } from '../events/record-event';
import { ApiError, invalidField, notFound } from '../http/errors';
import { findPriceRow, type PriceRow } from '../catalog/prices';
import { findChargeableCustomerRow } from '../customers/customers';
import { findPaymentMethodRow } from '../payments/payment-methods';
import { closeBillingRecord, createBillingRecord } from '../billing/billing-records';
import { billingLines } from '../billing/line-items';
import { recordChargeOutcome, settleUnknownPaymentRow, toPaymentResponse } from '../payments/payments';
import type { SettledOutcome } from '../payments/processor/types';
import { retrieveChargeInTransaction, runChargePhases } from '../payments/charges';
import { periodBoundary, type BillingCycle } from './periods';
import { prorate } from './proration';
import { timeFor } from './time';
import { recordEntitlementChanged } from '../usage/entitlement-changes';
import { periodDiscount, renewalQuote, subscriptionDiscountFor } from './discounts';
import { assertSellerAcceptsPayments, isMerchantSuspended } from '../merchants/accepts-payments';
import {
  billPeriod,
  grantPeriodCredits,
  recordDeclinedCharge,
  startChargeAttempt,
  subscriptionContext,
  ChargeDeclined,
  nextRetryAt,
  retryRecord,
  settlePaid,
  UNKNOWN_RECHECK_MS,
  type SubscriptionBillingRow,
  type SubscriptionRow,
} from './billing';
import type { CommandBody, CreateSubscriptionBody, CommandType } from './schemas';

export type { SubscriptionRow } from './billing';

const DAY_MS = 86_400_000;

/** Who made a change: `api_key:key_…`, `portal:cus_…`, `console:mer_…` or `system`. */
export type Actor = string;

export function toSubscriptionResponse(row: SubscriptionRow) {
  return {
    id: row.id,
    status: row.status,
    version: String(row.version),
    customerId: row.customerId,
    priceId: row.priceId,
    paymentMethodId: row.paymentMethodId,
    currentPeriodIndex: row.currentPeriodIndex,
    currentPeriodStart: row.currentPeriodStart.toISOString(),
    currentPeriodEnd: row.currentPeriodEnd.toISOString(),
    trialEnd: row.trialEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    canceledAt: row.canceledAt?.toISOString() ?? null,
    endedAt: row.endedAt?.toISOString() ?? null,
    pausedAt: row.pausedAt?.toISOString() ?? null,
    creditBalance: row.creditBalance,
    discount: row.discount,
    testClockId: row.testClockId,
    metadata: row.metadata,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type ChangeRow = typeof subscriptionChanges.$inferSelect;

export function toChangeResponse(row: ChangeRow) {
  return {
    id: row.id,
    subscriptionId: row.subscriptionId,
    type: row.type,
    status: row.status,
    fromPriceId: row.fromPriceId,
    toPriceId: row.toPriceId,
    actor: row.actor,
    reason: row.reason,
    effectiveAt: row.effectiveAt.toISOString(),
    version: row.version === null ? null : String(row.version),
    prorationAmount: row.prorationAmount,
    createdAt: row.createdAt.toISOString(),
    appliedAt: row.appliedAt?.toISOString() ?? null,
  };
}

function cycleOf(sub: Pick<SubscriptionRow, 'billingAnchor'>, price: PriceRow): BillingCycle {
  return { anchor: sub.billingAnchor, interval: price.interval!, intervalCount: price.intervalCount ?? 1 };
}

async function productName(db: Db, price: PriceRow) {
  const [product] = await db.select({ name: products.name }).from(products).where(eq(products.id, price.productId));
  return product?.name ?? price.id;
}

export async function findSubscriptionRow(db: Db, merchantId: string, subscriptionId: string, options: { forUpdate?: boolean } = {}) {
  const query = db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.merchantId, merchantId)));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('subscription', subscriptionId);
  return row;
}

function requireRecurring(price: PriceRow, field: string) {
  if (price.type !== 'Recurring' || !price.interval) throw invalidField(field, `Price ${price.id} is not Recurring: a subscription needs a Recurring price.`);
  if (!price.active) throw new ApiError('INVALID_STATE', `Price ${price.id} is inactive and cannot be subscribed to.`);
}

/**
 * Bumps the version and writes the given fields; every change goes through here, and so does
 * its `subscription.updated` with the previous values of what changed.
 */
async function writeSubscription(tx: Db, sub: SubscriptionRow, set: Partial<SubscriptionRow>): Promise<SubscriptionRow> {
  const [row] = await tx
    .update(subscriptions)
    .set({ ...set, version: sub.version + 1, updatedAt: now() })
    .where(eq(subscriptions.id, sub.id))
    .returning();
  await recordSubscriptionUpdated(tx, sub, row!);
  return refreshNextAction(tx, row!);
}

/**
 * Recomputes when something is next due: a scheduled change, a dunning retry or the period end.
 * `renewalsOnly`: the seller is suspended, so retries and scheduled changes are held until reinstatement.
 */
async function refreshNextAction(tx: Db, sub: SubscriptionRow, options: { renewalsOnly?: boolean } = {}): Promise<SubscriptionRow> {
  let next: Date | null = null;
  const consider = (at: Date | null | undefined) => {
    if (at && (!next || at < next)) next = at;
  };
  if (sub.status !== 'ended') consider(sub.currentPeriodEnd);
  if (sub.status !== 'ended' && !options.renewalsOnly) {
    const [retry] = await tx
      .select({ at: min(subscriptionBillingRecords.nextAttemptAt) })
      .from(subscriptionBillingRecords)
      .where(and(eq(subscriptionBillingRecords.subscriptionId, sub.id), isNotNull(subscriptionBillingRecords.nextAttemptAt)));
    consider(retry?.at ? new Date(retry.at) : null);
    const [scheduled] = await tx
      .select({ at: min(subscriptionChanges.effectiveAt) })
      .from(subscriptionChanges)
      .where(and(eq(subscriptionChanges.subscriptionId, sub.id), eq(subscriptionChanges.status, 'scheduled')));
    consider(scheduled?.at ? new Date(scheduled.at) : null);
  }
  const value = next as Date | null;
  if ((value?.getTime() ?? null) === (sub.nextActionAt?.getTime() ?? null)) return sub;
  const [row] = await tx.update(subscriptions).set({ nextActionAt: value }).where(eq(subscriptions.id, sub.id)).returning();
  return row!;
}

async function recordChange(
  tx: Db,
  sub: SubscriptionRow,
  input: {
    type: SubscriptionCommandType;
    status?: 'applied' | 'scheduled';
    actor: Actor;
    reason?: string | null;
    effectiveAt: Date;
    fromPriceId?: string | null;
    toPriceId?: string | null;
    version: number | null;
    prorationAmount?: number | null;
  },
) {
  const status = input.status ?? 'applied';
  const [row] = await tx
    .insert(subscriptionChanges)
    .values({
      id: newId('subscriptionChange'),
      merchantId: sub.merchantId,
      subscriptionId: sub.id,
      type: input.type,
      status,
      fromPriceId: input.fromPriceId ?? null,
      toPriceId: input.toPriceId ?? null,
      actor: input.actor,
      reason: input.reason ?? null,
      effectiveAt: input.effectiveAt,
      version: input.version,
      prorationAmount: input.prorationAmount ?? null,
      createdAt: now(),
      appliedAt: status === 'applied' ? now() : null,
    })
    .returning();
  return row!;
}

/** Whether any billing record of the subscription is still open (in dunning or awaiting an unknown outcome). */
async function hasOpenRecords(tx: Db, subscriptionId: string) {
  const [row] = await tx
    .select({ id: subscriptionBillingRecords.id })
    .from(subscriptionBillingRecords)
    .innerJoin(billingRecords, eq(billingRecords.id, subscriptionBillingRecords.billingRecordId))
    .where(and(eq(subscriptionBillingRecords.subscriptionId, subscriptionId), eq(billingRecords.status, 'open')))
    .limit(1);
  return row !== undefined;
}

/** The state a subscription that is not canceled is in right now. */
async function runningStatus(tx: Db, sub: SubscriptionRow, at: Date): Promise<SubscriptionStatus> {
  if (await hasOpenRecords(tx, sub.id)) return 'past_due';
  if (sub.currentPeriodIndex < 0 && sub.trialEnd && sub.trialEnd > at) return 'trialing';
  return 'active';
}

// ---------------------------------------------------------------------------------------------
// Create

export type CreateResult =
  | { declined: false; subscription: Awaited<ReturnType<typeof getSubscriptionDetail>> }
  | { declined: true; payment: ReturnType<typeof toPaymentResponse>; message: string; declineCode: string };

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
export async function createSubscription(tx: Db, merchantId: string, body: z.output<typeof CreateSubscriptionBody>, options: StartOptions): Promise<CreateResult> {
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
  const name = await productName(tx, price);
  const discount = options.promotion ? await subscriptionDiscountFor(tx, merchantId, options.promotion, cycle) : null;

  try {
    return await withEventTime(testClockId ? at : null, () => tx.transaction(async (sp) => {
      const [inserted] = await sp
        .insert(subscriptions)
        .values({
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
        })
        .returning();
      let sub = inserted!;
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
          [sub] = await sp.update(subscriptions).set({ status: 'past_due' }).where(eq(subscriptions.id, sub.id)).returning() as [SubscriptionRow];
        }
      }
      sub = await refreshNextAction(sp, sub);
      await recordChange(sp, sub, { type: 'Create', actor: options.actor, effectiveAt: at, toPriceId: price.id, version: sub.version });
      await recordEvent(sp, { merchantId, type: 'subscription.created', object: toSubscriptionResponse(sub) });
      return { declined: false as const, subscription: await getSubscriptionDetail(sp, merchantId, sub.id) };
    }));
  } catch (error) {
    if (!(error instanceof ChargeDeclined)) throw error;
    // The subscription was rolled back with its savepoint: the failed payment names none.
    const payment = await recordDeclinedCharge(tx, error);
    return { declined: true, payment: toPaymentResponse(payment), message: error.outcome.message, declineCode: error.outcome.declineCode };
  }
}

// ---------------------------------------------------------------------------------------------
// Read

function toRecordShape(link: SubscriptionBillingRow, record: typeof billingRecords.$inferSelect) {
  return {
    id: record.id,
    status: record.status,
    amount: record.amount,
    currency: record.currency,
    description: record.description,
    discountAmount: record.discountAmount,
    couponId: record.couponId,
    paymentId: record.paymentId,
    kind: link.kind,
    periodIndex: link.periodIndex,
    attempts: link.attempts,
    nextAttemptAt: link.nextAttemptAt?.toISOString() ?? null,
    paidAt: record.paidAt?.toISOString() ?? null,
    createdAt: record.createdAt.toISOString(),
  };
}

export async function listSubscriptionBillingRecords(db: Db, subscriptionId: string, limit = 100) {
  const rows = await db
    .select({ link: subscriptionBillingRecords, record: billingRecords })
    .from(subscriptionBillingRecords)
    .innerJoin(billingRecords, eq(billingRecords.id, subscriptionBillingRecords.billingRecordId))
    .where(eq(subscriptionBillingRecords.subscriptionId, subscriptionId))
    .orderBy(desc(billingRecords.createdAt), desc(billingRecords.id))
    .limit(limit);
  return rows.map((row) => toRecordShape(row.link, row.record));
}

export async function getSubscriptionDetail(db: Db, merchantId: string, subscriptionId: string) {
  const sub = await findSubscriptionRow(db, merchantId, subscriptionId);
  const [latest] = await listSubscriptionBillingRecords(db, sub.id, 1);
  const scheduled = await db
    .select()
    .from(subscriptionChanges)
    .where(and(eq(subscriptionChanges.subscriptionId, sub.id), eq(subscriptionChanges.status, 'scheduled')))
    .orderBy(asc(subscriptionChanges.effectiveAt));
  const price = await findPriceRow(db, merchantId, sub.priceId);
  const renews = sub.status !== 'ended' && sub.status !== 'canceled' && !sub.cancelAtPeriodEnd && !sub.pausedAt;
  return {
    ...toSubscriptionResponse(sub),
    latestBillingRecord: latest ?? null,
    upcomingRenewal: renews ? renewalQuote(sub, price.amount) : null,
    scheduledChanges: scheduled.map(toChangeResponse),
  };
}

export async function listSubscriptions(
  db: Db,
  merchantId: string,
  query: PageRequest & { orderBy: 'createdAt' | 'currentPeriodEnd'; customerId?: string; priceId?: string; status?: SubscriptionStatus },
) {
  const page = await paginate(db, subscriptions, {
    ...query,
    scope: [eq(subscriptions.merchantId, merchantId)],
    where: [
      query.customerId ? eq(subscriptions.customerId, query.customerId) : undefined,
      query.priceId ? eq(subscriptions.priceId, query.priceId) : undefined,
      query.status ? eq(subscriptions.status, query.status) : undefined,
    ],
    orderBy: [query.orderBy === 'currentPeriodEnd' ? subscriptions.currentPeriodEnd : subscriptions.createdAt, subscriptions.id],
  });
  return mapPage(page, toSubscriptionResponse);
}

export async function listSubscriptionChanges(db: Db, merchantId: string, subscriptionId: string, query: PageRequest & { orderBy: 'createdAt' | 'effectiveAt' }) {
  await findSubscriptionRow(db, merchantId, subscriptionId);
  const page = await paginate(db, subscriptionChanges, {
    ...query,
    scope: [eq(subscriptionChanges.subscriptionId, subscriptionId), eq(subscriptionChanges.merchantId, merchantId)],
    where: [],
    orderBy: [query.orderBy === 'effectiveAt' ? subscriptionChanges.effectiveAt : subscriptionChanges.createdAt, subscriptionChanges.id],
  });
  return mapPage(page, toChangeResponse);
}

// ---------------------------------------------------------------------------------------------
// Price change: one planner for Preview and ChangePrice

export interface PriceChangePlan {
  subscriptionId: string;
  fromPriceId: string;
  toPriceId: string;
  currency: string;
  at: string;
  periodStart: string;
  periodEnd: string;
  prorated: boolean;
  unusedCredit: number;
  remainingCharge: number;
  net: number;
  creditBalanceBefore: number;
  amountDueNow: number;
  creditBalanceAfter: number;
  nextRenewal: ReturnType<typeof renewalQuote>;
}

/**
 * What changing to `to` at `at` charges or credits. Same currency, interval and intervalCount
 * only (another currency or cadence is a new subscription). While trialing nothing is
 * prorated; otherwise the net of the remaining time is charged now (less account credit) or,
 * when negative, added to the account credit that the next renewals use first.
 */
export function planPriceChange(sub: SubscriptionRow, from: PriceRow, to: PriceRow, at: Date, field = 'priceId'): PriceChangePlan {
  requireRecurring(to, field);
  if (to.id === from.id) throw invalidField(field, `The subscription is already on price ${to.id}.`);
  if (to.currency !== from.currency) {
    throw invalidField(field, `Price ${to.id} is in ${to.currency} but the subscription bills in ${from.currency}: cancel and start a new subscription to change currency.`);
  }
  if (to.interval !== from.interval || (to.intervalCount ?? 1) !== (from.intervalCount ?? 1)) {
    throw invalidField(
      field,
      `Price ${to.id} renews every ${to.intervalCount ?? 1} ${to.interval} but the subscription every ${from.intervalCount ?? 1} ${from.interval}: changing the billing interval is not supported; cancel and start a new subscription.`,
    );
  }
  if (sub.status === 'ended') throw new ApiError('INVALID_STATE', `Subscription ${sub.id} has ended.`);
  if (sub.status === 'past_due') throw new ApiError('INVALID_STATE', `Subscription ${sub.id} is past_due: its open billing record must be paid before the plan changes.`);
  const prorated = sub.currentPeriodIndex >= 0;
  // A discounted period prorates what was and will be paid: both prices net of the coupon.
  const discounted = (amount: number) => amount - periodDiscount(sub.discount, sub.currentPeriodStart, amount);
  const p = prorated
    ? prorate({ fromAmount: discounted(from.amount), toAmount: discounted(to.amount), periodStart: sub.currentPeriodStart, periodEnd: sub.currentPeriodEnd, at })
    : { unusedCredit: 0, remainingCharge: 0, net: 0 };
  const before = sub.creditBalance;
  let amountDueNow = 0;
  let after = before;
  if (p.net > 0) {
    const used = Math.min(before, p.net);
    amountDueNow = p.net - used;
    after = before - used;
  } else {
    after = before - p.net;
  }
  return {
    subscriptionId: sub.id,
    fromPriceId: from.id,
    toPriceId: to.id,
    currency: to.currency,
    at: at.toISOString(),
    periodStart: sub.currentPeriodStart.toISOString(),
    periodEnd: sub.currentPeriodEnd.toISOString(),
    prorated,
    unusedCredit: p.unusedCredit,
    remainingCharge: p.remainingCharge,
    net: p.net,
    creditBalanceBefore: before,
    amountDueNow,
    creditBalanceAfter: after,
    nextRenewal: renewalQuote(sub, to.amount, after),
  };
}

export async function previewPriceChange(db: Db, merchantId: string, subscriptionId: string, priceId: string) {
  const sub = await findSubscriptionRow(db, merchantId, subscriptionId);
  const from = await findPriceRow(db, merchantId, sub.priceId);
  const to = await findPriceRow(db, merchantId, priceId, 'priceId');
  return planPriceChange(sub, from, to, await timeFor(db, sub.testClockId));
}

// ---------------------------------------------------------------------------------------------
// Commands and cancel

export type CommandResult =
  | { declined: false; subscription: ReturnType<typeof toSubscriptionResponse>; change: ReturnType<typeof toChangeResponse> }
  | { declined: true; payment: ReturnType<typeof toPaymentResponse>; message: string; declineCode: string };

function checkVersion(sub: SubscriptionRow, expectedVersion: string | undefined) {
  if (expectedVersion !== undefined && Number(expectedVersion) !== sub.version) {
    throw new ApiError('VERSION_CONFLICT', `Subscription ${sub.id} is at version ${sub.version}, not ${expectedVersion}. Read it again and retry.`, {
      extra: { currentVersion: String(sub.version) },
    });
  }
}

export async function commandSubscription(tx: Db, merchantId: string, subscriptionId: string, body: z.output<typeof CommandBody>, actor: Actor): Promise<CommandResult> {
  return withEventTime(await clockTimeOf(tx, merchantId, subscriptionId), () => commandSubscriptionNow(tx, merchantId, subscriptionId, body, actor));
}

async function commandSubscriptionNow(
  tx: Db,
  merchantId: string,
  subscriptionId: string,
  body: z.output<typeof CommandBody>,
  actor: Actor,
): Promise<CommandResult> {
  const sub = await findSubscriptionRow(tx, merchantId, subscriptionId, { forUpdate: true });
  checkVersion(sub, body.expectedVersion);
  if (sub.status === 'ended') throw new ApiError('INVALID_STATE', `Subscription ${sub.id} has ended; nothing can change it.`);
  if (body.type === 'ChangePrice' && !body.priceId) throw invalidField('priceId', 'ChangePrice needs priceId.');
  if (body.type !== 'ChangePrice' && body.priceId) throw invalidField('priceId', `${body.type} takes no priceId.`);
  if (body.type === 'ChangePaymentMethod' && !body.paymentMethodId) throw invalidField('paymentMethodId', 'ChangePaymentMethod needs paymentMethodId.');
  if (body.type !== 'ChangePaymentMethod' && body.paymentMethodId) throw invalidField('paymentMethodId', `${body.type} takes no paymentMethodId.`);
  // Commands that restart collection wait for a suspended seller's reinstatement (ChangePrice is
  // checked before its phases start); cancelling and pausing stay open.
  if (body.type === 'Reactivate' || body.type === 'Resume') await assertSellerAcceptsPayments(tx, merchantId);
  const at = await timeFor(tx, sub.testClockId);
  if (body.type === 'ChangePaymentMethod') {
    if (body.effectiveAt && body.effectiveAt > at) throw invalidField('effectiveAt', 'ChangePaymentMethod applies now; it cannot be scheduled.');
    return applyCommand(tx, sub, { type: body.type, priceId: null, paymentMethodId: body.paymentMethodId!, reason: body.reason ?? null }, at, actor, null);
  }
  if (body.type === 'ChangePrice') {
    // Validate now, even when scheduled, so a bad price is refused at once.
    const from = await findPriceRow(tx, merchantId, sub.priceId);
    const to = await findPriceRow(tx, merchantId, body.priceId!, 'priceId');
    planPriceChange(sub, from, to, at);
  }
  if (body.effectiveAt && body.effectiveAt > at) {
    const updated = await writeSubscription(tx, sub, {});
    const change = await recordChange(tx, updated, {
      type: body.type,
      status: 'scheduled',
      actor,
      reason: body.reason,
      effectiveAt: body.effectiveAt,
      fromPriceId: body.type === 'ChangePrice' ? sub.priceId : null,
      toPriceId: body.priceId ?? null,
      version: null,
    });
    const refreshed = await refreshNextAction(tx, updated);
    return { declined: false, subscription: toSubscriptionResponse(refreshed), change: toChangeResponse(change) };
  }
  return applyCommand(tx, sub, { type: body.type, priceId: body.priceId ?? null, reason: body.reason ?? null }, at, actor, null);
}

/** Applies one command now; `scheduled` is the change row when it was scheduled earlier. */
async function applyCommand(
  tx: Db,
  sub: SubscriptionRow,
  command: { type: CommandType; priceId: string | null; paymentMethodId?: string; reason: string | null },
  at: Date,
  actor: Actor,
  scheduled: ChangeRow | null,
): Promise<CommandResult> {
  let updated: SubscriptionRow;
  let proration: number | null = null;
  const invalid = (detail: string) => new ApiError('INVALID_STATE', detail);
  switch (command.type) {
    case 'ChangePrice': {
      const from = await findPriceRow(tx, sub.merchantId, sub.priceId);
      const to = await findPriceRow(tx, sub.merchantId, command.priceId!, 'priceId');
      const plan = planPriceChange(sub, from, to, at);
      proration = plan.prorated ? plan.net : null;
      if (plan.amountDueNow > 0) {
        const declined = await chargeProration(tx, sub, to, plan, at);
        if (declined) return declined;
      }
      updated = await writeSubscription(tx, sub, { priceId: to.id, creditBalance: plan.creditBalanceAfter });
      await recordEntitlementChanged(tx, { merchantId: sub.merchantId, customerId: sub.customerId, cause: 'subscription.price_changed', subscriptionId: sub.id, priceIds: [from.id, to.id] });
      break;
    }
    case 'CancelAtPeriodEnd': {
      if (sub.status === 'canceled' || sub.cancelAtPeriodEnd) throw invalid(`Subscription ${sub.id} is already canceled at its period end.`);
      updated = await writeSubscription(tx, sub, { status: 'canceled', cancelAtPeriodEnd: true, canceledAt: now() });
      await recordEvent(tx, { merchantId: sub.merchantId, type: 'subscription.canceled', object: toSubscriptionResponse(updated) });
      break;
    }
    case 'Reactivate': {
      if (sub.status !== 'canceled') throw invalid(`Only a canceled subscription that has not ended can be reactivated; ${sub.id} is ${sub.status}.`);
      const status = await runningStatus(tx, sub, at);
      updated = await writeSubscription(tx, sub, { status, cancelAtPeriodEnd: false, canceledAt: null });
      break;
    }
    case 'Pause': {
      if (sub.pausedAt) throw invalid(`Subscription ${sub.id} is already paused.`);
      updated = await writeSubscription(tx, sub, { pausedAt: at });
      break;
    }
    case 'Resume': {
      if (!sub.pausedAt) throw invalid(`Subscription ${sub.id} is not paused.`);
      updated = await writeSubscription(tx, sub, { pausedAt: null });
      break;
    }
    case 'ChangePaymentMethod': {
      const method = await findPaymentMethodRow(tx, sub.merchantId, sub.customerId, command.paymentMethodId!, 'paymentMethodId');
      updated = await writeSubscription(tx, sub, { paymentMethodId: method.id, paymentToken: null });
      if (sub.status === 'past_due' || sub.status === 'canceled') updated = await retryOpenRecordsNow(tx, updated);
      break;
    }
  }
  let change: ChangeRow;
  if (scheduled) {
    [change] = (await tx
      .update(subscriptionChanges)
      .set({ status: 'applied', appliedAt: now(), version: updated.version, prorationAmount: proration })
      .where(eq(subscriptionChanges.id, scheduled.id))
      .returning()) as [ChangeRow];
  } else {
    change = await recordChange(tx, updated, {
      type: command.type,
      actor,
      reason: command.reason,
      effectiveAt: at,
      fromPriceId: command.type === 'ChangePrice' ? sub.priceId : null,
      toPriceId: command.priceId,
      version: updated.version,
      prorationAmount: proration,
    });
  }
  return { declined: false, subscription: toSubscriptionResponse(updated), change: toChangeResponse(change) };
}

/** Charges a mid-period upgrade as its own billing record; a decline changes nothing but the failed payment. */
async function chargeProration(tx: Db, sub: SubscriptionRow, to: PriceRow, plan: PriceChangePlan, at: Date): Promise<CommandResult | null> {
  const description = `Proration: change to ${to.id} for the rest of the period ending ${plan.periodEnd.slice(0, 10)}`;
  const context = await subscriptionContext(tx, sub, sub.currentPeriodIndex);
  try {
    await tx.transaction(async (sp) => {
      const { payment, outcome } = await startChargeAttempt(sp, sub, {
        amount: plan.amountDueNow,
        currency: plan.currency,
        description,
        idempotencyKey: `${sub.id}:v${sub.version}:proration`,
      });
      if (outcome.status === 'failed') {
        throw new ChargeDeclined(
          { id: payment.id, merchantId: sub.merchantId, customerId: sub.customerId, paymentMethodId: payment.paymentMethodId, amount: payment.amount, currency: payment.currency, description },
          outcome,
        );
      }
      const record = await createBillingRecord(
        sp,
        {
          merchantId: sub.merchantId,
          customerId: sub.customerId,
          checkoutId: null,
          paymentId: payment.id,
          currency: plan.currency,
          description,
          billed: billingLines({ kind: 'proration', description, priceId: to.id, quantity: 1, unitAmount: plan.amountDueNow }),
        },
        { context, recordPayment: () => recordChargeOutcome(sp, payment, outcome, recordEvent, context) },
      );
      const [link] = await sp
        .insert(subscriptionBillingRecords)
        .values({
          id: newId('subscriptionItem'),
          merchantId: sub.merchantId,
          subscriptionId: sub.id,
          billingRecordId: record.id,
          kind: 'proration',
          attempts: 1,
          lastPaymentId: payment.id,
          createdAt: at,
        })
        .returning();
      if (outcome.status === 'succeeded') await settlePaid(sp, sub, link!, to.id);
      else await sp.update(subscriptionBillingRecords).set({ nextAttemptAt: new Date(at.getTime() + UNKNOWN_RECHECK_MS) }).where(eq(subscriptionBillingRecords.id, link!.id));
    });
    return null;
  } catch (error) {
    if (!(error instanceof ChargeDeclined)) throw error;
    const payment = await recordDeclinedCharge(tx, error, context);
    return { declined: true, payment: toPaymentResponse(payment), message: error.outcome.message, declineCode: error.outcome.declineCode };
  }
}

/**
 * Cancel. `immediate: true` ends the subscription now (`subscription.canceled` then
 * `subscription.ended`); open records are voided and no proration credit is given (a refund is
 * the seller's explicit decision, through the Refund API). `immediate: false` keeps service to
 * the period end (`subscription.canceled` now, `subscription.ended` then).
 */
export async function cancelSubscription(tx: Db, merchantId: string, subscriptionId: string, immediate: boolean, actor: Actor) {
  return withEventTime(await clockTimeOf(tx, merchantId, subscriptionId), () => cancelSubscriptionNow(tx, merchantId, subscriptionId, immediate, actor));
}

/** A test-clock subscription's time (its events carry it), or null on real time. */
async function clockTimeOf(tx: Db, merchantId: string, subscriptionId: string): Promise<Date | null> {
  const [sub] = await tx
    .select({ testClockId: subscriptions.testClockId })
    .from(subscriptions)
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.merchantId, merchantId)));
  return sub?.testClockId ? timeFor(tx, sub.testClockId) : null;
}

async function cancelSubscriptionNow(tx: Db, merchantId: string, subscriptionId: string, immediate: boolean, actor: Actor) {
  const sub = await findSubscriptionRow(tx, merchantId, subscriptionId, { forUpdate: true });
  if (sub.status === 'ended') throw new ApiError('INVALID_STATE', `Subscription ${sub.id} has already ended.`);
  const at = await timeFor(tx, sub.testClockId);
  if (!immediate) {
    if (sub.status === 'canceled') throw new ApiError('INVALID_STATE', `Subscription ${sub.id} is already canceled at its period end.`);
    const updated = await writeSubscription(tx, sub, { status: 'canceled', cancelAtPeriodEnd: true, canceledAt: now() });
    await recordChange(tx, updated, { type: 'CancelAtPeriodEnd', actor, effectiveAt: at, version: updated.version });
    await recordEvent(tx, { merchantId, type: 'subscription.canceled', object: toSubscriptionResponse(updated) });
    return getSubscriptionDetail(tx, merchantId, sub.id);
  }
  let current = sub;
  if (sub.status !== 'canceled') {
    current = await writeSubscription(tx, sub, { status: 'canceled', canceledAt: now() });
    await recordEvent(tx, { merchantId, type: 'subscription.canceled', object: toSubscriptionResponse(current) });
  }
  await endSubscription(tx, current, at, actor, 'Cancel');
  return getSubscriptionDetail(tx, merchantId, sub.id);
}

/** → ended: open records void, scheduled changes canceled, `subscription.ended`. */
async function endSubscription(tx: Db, sub: SubscriptionRow, at: Date, actor: Actor, type: SubscriptionCommandType, openRecordsBecome: 'void' | 'uncollectible' = 'void') {
  const open = await tx
    .select({ link: subscriptionBillingRecords })
    .from(subscriptionBillingRecords)
    .innerJoin(billingRecords, eq(billingRecords.id, subscriptionBillingRecords.billingRecordId))
    .where(and(eq(subscriptionBillingRecords.subscriptionId, sub.id), eq(billingRecords.status, 'open')));
  for (const { link } of open) {
    await closeBillingRecord(tx, sub.merchantId, link.billingRecordId, openRecordsBecome);
    await tx.update(subscriptionBillingRecords).set({ nextAttemptAt: null }).where(eq(subscriptionBillingRecords.id, link.id));
  }
  await tx
    .update(subscriptionChanges)
    .set({ status: 'canceled' })
    .where(and(eq(subscriptionChanges.subscriptionId, sub.id), eq(subscriptionChanges.status, 'scheduled')));
  const updated = await writeSubscription(tx, sub, { status: 'ended', endedAt: at, cancelAtPeriodEnd: false, nextActionAt: null });
  await recordChange(tx, updated, { type, actor, effectiveAt: at, version: updated.version });
  await recordEvent(tx, { merchantId: sub.merchantId, type: 'subscription.ended', object: toSubscriptionResponse(updated) });
  await recordEntitlementChanged(tx, { merchantId: sub.merchantId, customerId: sub.customerId, cause: 'subscription.ended', subscriptionId: sub.id, priceIds: [sub.priceId] });
  return updated;
}

// ---------------------------------------------------------------------------------------------
// The billing engine: one due action at a time, each in its own transaction

/**
 * Performs the earliest due action of one subscription (scheduled change, dunning retry,
 * renewal/trial end/period-end cancellation), if any is due at the subscription's time.
 * Returns false when nothing is due. The subscription row is locked for the whole action, so
 * concurrent workers serialize; the period uniqueness in billPeriod is the final guarantee.
 */
export async function processNextAction(tx: Db, subscriptionId: string): Promise<boolean> {
  const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, subscriptionId)).for('update');
  if (!sub || sub.status === 'ended') return false;
  const at = await timeFor(tx, sub.testClockId);
  // A suspended seller's subscriptions only move their periods, uncharged; everything else waits (docs/subscriptions.md).
  const suspended = await isMerchantSuspended(tx, sub.merchantId);
  if (suspended) {
    if (sub.currentPeriodEnd <= at) {
      await renew(tx, sub, { sellerSuspended: true });
      return true;
    }
    await refreshNextAction(tx, sub, { renewalsOnly: true });
    return false;
  }

  const [scheduled] = await tx
    .select()
    .from(subscriptionChanges)
    .where(and(eq(subscriptionChanges.subscriptionId, sub.id), eq(subscriptionChanges.status, 'scheduled'), lte(subscriptionChanges.effectiveAt, at)))
    .orderBy(asc(subscriptionChanges.effectiveAt), asc(subscriptionChanges.id))
    .limit(1);
  const [retry] = await tx
    .select()
    .from(subscriptionBillingRecords)
    .where(and(eq(subscriptionBillingRecords.subscriptionId, sub.id), isNotNull(subscriptionBillingRecords.nextAttemptAt), lte(subscriptionBillingRecords.nextAttemptAt, at)))
    .orderBy(asc(subscriptionBillingRecords.nextAttemptAt))
    .limit(1);
  const renewalDue = sub.currentPeriodEnd <= at;
  const candidates: { at: Date; run: () => Promise<void> }[] = [];
  if (scheduled) candidates.push({ at: scheduled.effectiveAt, run: () => applyScheduled(tx, sub, scheduled) });
  if (retry) candidates.push({ at: retry.nextAttemptAt!, run: () => retryDue(tx, sub, retry) });
  if (renewalDue) candidates.push({ at: sub.currentPeriodEnd, run: () => renew(tx, sub) });
  if (candidates.length === 0) {
    await refreshNextAction(tx, sub);
    return false;
  }
  // Earliest first; on a tie the listed order holds (changes, then retries, then the renewal).
  candidates.sort((a, b) => a.at.getTime() - b.at.getTime());
  // On a test clock, the action's events carry the clock time it happened at.
  await withEventTime(sub.testClockId ? candidates[0]!.at : null, candidates[0]!.run);
  return true;
}

async function applyScheduled(tx: Db, sub: SubscriptionRow, change: ChangeRow) {
  const command = { type: change.type as CommandType, priceId: change.toPriceId, reason: change.reason };
  try {
    await tx.transaction(async (sp) => {
      const result = await applyCommand(sp, sub, command, change.effectiveAt, change.actor, change);
      if (result.declined) throw new ApiError('PAYMENT_DECLINED', result.message);
    });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // A scheduled change that no longer applies (or whose proration declined) is canceled, not retried forever.
    await tx
      .update(subscriptionChanges)
      .set({ status: 'canceled', reason: `${change.reason ? `${change.reason} — ` : ''}not applied: ${error.detail}` })
      .where(eq(subscriptionChanges.id, change.id));
    await refreshNextAction(tx, sub);
  }
}

async function renew(tx: Db, sub: SubscriptionRow, options: { sellerSuspended?: boolean } = {}) {
  const boundary = sub.currentPeriodEnd;
  if (sub.status === 'canceled' || sub.cancelAtPeriodEnd) {
    await endSubscription(tx, sub, boundary, 'system', 'End');
    return;
  }
  const price = await findPriceRow(tx, sub.merchantId, sub.priceId);
  const cycle = cycleOf(sub, price);
  const index = sub.currentPeriodIndex + 1;
  const periodSet = { currentPeriodIndex: index, currentPeriodStart: periodBoundary(cycle, index), currentPeriodEnd: periodBoundary(cycle, index + 1) };
  if (sub.pausedAt || options.sellerSuspended) {
    // Collection paused (or the seller suspended): the period moves on without a charge or credits.
    const reason = options.sellerSuspended ? 'seller suspended: not charged' : 'collection paused: not charged';
    const updated = await writeSubscription(tx, sub, periodSet);
    if (options.sellerSuspended) await refreshNextAction(tx, updated, { renewalsOnly: true });
    await recordChange(tx, updated, { type: 'Renew', actor: 'system', reason, effectiveAt: boundary, version: updated.version });
    return;
  }
  const [moved] = await tx.update(subscriptions).set(periodSet).where(eq(subscriptions.id, sub.id)).returning();
  const billed = await billPeriod(tx, moved!, price, await productName(tx, price), index, boundary);
  let status: SubscriptionStatus;
  if (billed.outcome.status === 'succeeded') {
    await settlePaid(tx, moved!, billed.link, price.id);
    status = (await hasOpenRecords(tx, sub.id)) ? 'past_due' : 'active';
  } else {
    const retryAt = billed.outcome.status === 'failed' ? nextRetryAt(boundary, 1) : new Date(boundary.getTime() + UNKNOWN_RECHECK_MS);
    if (retryAt) {
      await tx.update(subscriptionBillingRecords).set({ nextAttemptAt: retryAt }).where(eq(subscriptionBillingRecords.id, billed.link.id));
      status = 'past_due';
    } else {
      // No retries configured: the record is uncollectible at once.
      const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
      await endSubscription(tx, current!, boundary, 'system', 'End', 'uncollectible');
      return;
    }
  }
  const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
  const updated = await writeSubscription(tx, current!, { status });
  await recordChange(tx, updated, { type: 'Renew', actor: 'system', effectiveAt: boundary, toPriceId: price.id, version: updated.version });
}

/** A dunning retry (or a second look at an unknown outcome) of one open record. */
async function retryDue(tx: Db, sub: SubscriptionRow, link: SubscriptionBillingRow) {
  const [record] = await tx.select().from(billingRecords).where(eq(billingRecords.id, link.billingRecordId));
  const at = link.nextAttemptAt!;
  if (record?.status !== 'open') {
    // Settled elsewhere (the payment reconciliation job): follow it.
    await tx.update(subscriptionBillingRecords).set({ nextAttemptAt: null }).where(eq(subscriptionBillingRecords.id, link.id));
    if (record?.status === 'paid' && link.kind === 'period' && link.periodIndex !== null) {
      await grantPeriodCredits(tx, sub, sub.priceId, link.periodIndex);
    }
    await afterRecordSettled(tx, sub, at);
    return;
  }
  if (link.lastPaymentId) {
    const [last] = await tx.select().from(payments).where(eq(payments.id, link.lastPaymentId));
    if (last?.status === 'unknown') {
      // Ask the processor (as the reconciliation job does); still unknown → look again later.
      const answer = await retrieveChargeInTransaction(last.processorKey ?? last.id);
      // The processor never saw the charge: nothing was taken, which counts as a failed attempt.
      const settled = answer.status === 'not_found' ? { status: 'failed' as const, declineCode: 'processor_error', message: 'The payment could not be processed.' } : answer;
      if (settled.status === 'unknown') {
        await tx.update(subscriptionBillingRecords).set({ nextAttemptAt: new Date(at.getTime() + UNKNOWN_RECHECK_MS) }).where(eq(subscriptionBillingRecords.id, link.id));
        await refreshNextAction(tx, sub);
        return;
      }
      const row = await settleUnknownPaymentRow(tx, last.id, settled, await subscriptionContext(tx, sub, link.periodIndex ?? sub.currentPeriodIndex));
      if (row) last.status = row.status;
      if (settled.status === 'failed') {
        // Counts as the failed attempt: the dunning schedule continues from it.
        const next = nextRetryAt(link.createdAt, link.attempts);
        if (next) {
          await tx.update(subscriptionBillingRecords).set({ nextAttemptAt: new Date(Math.max(next.getTime(), at.getTime())) }).where(eq(subscriptionBillingRecords.id, link.id));
          const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
          await writeSubscription(tx, current!, { status: current!.status === 'canceled' ? 'canceled' : 'past_due' });
        } else {
          const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
          await endSubscription(tx, current!, at, 'system', 'End', 'uncollectible');
        }
        return;
      }
    }
    if (last?.status === 'succeeded') {
      await settlePaid(tx, sub, link, sub.priceId);
      await afterRecordSettled(tx, sub, at);
      return;
    }
  }
  const { link: updatedLink, outcome } = await retryRecord(tx, sub, link, record.amount, record.currency, record.description);
  if (outcome.status === 'succeeded') {
    await settlePaid(tx, sub, updatedLink, sub.priceId);
    await afterRecordSettled(tx, sub, at);
    return;
  }
  const firstAttempt = link.createdAt;
  const next = outcome.status === 'unknown' ? new Date(at.getTime() + UNKNOWN_RECHECK_MS) : nextRetryAt(firstAttempt, updatedLink.attempts);
  if (next) {
    await tx.update(subscriptionBillingRecords).set({ nextAttemptAt: next }).where(eq(subscriptionBillingRecords.id, link.id));
    const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    await writeSubscription(tx, current!, { status: current!.status === 'canceled' ? 'canceled' : 'past_due' });
    return;
  }
  // Every retry failed: the record is uncollectible and the subscription ends.
  const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
  await endSubscription(tx, current!, at, 'system', 'End', 'uncollectible');
}

/**
 * Settles a subscription charge whose outcome was unknown, when the reconciliation job hears the
 * processor's answer (PAYMENT_RECONCILE_DELAY_MS after the charge, as for one-time payments): a
 * success pays the record and re-evaluates the subscription at once (past_due → active); a
 * failure counts as the attempt and dunning continues from it. `not_subscription` when the
 * payment is not the latest attempt of a subscription's record.
 */
export async function settleSubscriptionCharge(
  tx: Db,
  paymentId: string,
  outcome: Exclude<SettledOutcome, { status: 'unknown' }>,
): Promise<'not_subscription' | 'settled' | 'already_settled'> {
  const [found] = await tx
    .select({ link: subscriptionBillingRecords })
    .from(subscriptionBillingRecords)
    .where(eq(subscriptionBillingRecords.lastPaymentId, paymentId));
  if (!found) return 'not_subscription';
  const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, found.link.subscriptionId)).for('update');
  const link = found.link;
  const settled = await settleUnknownPaymentRow(tx, paymentId, outcome, await subscriptionContext(tx, sub!, link.periodIndex ?? sub!.currentPeriodIndex));
  const [record] = await tx.select().from(billingRecords).where(eq(billingRecords.id, link.billingRecordId));
  if (!settled) return 'already_settled';
  if (sub!.status === 'ended' || record?.status !== 'open') return 'settled';
  const at = await timeFor(tx, sub!.testClockId);
  if (outcome.status === 'succeeded') {
    await settlePaid(tx, sub!, link, sub!.priceId);
    await afterRecordSettled(tx, sub!, at);
    return 'settled';
  }
  const next = nextRetryAt(link.createdAt, link.attempts);
  if (!next) {
    await endSubscription(tx, sub!, at, 'system', 'End', 'uncollectible');
    return 'settled';
  }
  await tx.update(subscriptionBillingRecords).set({ nextAttemptAt: new Date(Math.max(next.getTime(), at.getTime())) }).where(eq(subscriptionBillingRecords.id, link.id));
  await writeSubscription(tx, sub!, { status: sub!.status === 'canceled' ? 'canceled' : 'past_due' });
  return 'settled';
}

async function afterRecordSettled(tx: Db, sub: SubscriptionRow, at: Date) {
  const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
  if (!current || current.status === 'ended') return;
  const status = current.status === 'canceled' ? 'canceled' : await runningStatus(tx, current, at);
  await writeSubscription(tx, current, { status });
}

/** `subscription.updated` with the previous values of what changed (nothing changed: no event). */
async function recordSubscriptionUpdated(tx: Db, before: SubscriptionRow, after: SubscriptionRow) {
  const previousAttributes = changedAttributes(toSubscriptionResponse(before), toSubscriptionResponse(after));
  if (Object.keys(previousAttributes).length === 0) return;
  await recordEvent(tx, { merchantId: after.merchantId, type: 'subscription.updated', object: toSubscriptionResponse(after), previousAttributes });
}

/** The subscription's open (dunning) records become due now. */
async function retryOpenRecordsNow(tx: Db, sub: SubscriptionRow): Promise<SubscriptionRow> {
  const at = await timeFor(tx, sub.testClockId);
  await tx
    .update(subscriptionBillingRecords)
    .set({ nextAttemptAt: at })
    .where(and(eq(subscriptionBillingRecords.subscriptionId, sub.id), isNotNull(subscriptionBillingRecords.nextAttemptAt)));
  return refreshNextAction(tx, sub);
}

/**
 * The customer's running subscriptions (or those charging `only.from`) charge this saved method
 * from now on: each is a ChangePaymentMethod change with its `subscription.updated`.
 */
export async function moveSubscriptionsToPaymentMethod(
  tx: Db,
  merchantId: string,
  customerId: string,
  paymentMethodId: string,
  actor: Actor,
  only: { from?: string } = {},
) {
  const subs = await tx
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.merchantId, merchantId),
        eq(subscriptions.customerId, customerId),
        ne(subscriptions.status, 'ended'),
        only.from ? eq(subscriptions.paymentMethodId, only.from) : undefined,
      ),
    )
    .for('update');
  for (const sub of subs) {
    if (sub.paymentMethodId === paymentMethodId) continue;
    const at = await timeFor(tx, sub.testClockId);
    await applyCommand(tx, sub, { type: 'ChangePaymentMethod', priceId: null, paymentMethodId, reason: 'The customer changed their default payment method.' }, at, actor, null);
  }
}

/**
 * Retries the open records of a customer's past_due subscriptions now (a new payment method
 * was added or made default).
 */
export async function retryPastDueForCustomer(tx: Db, merchantId: string, customerId: string) {
  const subs = await tx
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.merchantId, merchantId), eq(subscriptions.customerId, customerId), inArray(subscriptions.status, ['past_due', 'canceled'])));
  for (const sub of subs) await retryOpenRecordsNow(tx, sub);
  return subs.map((sub) => sub.id);
}

/** After a seller's reinstatement: held dunning retries and scheduled changes become due again. */
export async function resumeHeldSubscriptionActions(tx: Db, merchantId: string) {
  const rows = await tx.select().from(subscriptions).where(and(eq(subscriptions.merchantId, merchantId), ne(subscriptions.status, 'ended')));
  for (const sub of rows) await refreshNextAction(tx, sub);
}

/**
 * Runs every due action of one subscription, each in its own transactions: an action that
 * charges runs in phases, its processor call between them (lib/payments/charges.ts).
 */
export async function processSubscription(db: Database, subscriptionId: string, maxActions = 5_000): Promise<number> {
  let done = 0;
  while (done < maxActions) {
    const did = await runChargePhases(plainPhases(db), { kind: 'subscription-action', subscriptionId }, (tx) => processNextAction(tx, subscriptionId));
    if (!did) break;
    done++;
  }
  return done;
}

/** Subscriptions on real time with something due now (the renewal job's work list). */
export async function dueSubscriptionIds(db: Db, limit = 500) {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(isNull(subscriptions.testClockId), ne(subscriptions.status, 'ended'), lte(subscriptions.nextActionAt, now())))
    .orderBy(asc(subscriptions.nextActionAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

