import { and, asc, eq, isNotNull, isNull, lte, ne } from 'drizzle-orm';
import type { Database, Db } from '../db/client';
import { plainPhases } from '../db/phases';
import { subscriptionBillingRecords, subscriptionChanges, subscriptions } from '../db/schema';
import type { SubscriptionStatus } from '../db/schema';
import { now } from '../clock';
import { withEventTime } from '../events/record-event';
import { ApiError } from '../http/errors';
import { findPriceRow } from '../catalog/prices';
import { runChargePhases } from '../payments/charges';
import { isMerchantSuspended } from '../merchants/accepts-payments';
import { periodBoundary } from './periods';
import { timeFor } from './time';
import { billPeriod, cycleOf, nextRetryAt, productNameOf, settlePaid, UNKNOWN_RECHECK_MS, type SubscriptionRow } from './billing';
import { applyCommand } from './commands';
import { retryDue } from './dunning';
import type { ChangeRow } from './responses';
import {
  endSubscription,
  hasOpenRecords,
  markChangeCanceled,
  moveSubscriptionPeriod,
  recordChange,
  refreshNextAction,
  writeSubscription,
} from './subscription-writer';
import type { CommandType } from './schemas';

// The billing engine: one due action at a time, each in its own transaction (renewals, trial
// ends, period-end cancellations, scheduled changes; dunning retries are in dunning.ts).

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
    .where(
      and(
        eq(subscriptionBillingRecords.subscriptionId, sub.id),
        isNotNull(subscriptionBillingRecords.nextAttemptAt),
        lte(subscriptionBillingRecords.nextAttemptAt, at),
      ),
    )
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
    await markChangeCanceled(tx, change, `${change.reason ? `${change.reason} — ` : ''}not applied: ${error.detail}`);
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
  const moved = await moveSubscriptionPeriod(tx, sub, periodSet);
  const billed = await billPeriod(tx, moved, price, await productNameOf(tx, price), index, boundary);
  let status: SubscriptionStatus;
  if (billed.outcome.status === 'succeeded') {
    await settlePaid(tx, moved, billed.link, price.id);
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

/** After a seller's reinstatement: held dunning retries and scheduled changes become due again. */
export async function resumeHeldSubscriptionActions(tx: Db, merchantId: string) {
  const rows = await tx
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.merchantId, merchantId), ne(subscriptions.status, 'ended')));
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
