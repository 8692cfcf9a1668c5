import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database, Db } from '../db/client';
import { billingRecords, payments, subscriptionBillingRecords, subscriptions } from '../db/schema';
import { newId } from '../ids';
import { recordEvent, withEventTime } from '../events/record-event';
import { processorOf } from '../payments/processor';
import { defineMoneyMove, Pinned, PinnedCard, pinMoneyMove, pinnedMoveOf, type DefiniteOutcome, type KnownOutcome } from '../payments/money-moves';
import { recordChargeOutcome, settleUnknownPaymentRow, type PaymentRow } from '../payments/payments';
import { refundUnwantedCharge } from '../payments/refunds';
import { closeBillingRecord, setBillingRecordPayment, type BillingRecordRow } from '../billing/billing-records';
import { requestPaymentAuthentication } from '../billing/authentication-request';
import { timeFor } from './time';
import {
  grantPeriodCredits,
  nextRetryAt,
  resolveToken,
  settlePaid,
  subscriptionContext,
  UNKNOWN_RECHECK_MS,
  UnknownCharge,
  type ActionStep,
  type SubscriptionBillingRow,
  type SubscriptionRow,
} from './billing';
import { endSubscription, refreshNextAction, runningStatus, writeSubscription } from './subscription-writer';
import { queueRenewalFailedEmail } from './lifecycle-email-jobs';

// Dunning: retries of an open record, second looks at unknown outcomes, and what follows when
// a record settles (past_due → active, or ended when it cannot be collected).

/**
 * A charge of an open record, pinned in phase 1 (lib/payments/money-moves.ts): a dunning retry,
 * or (`customerPresent`) the customer paying it on its hosted invoice page (invoice-payment.ts),
 * who can authenticate there. The customer's payment is not one of dunning's attempts: it
 * leaves the retry schedule as it was unless it pays the record.
 */
export const RetryPlan = z.object({
  subscriptionId: z.string(),
  linkId: z.string(),
  billingRecordId: z.string(),
  attempt: z.number().int(),
  periodIndex: z.number().int().nullable(),
  at: z.coerce.date(),
  card: PinnedCard,
  customerPresent: z.boolean().default(false),
});
export type RetryPlan = z.output<typeof RetryPlan>;

/** Phase 1 of a dunning retry (or a second look at an unknown outcome) of one open record. */
export async function retryDue(tx: Db, sub: SubscriptionRow, link: SubscriptionBillingRow): Promise<ActionStep> {
  const [record] = await tx.select().from(billingRecords).where(eq(billingRecords.id, link.billingRecordId));
  const at = link.nextAttemptAt!;
  if (record?.status !== 'open') {
    // Settled elsewhere (the payment reconciliation job): follow it.
    await tx.update(subscriptionBillingRecords).set({ nextAttemptAt: null }).where(eq(subscriptionBillingRecords.id, link.id));
    if (record?.status === 'paid' && link.kind === 'period' && link.periodIndex !== null) {
      await grantPeriodCredits(tx, sub, sub.priceId, link.periodIndex);
    }
    await afterRecordSettled(tx, sub, at);
    return 'done';
  }
  if (link.lastPaymentId) {
    const [last] = await tx.select().from(payments).where(eq(payments.id, link.lastPaymentId));
    if (last?.status === 'unknown') {
      // Ask the processor (no transaction open), as the reconciliation job does; still unknown → look again later.
      await tx
        .update(subscriptionBillingRecords)
        .set({ nextAttemptAt: new Date(at.getTime() + UNKNOWN_RECHECK_MS) })
        .where(eq(subscriptionBillingRecords.id, link.id));
      await refreshNextAction(tx, sub);
      return new UnknownCharge(last.id);
    }
    if (last?.status === 'succeeded') {
      await settlePaid(tx, sub, link, sub.priceId);
      await afterRecordSettled(tx, sub, at);
      return 'done';
    }
  }
  const attempt = link.attempts + 1;
  const source = await resolveToken(tx, sub);
  // Not due again while this attempt is in flight; its phase 3 sets the next one.
  await tx.update(subscriptionBillingRecords).set({ nextAttemptAt: null }).where(eq(subscriptionBillingRecords.id, link.id));
  await refreshNextAction(tx, sub);
  const plan: RetryPlan = {
    subscriptionId: sub.id,
    linkId: link.id,
    billingRecordId: record.id,
    attempt,
    periodIndex: link.periodIndex,
    at,
    card: source.card,
    customerPresent: false,
  };
  const step = await pinMoneyMove(tx, dunningRetryMove, plan, {
    id: newId('payment'),
    merchantId: sub.merchantId,
    customerId: sub.customerId,
    checkoutId: null,
    paymentMethodId: source.paymentMethodId,
    amount: record.amount,
    currency: record.currency,
    description: record.description,
    token: source.token,
    processorKey: `${sub.id}:${link.id}:a${attempt}`,
  });
  return step instanceof Pinned ? step : 'done';
}

