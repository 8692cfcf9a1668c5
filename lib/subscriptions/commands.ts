import { and, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { subscriptionBillingRecords, subscriptions } from '../db/schema';
import { now } from '../clock';
import { recordEvent, withEventTime } from '../events/record-event';
import { ApiError, invalidField } from '../errors';
import { findPriceRow } from '../catalog/prices';
import { findPaymentMethodRow } from '../payments/payment-methods';
import { assertSellerAcceptsPayments } from '../merchants/accepts-payments';
import { timeFor } from './time';
import { chargeInFlight, type SubscriptionRow } from './billing';
import { selectTax } from '../tax/tax-selection';
import type { Pinned } from '../payments/money-moves';
import { changePrice, planPriceChange } from './price-change';
import { findSubscriptionRow, getSubscriptionDetail } from './queries';
import { toChangeResponse, toSubscriptionResponse, type ChangeRow, type CommandResult } from './responses';
import { endSubscription, markChangeApplied, recordChange, refreshNextAction, runningStatus, writeSubscription, type Actor } from './subscription-writer';
import { PRICE_COMMANDS, type CommandBody, type CommandType } from './schemas';
import { addSubscriptionItem, listSubscriptionItems, removeSubscriptionItem } from './items';
import { enqueueJob } from '../jobs/enqueue';
import { queueCanceledEmail } from './lifecycle-email-jobs';

/** What a seller or customer asks of one subscription: Command (now or scheduled) and Cancel. */

export type { CommandResult };

function checkVersion(sub: SubscriptionRow, expectedVersion: string | undefined) {
  if (expectedVersion !== undefined && Number(expectedVersion) !== sub.version) {
    throw new ApiError('VERSION_CONFLICT', `Subscription ${sub.id} is at version ${sub.version}, not ${expectedVersion}. Read it again and retry.`, {
      extra: { currentVersion: String(sub.version) },
    });
  }
}

/** A test-clock subscription's time (its events carry it), or null on real time. */
async function clockTimeOf(tx: Db, merchantId: string, subscriptionId: string): Promise<Date | null> {
  const [sub] = await tx
    .select({ testClockId: subscriptions.testClockId })
    .from(subscriptions)
    .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.merchantId, merchantId)));
  return sub?.testClockId ? timeFor(tx, sub.testClockId) : null;
}

export async function commandSubscription(
  tx: Db,
  merchantId: string,
  subscriptionId: string,
  body: z.output<typeof CommandBody>,
  actor: Actor,
): Promise<CommandResult | Pinned> {
  return withEventTime(await clockTimeOf(tx, merchantId, subscriptionId), () => commandSubscriptionNow(tx, merchantId, subscriptionId, body, actor));
}

