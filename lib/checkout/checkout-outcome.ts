import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Phases } from '../db/phases';
import { billingRecords, checkouts, payments } from '../db/schema';
import { now } from '../clock';
import { paymentProcessor } from '../payments/processor';
import type { KnownOutcome } from '../payments/charges';
import { savePaymentMethod } from '../payments/payment-methods';
import { chargeOutcomeColumns, chargeOutcomeEvent, reconcilePaymentJob, type PaymentRow } from '../payments/payments';
import { billingRecordCreatedEvent, billingRecordPaidEvent, newBillingRecordRow, receiptJob, type BillingRecordRow } from '../billing/billing-records';
import { billingLines } from '../billing/line-items';
import { recordEventsAlong, type EventInput } from '../events/record-event';
import { addJobCall } from '../jobs/enqueue';
import { paymentLinkCompletedEvent } from '../payment-links/payment-links';
import { promotionCodeOf, shapeCheckout, type CheckoutResponseBody } from './checkout-response';
import { grantPurchaseEntitlements, purchaseGrants, releaseCheckoutReservations, type CheckoutRow } from './checkout-status';
import { checkoutStateMachine } from './checkout-states';

export type CheckoutOutcome = { checkout: CheckoutResponseBody & { subscriptionId?: string | null }; declined: boolean };

/**
 * Phase 3 of a one-time checkout (docs/payments.md), in the caller's transaction, in two
 * statements: the first settles the payment only while it is still `pending` (a late request and
 * a recovery queue on the row, and the later one finds nothing: undefined, nothing written); the
 * second writes everything else the outcome changes — the billing record, the checkout's state,
 * the events and their webhook deliveries, the receipt or reconciliation job and the API's
 * idempotency answer. A link's event, a promotion code's name, a card to save, a slot or
 * redemption to give back and a purchase's entitlements add a statement each when they apply.
 * `checkout` is the payment's checkout as phase 1 wrote it (it does not change while the
 * payment is pending).
 */
export async function recordCheckoutOutcome(
  tx: Db,
  phases: Phases,
  pending: PaymentRow,
  checkout: CheckoutRow,
  outcome: KnownOutcome,
): Promise<CheckoutOutcome | undefined> {
  const at = now();
  const columns = chargeOutcomeColumns(pending, outcome, at);
  const [settled] = await tx
    .update(payments)
    .set(columns)
    .where(and(eq(payments.id, pending.id), eq(payments.merchantId, pending.merchantId), eq(payments.status, 'pending')))
    .returning({ grantsPurchase: purchaseGrants(sql`${checkout.priceId}`) });
  if (!settled) return undefined;
  // Nothing but phase 3 changes a pending payment: the row now is the pending one with the outcome.
  const payment: PaymentRow = { ...pending, ...columns };
  if (outcome.status !== 'failed') await keepCardIfAsked(tx, pending, payment);

  const events: EventInput[] = [];
  const writes: SQL[] = [];
  const reads: SQL[] = [];
  let record: BillingRecordRow | null = null;
  if (outcome.status !== 'failed') {
    record = newBillingRecordRow(
      {
        merchantId: payment.merchantId,
        customerId: payment.customerId,
        checkoutId: checkout.id,
        paymentId: payment.id,
        currency: payment.currency,
        description: payment.description,
        couponId: checkout.couponId,
        billed: billingLines(
          { kind: 'one_time', description: checkout.description, priceId: checkout.priceId, quantity: checkout.quantity, unitAmount: checkout.unitAmount },
          { discountAmount: checkout.discountAmount },
        ),
      },
      { paid: outcome.status === 'succeeded' },
      at,
    );
    writes.push(sql`billing_record as (${tx.insert(billingRecords).values(record).getSQL()})`);
    events.push(billingRecordCreatedEvent(record));
  }
  // One order of events for every charge: billing_record.created, payment.*, billing_record.paid.
  events.push(chargeOutcomeEvent(payment));
  if (record && outcome.status === 'succeeded') {
    events.push(billingRecordPaidEvent(record));
    writes.push(sql`receipt_job as (select ${addJobCall(receiptJob(record.id))} as job)`);
    reads.push(sql`(select count(job) from receipt_job)::int as receipt_job`);
  }
  if (outcome.status === 'unknown') {
    writes.push(sql`reconcile_job as (select ${addJobCall(reconcilePaymentJob(payment.id))} as job)`);
    reads.push(sql`(select count(job) from reconcile_job)::int as reconcile_job`);
  }

  // Paid or failed now; an unknown payment leaves the checkout open until reconciliation.
  const status = outcome.status === 'succeeded' ? 'paid' : outcome.status === 'failed' ? 'failed' : null;
  const finished: CheckoutRow = status ? { ...checkout, status, updatedAt: at } : checkout;
  if (status) {
    const update = tx
      .update(checkouts)
      .set({ status, updatedAt: at })
      .where(
        and(eq(checkouts.id, checkout.id), eq(checkouts.merchantId, checkout.merchantId), inArray(checkouts.status, checkoutStateMachine.sourcesOf(status))),
      )
      .returning({ id: checkouts.id });
    writes.push(sql`checkout_state as (${update.getSQL()})`);
    reads.push(sql`(select count(*) from checkout_state)::int as checkout_state`);
  }
  if (status === 'failed') await releaseCheckoutReservations(tx, checkout);
  if (status === 'paid' && checkout.paymentLinkId) {
    events.push(await paymentLinkCompletedEvent(tx, checkout.merchantId, checkout.paymentLinkId, { checkoutId: checkout.id, paymentId: payment.id }));
  }

  const result: CheckoutOutcome = {
    checkout: shapeCheckout(finished, { payment, promotionCode: await promotionCodeOf(tx, checkout), billingRecordId: record?.id ?? null }),
    declined: outcome.status === 'failed',
  };
  const answer = phases.answerWrite?.(tx, result);
  if (answer) {
    writes.push(sql`answer as (${answer.statement})`);
    reads.push(sql`(select count(*) from answer)::int as answer`);
  }
  const written = await recordEventsAlong<Record<string, number>>(tx, events, sql.join(writes, sql`, `), sql.join(reads, sql`, `));
  // The payment was pending, so its checkout was open: anything else is a bug, rolled back.
  if (status && written.checkout_state !== 1) throw new Error(`Checkout ${checkout.id} was not open when its payment ${payment.id} settled.`);
  if (answer) answer.confirm(written.answer!);
  else await phases.answer(tx, result);
  if (status === 'paid' && checkout.priceId && settled.grantsPurchase) await grantPurchaseEntitlements(tx, finished, checkout.priceId);
  return result;
}

/** The hosted page's "save this card": the card is kept once the charge did not fail, and the payment points at it. */
async function keepCardIfAsked(tx: Db, pending: PaymentRow, payment: PaymentRow) {
  const token = pending.processorToken;
  if (pending.intent?.savePaymentMethod !== true || !token) return;
  const details = paymentProcessor().describeToken(token);
  if (!details) return;
  const saved = await savePaymentMethod(tx, pending.merchantId, pending.customerId, { token, ...details });
  await tx
    .update(payments)
    .set({ paymentMethodId: saved.id })
    .where(and(eq(payments.id, pending.id), eq(payments.merchantId, pending.merchantId)));
  payment.paymentMethodId = saved.id;
}