/**
 * Phase 3 of a dunning retry (or of the customer's payment from the invoice page): the
 * attempt's outcome on its record, then the schedule or the end.
 */
async function applyRetry(tx: Db, pending: PaymentRow, plan: RetryPlan, outcome: KnownOutcome): Promise<void> {
  const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, plan.subscriptionId)).for('update');
  await withEventTime(sub!.testClockId ? plan.at : null, async () => {
    const context = await subscriptionContext(tx, sub!, plan.periodIndex ?? sub!.currentPeriodIndex);
    const payment = await recordChargeOutcome(tx, pending, outcome, recordEvent, context);
    await setBillingRecordPayment(tx, plan.billingRecordId, payment.id);
    const [link] = await tx
      .update(subscriptionBillingRecords)
      .set({ attempts: plan.attempt, lastPaymentId: payment.id })
      .where(eq(subscriptionBillingRecords.id, plan.linkId))
      .returning();
    const [record] = await tx.select().from(billingRecords).where(eq(billingRecords.id, plan.billingRecordId));
    if (sub!.status === 'ended' || record?.status !== 'open') {
      // The subscription ended (its open record voided), or another payment paid the record, while this one was charged.
      if (outcome.status === 'succeeded') await refundUnwantedCharge(tx, payment, unwantedChargeReason(sub!, record));
      return;
    }
    if (outcome.status === 'succeeded') {
      await settlePaid(tx, sub!, link!, sub!.priceId);
      await afterRecordSettled(tx, sub!, plan.at);
      return;
    }
    // The customer's own payment (declined, or waiting for their authentication) leaves dunning's schedule as it was.
    if (plan.customerPresent) return;
    await askCustomerToAct(tx, plan.billingRecordId, outcome);
    const next = outcome.status === 'unknown' ? new Date(plan.at.getTime() + UNKNOWN_RECHECK_MS) : nextRetryAt(link!.createdAt, plan.attempt);
    const [current] = await tx.select().from(subscriptions).where(eq(subscriptions.id, sub!.id));
    if (next) {
      await tx.update(subscriptionBillingRecords).set({ nextAttemptAt: next }).where(eq(subscriptionBillingRecords.id, link!.id));
      await awaitNextRetry(tx, current!);
      return;
    }
    // Every retry failed: the record is uncollectible and the subscription ends.
    await endSubscription(tx, current!, plan.at, 'system', 'End', 'uncollectible');
  });
}

export const dunningRetryMove = defineMoneyMove({
  kind: 'subscription-retry',
  plan: RetryPlan,
  customerPresent: (plan) => plan.customerPresent,
  // Only the customer's payment on the invoice page is charged with them there; a retry is off-session.
  takesCustomerAction: true,
  stillWanted: async (db, plan) => {
    const [record] = await db.select({ status: billingRecords.status }).from(billingRecords).where(eq(billingRecords.id, plan.billingRecordId));
    return record?.status === 'open' && (await subscriptionStillRunning(db, plan));
  },
  apply: (tx, { payment, plan }, outcome) => applyRetry(tx, payment, plan, outcome),
  recorded: async () => undefined,
  settle: async (tx, { payment, plan }, outcome) => {
    await settleSubscriptionCharge(tx, payment.id, outcome, { linkId: plan.linkId, customerPresent: plan.customerPresent });
  },
});

/**
 * An off-session charge of an open record declined: when the bank wants the customer to
 * authenticate it, the customer is emailed the record's hosted invoice page (once per record), in
 * this transaction; any other decline queues the "renewal failed" email, which links the portal to
 * update the card (once per record, lib/lifecycle-emails). Dunning goes on meanwhile.
 */
export async function askCustomerToAct(tx: Db, billingRecordId: string, outcome: KnownOutcome) {
  if (outcome.status !== 'failed') return;
  if (outcome.declineCode === 'authentication_required') await requestPaymentAuthentication(tx, billingRecordId);
  else await queueRenewalFailedEmail(tx, billingRecordId);
}

/** Why a charge that went through is refunded: its subscription ended, or another payment paid its record first. */
function unwantedChargeReason(sub: SubscriptionRow, record: BillingRecordRow | undefined): string {
  if (sub.status !== 'ended' && record?.status === 'paid') return 'Another payment paid this billing record first; this second charge is refunded.';
  return 'The subscription ended while this payment of its billing record was being made.';
}

/** A merchant-initiated subscription charge is made on recovery only while its subscription has not ended. */
export async function subscriptionStillRunning(db: Db, plan: { subscriptionId: string }): Promise<boolean> {
  const [sub] = await db.select({ status: subscriptions.status }).from(subscriptions).where(eq(subscriptions.id, plan.subscriptionId));
  return sub !== undefined && sub.status !== 'ended';
}

/**
 * A charge whose subscription ended while it was made (canceled at once): its record is closed
 * and, when the charge went through, refunded in full: visible as `refund.requested`.
 */