async function commandSubscriptionNow(
  tx: Db,
  merchantId: string,
  subscriptionId: string,
  body: z.output<typeof CommandBody>,
  actor: Actor,
): Promise<CommandResult | Pinned> {
  const sub = await findSubscriptionRow(tx, merchantId, subscriptionId, { forUpdate: true });
  checkVersion(sub, body.expectedVersion);
  if (sub.status === 'ended') throw new ApiError('INVALID_STATE', `Subscription ${sub.id} has ended; nothing can change it.`);
  const namesPrice = PRICE_COMMANDS.includes(body.type);
  if (namesPrice && !body.priceId) throw invalidField('priceId', `${body.type} needs priceId.`);
  if (!namesPrice && body.priceId) throw invalidField('priceId', `${body.type} takes no priceId.`);
  if (body.type === 'ChangePaymentMethod' && !body.paymentMethodId) throw invalidField('paymentMethodId', 'ChangePaymentMethod needs paymentMethodId.');
  if (body.type !== 'ChangePaymentMethod' && body.paymentMethodId) throw invalidField('paymentMethodId', `${body.type} takes no paymentMethodId.`);
  if (body.type === 'SetUsageThreshold' && body.usageThresholdAmount === undefined) {
    throw invalidField('usageThresholdAmount', 'SetUsageThreshold needs usageThresholdAmount (null removes the threshold).');
  }
  if (body.type !== 'SetUsageThreshold' && body.usageThresholdAmount !== undefined) {
    throw invalidField('usageThresholdAmount', `${body.type} takes no usageThresholdAmount.`);
  }
  // Commands that restart collection wait for a suspended seller's reinstatement (ChangePrice is
  // checked before its phases start); cancelling and pausing stay open.
  if (body.type === 'Reactivate' || body.type === 'Resume') await assertSellerAcceptsPayments(tx, merchantId);
  const at = await timeFor(tx, sub.testClockId);
  if (body.type === 'SetUsageThreshold') {
    if (body.effectiveAt && body.effectiveAt > at) throw invalidField('effectiveAt', 'SetUsageThreshold applies now; it cannot be scheduled.');
    const command = { type: body.type, priceId: null, usageThresholdAmount: body.usageThresholdAmount ?? null, reason: body.reason ?? null };
    return applyCommand(tx, sub, command, at, actor, null);
  }
  if (body.type === 'ChangePaymentMethod') {
    if (body.effectiveAt && body.effectiveAt > at) throw invalidField('effectiveAt', 'ChangePaymentMethod applies now; it cannot be scheduled.');
    return applyCommand(tx, sub, { type: body.type, priceId: null, paymentMethodId: body.paymentMethodId!, reason: body.reason ?? null }, at, actor, null);
  }
  if (body.type === 'ChangePrice') {
    if (await chargeInFlight(tx, sub)) {
      throw new ApiError('CONFLICT', `A payment of subscription ${sub.id} is being processed; retry the price change in a moment.`);
    }
    // Validate now, even when scheduled, so a bad price is refused at once.
    const from = await findPriceRow(tx, merchantId, sub.priceId);
    const to = await findPriceRow(tx, merchantId, body.priceId!, 'priceId');
    planPriceChange(sub, from, to, at);
  }
  // Validated now, even when scheduled, so a bad item is refused at once (and checked again when applied).
  if (body.type === 'AddItem') await addSubscriptionItem(tx, sub, body.priceId!, at, true);
  if (body.type === 'RemoveItem') await removeSubscriptionItem(tx, sub, body.priceId!, at, true);
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

/**
 * Applies one command now; `scheduled` is the change row when it was scheduled earlier (the
 * billing engine). A price change that charges is phase 1 of a money move (price-change.ts).
 */
export async function applyCommand(
  tx: Db,
  sub: SubscriptionRow,
  command: { type: CommandType; priceId: string | null; paymentMethodId?: string; usageThresholdAmount?: number | null; reason: string | null },
  at: Date,
  actor: Actor,
  scheduled: ChangeRow | null,
): Promise<CommandResult | Pinned> {
  let updated: SubscriptionRow;
  const invalid = (detail: string) => new ApiError('INVALID_STATE', detail);
  switch (command.type) {
    case 'ChangePrice': {
      const from = await findPriceRow(tx, sub.merchantId, sub.priceId);
      const to = await findPriceRow(tx, sub.merchantId, command.priceId!, 'priceId');
      const plan = planPriceChange(sub, from, to, at, await selectTax(tx, sub.merchantId, sub.customerId, [to.id]));
      return changePrice(tx, sub, plan, { actor, reason: command.reason, scheduled, customerPresent: actor.startsWith('portal:') });
    }
    case 'CancelAtPeriodEnd': {
      if (sub.status === 'canceled' || sub.cancelAtPeriodEnd) throw invalid(`Subscription ${sub.id} is already canceled at its period end.`);
      updated = await writeSubscription(tx, sub, { status: 'canceled', cancelAtPeriodEnd: true, canceledAt: now() });
      await recordEvent(tx, { merchantId: sub.merchantId, type: 'subscription.canceled', object: toSubscriptionResponse(updated) });
      await queueCanceledEmail(tx, updated);
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
    case 'AddItem': {
      await addSubscriptionItem(tx, sub, command.priceId!, at);
      updated = await writeSubscription(tx, sub, {});
      break;
    }
    case 'RemoveItem': {
      await removeSubscriptionItem(tx, sub, command.priceId!, at);
      updated = await writeSubscription(tx, sub, {});
      break;
    }
    case 'SetUsageThreshold': {
      const amount = command.usageThresholdAmount ?? null;
      if (amount !== null && (await listSubscriptionItems(tx, sub.id)).length === 0) {
        throw invalidField('usageThresholdAmount', `Subscription ${sub.id} has no metered items: a usage threshold needs them.`);
      }
      updated = await writeSubscription(tx, sub, { usageThresholdAmount: amount });
      // The usage so far may already reach the new threshold.
      if (amount !== null) await enqueueJob(tx, 'check-usage-threshold', { subscriptionId: sub.id }, { jobKey: `usage-threshold:${sub.id}` });
      break;
    }
    case 'ChangePaymentMethod': {
      const method = await findPaymentMethodRow(tx, sub.merchantId, sub.customerId, command.paymentMethodId!, 'paymentMethodId');
      updated = await writeSubscription(tx, sub, { paymentMethodId: method.id, paymentToken: null });
      if (sub.status === 'past_due' || sub.status === 'canceled') updated = await retryOpenRecordsNow(tx, updated);
      break;
    }
  }
  const change = scheduled
    ? await markChangeApplied(tx, scheduled, { version: updated.version, prorationAmount: null })
    : await recordChange(tx, updated, {
        type: command.type,
        actor,
        reason: command.reason,
        effectiveAt: at,
        toPriceId: command.priceId,
        version: updated.version,
      });
  return { declined: false, subscription: toSubscriptionResponse(updated), change: toChangeResponse(change) };
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

async function cancelSubscriptionNow(tx: Db, merchantId: string, subscriptionId: string, immediate: boolean, actor: Actor) {
  const sub = await findSubscriptionRow(tx, merchantId, subscriptionId, { forUpdate: true });
  if (sub.status === 'ended') throw new ApiError('INVALID_STATE', `Subscription ${sub.id} has already ended.`);
  const at = await timeFor(tx, sub.testClockId);
  if (!immediate) {
    if (sub.status === 'canceled') throw new ApiError('INVALID_STATE', `Subscription ${sub.id} is already canceled at its period end.`);
    const updated = await writeSubscription(tx, sub, { status: 'canceled', cancelAtPeriodEnd: true, canceledAt: now() });
    await recordChange(tx, updated, { type: 'CancelAtPeriodEnd', actor, effectiveAt: at, version: updated.version });
    await recordEvent(tx, { merchantId, type: 'subscription.canceled', object: toSubscriptionResponse(updated) });
    await queueCanceledEmail(tx, updated);
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

// ---------------------------------------------------------------------------------------------
// A customer's payment method changes: their subscriptions follow it

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
    await applyCommand(
      tx,
      sub,
      { type: 'ChangePaymentMethod', priceId: null, paymentMethodId, reason: 'The customer changed their default payment method.' },
      at,
      actor,
      null,
    );
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
