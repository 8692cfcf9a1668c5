import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { billingRecords, payments, subscriptionBillingRecords, subscriptions } from '../db/schema';
import { settleUnknownPaymentRow } from '../payments/payments';
import type { SettledOutcome } from '../payments/processor/types';
import { retrieveChargeInTransaction } from '../payments/charges';
import { timeFor } from './time';
import {
  grantPeriodCredits,
  nextRetryAt,
  retryRecord,
  settlePaid,
  subscriptionContext,
  UNKNOWN_RECHECK_MS,
  type SubscriptionBillingRow,
  type SubscriptionRow,
} from './billing';
import { endSubscription, refreshNextAction, runningStatus, writeSubscription } from './subscription-writer';

// Dunning: retries of an open record, second looks at unknown outcomes, and what follows when
// a record settles (past_due → active, or ended when it cannot be collected).

/** A dunning retry (or a second look at an unknown outcome) of one open record. */
export async function retryDue(tx: Db, sub: SubscriptionRow, link: SubscriptionBillingRow) {
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
      const settled =
        answer.status === 'not_found' ? { status: 'failed' as const, declineCode: 'processor_error', message: 'The payment could not be processed.' } : answer;
      if (settled.status === 'unknown') {
        await tx
          .update(subscriptionBillingRecords)
          .set({ nextAttemptAt: new Date(at.getTime() + UNKNOWN_RECHECK_MS) })
          .where(eq(subscriptionBillingRecords.id, link.id));
        await refreshNextAction(tx, sub);
        return;
      }
      const row = await settleUnknownPaymentRow(tx, last.id, settled, await subscriptionContext(tx, sub, link.periodIndex ?? sub.currentPeriodIndex));
      if (row) last.status = row.status;
      if (settled.status === 'failed') {
        // Counts as the failed attempt: the dunning schedule continues from it.
        const next = nextRetryAt(link.createdAt, link.attempts);
        if (next) {
          await tx
            .update(subscriptionBillingRecords)
            .set({ nextAttemptAt: new Date(Math.max(next.getTime(), at.getTime())) })
            .where(eq(subscriptionBillingRecords.id, link.id));
          const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
          await awaitNextRetry(tx, current!);
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
    await awaitNextRetry(tx, current!);
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
  await tx
    .update(subscriptionBillingRecords)
    .set({ nextAttemptAt: new Date(Math.max(next.getTime(), at.getTime())) })
    .where(eq(subscriptionBillingRecords.id, link.id));
  await awaitNextRetry(tx, sub!);
  return 'settled';
}

/** A failed attempt with retries left: past_due (a canceled subscription stays canceled to its period end). */
async function awaitNextRetry(tx: Db, sub: SubscriptionRow) {
  await writeSubscription(tx, sub, { status: sub.status === 'canceled' ? 'canceled' : 'past_due' });
}

/** A record was paid (or settled elsewhere): the subscription is what its trial and remaining open records say. */
async function afterRecordSettled(tx: Db, sub: SubscriptionRow, at: Date) {
  const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
  if (!current || current.status === 'ended') return;
  const status = current.status === 'canceled' ? 'canceled' : await runningStatus(tx, current, at);
  await writeSubscription(tx, current, { status });
}