export async function closeUnwantedCharge(tx: Db, sub: SubscriptionRow, billed: { record: BillingRecordRow; payment: PaymentRow }, reason: string) {
  if (billed.payment.status === 'succeeded') {
    await closeBillingRecord(tx, sub.merchantId, billed.record.id, 'paid');
    await refundUnwantedCharge(tx, billed.payment, reason);
  } else {
    await closeBillingRecord(tx, sub.merchantId, billed.record.id, 'void');
  }
}

/**
 * The processor's word on an unknown subscription charge (a dunning step asked for it): settled
 * (a retry as its plan says: its record, and whether the customer made it), or left for later.
 */
export async function lookUpUnknownCharge(db: Database, paymentId: string): Promise<void> {
  const [payment] = await db.select().from(payments).where(eq(payments.id, paymentId));
  if (payment?.status !== 'unknown') return;
  const processor = await processorOf(db, payment);
  if (!processor) return;
  const answer = await processor.retrieveCharge(payment.processorKey ?? payment.id);
  // Still out, or (the customer's own payment) waiting for their authentication: not settled yet.
  if (answer.status === 'unknown' || answer.status === 'requires_action') return;
  // The processor never saw the charge: nothing was taken, which counts as a failed attempt.
  const outcome: DefiniteOutcome =
    answer.status === 'not_found'
      ? { status: 'failed', reference: `none_${payment.id}`, card: null, declineCode: 'processor_error', message: 'The payment could not be processed.' }
      : { ...answer, card: null };
  const retry = (payment.intent as { kind?: unknown } | null)?.kind === dunningRetryMove.kind ? (pinnedMoveOf(payment).move.plan as RetryPlan) : undefined;
  const attempt = retry ? { linkId: retry.linkId, customerPresent: retry.customerPresent } : {};
  await db.transaction((tx) => settleSubscriptionCharge(tx, paymentId, outcome, attempt));
}

/**
 * Settles a subscription charge whose outcome was unknown, or that waited for the customer's
 * authentication, when the processor tells (the reconciliation job, a dunning step, the invoice
 * page the customer comes back to, or a person for a `needs_review` payment): a success pays the
 * record and re-evaluates the subscription at once (past_due → active); a failure counts as the
 * attempt and dunning continues from it (the customer's own payment counts as none). A success
 * for a record that is no longer open (the subscription ended, or another payment paid it
 * meanwhile) is refunded. The record is the one of `attempt.linkId` (a retry's plan names it),
 * else the one whose latest attempt the payment is; `not_subscription` when there is none.
 */
export async function settleSubscriptionCharge(
  tx: Db,
  paymentId: string,
  outcome: DefiniteOutcome,
  attempt: { linkId?: string; customerPresent?: boolean } = {},
): Promise<'not_subscription' | 'settled' | 'already_settled'> {
  const [found] = await tx
    .select({ link: subscriptionBillingRecords })
    .from(subscriptionBillingRecords)
    .where(attempt.linkId ? eq(subscriptionBillingRecords.id, attempt.linkId) : eq(subscriptionBillingRecords.lastPaymentId, paymentId));
  if (!found) return 'not_subscription';
  const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, found.link.subscriptionId)).for('update');
  const link = found.link;
  const at = await timeFor(tx, sub!.testClockId);
  // On a test clock, the settlement's events carry the clock's time.
  return withEventTime(sub!.testClockId ? at : null, async () => {
    const context = await subscriptionContext(tx, sub!, link.periodIndex ?? sub!.currentPeriodIndex);
    const settled = await settleUnknownPaymentRow(tx, paymentId, outcome, context);
    if (!settled) return 'already_settled' as const;
    const [record] = await tx.select().from(billingRecords).where(eq(billingRecords.id, link.billingRecordId));
    if (sub!.status === 'ended' || record?.status !== 'open') {
      // Not paid by this payment (it was unsettled until now): a success is a second charge, given back.
      if (outcome.status === 'succeeded') await refundUnwantedCharge(tx, settled, unwantedChargeReason(sub!, record));
      return 'settled' as const;
    }
    if (outcome.status === 'succeeded') {
      await setBillingRecordPayment(tx, record.id, settled.id);
      await settlePaid(tx, sub!, link, sub!.priceId);
      await afterRecordSettled(tx, sub!, at);
      return 'settled' as const;
    }
    if (attempt.customerPresent) return 'settled' as const;
    await askCustomerToAct(tx, record.id, outcome);
    const next = nextRetryAt(link.createdAt, link.attempts);
    if (!next) {
      await endSubscription(tx, sub!, at, 'system', 'End', 'uncollectible');
      return 'settled' as const;
    }
    await tx
      .update(subscriptionBillingRecords)
      .set({ nextAttemptAt: new Date(Math.max(next.getTime(), at.getTime())) })
      .where(eq(subscriptionBillingRecords.id, link.id));
    await awaitNextRetry(tx, sub!);
    return 'settled' as const;
  });
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
