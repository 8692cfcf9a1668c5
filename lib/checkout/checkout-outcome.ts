import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { billingRecords, checkouts, payments } from '../db/schema';
import { now } from '../clock';
import {
  defineMoneyMove,
  PaymentAlreadySettled,
  PinnedCard,
  type AnswerHooks,
  type DefiniteOutcome,
  chargedToken,
  type KnownOutcome,
  type PinnedMove,
} from '../payments/money-moves';
import { savePaymentMethod } from '../payments/payment-methods';
import { chargeOutcomeColumns, chargeOutcomeEvent, reconcilePaymentJob, settleUnknownPaymentRow, type PaymentRow } from '../payments/payments';
import {
  billingRecordCreatedEvent,
  billingRecordPaidEvent,
  closeBillingRecord,
  findOpenBillingRecordForPayment,
  newBillingRecordRow,
  receiptJob,
  type BillingRecordRow,
} from '../billing/billing-records';
import { billingLines } from '../billing/line-items';
import { NO_TAX } from '../tax/calculate';
import { recordEventsAlong, type EventInput } from '../events/record-event';
import { addJobCall } from '../jobs/enqueue';
import { paymentLinkCompletedEvent } from '../payment-links/completions';
import { promotionCodeOf, shapeCheckout, toCheckoutResponse, type CheckoutResponseBody } from './checkout-response';
import {
  failCheckout,
  findCheckoutRowByPayment,
  grantPurchaseEntitlements,
  markCheckoutPaid,
  purchaseGrants,
  releaseCheckoutReservations,
  type CheckoutRow,
} from './checkout-status';
import { checkoutStateMachine } from './checkout-states';

export type CheckoutOutcome = { checkout: CheckoutResponseBody & { subscriptionId?: string | null }; declined: boolean };

/** What phase 3's statement reads back from its writes (the column names of `reads`). */
interface WrittenOutcome extends Record<string, unknown> {
  settled: number;
  grants_purchase: boolean;
  checkout_state?: number;
  answer?: number;
}

/** A one-time checkout's plan: the checkout row itself (written in phase 1), and the card to keep. */
export const CheckoutPlan = z.object({ savePaymentMethod: z.boolean(), card: PinnedCard });
export type CheckoutPlan = z.output<typeof CheckoutPlan>;

/**
 * Phase 3 of a one-time checkout (docs/payments.md), in the caller's transaction, in one
 * statement: the payment takes its outcome only while it is still `pending`, and with it the
 * billing record, the checkout's state, the events and their webhook deliveries, the receipt or
 * reconciliation job and the API's idempotency answer are written. A late request and a recovery
 * queue on the payment's row: the later one finds it settled and throws `PaymentAlreadySettled`,
 * rolling back what its statement wrote. A card to save, a link's event and a promotion code's
 * name add a statement before it; a redemption or slot given back and a purchase's entitlements,
 * one after it. `checkout` is the payment's checkout as phase 1 wrote it (it does not change
 * while the payment is pending).
 */
export async function recordCheckoutOutcome(
  tx: Db,
  phases: AnswerHooks,
  { payment: pending, plan }: PinnedMove<CheckoutPlan>,
  checkout: CheckoutRow,
  outcome: KnownOutcome,
): Promise<CheckoutOutcome> {
  const at = now();
  const savedMethodId = outcome.status === 'failed' ? null : await keepCardIfAsked(tx, pending, plan, outcome);
  const columns = { ...chargeOutcomeColumns(pending, outcome, at), ...(savedMethodId ? { paymentMethodId: savedMethodId } : {}) };
  // Nothing but phase 3 changes a pending payment: settled, the row is the pending one with the outcome.
  const payment: PaymentRow = { ...pending, ...columns };
  // First in the statement, and read by the other writes, so the payment's row is locked before any other.
  const settle = tx
    .update(payments)
    .set(columns)
    .where(and(eq(payments.id, pending.id), eq(payments.merchantId, pending.merchantId), eq(payments.status, pending.status)))
    .returning({ grantsPurchase: purchaseGrants(sql`${checkout.priceId}`).as('grants_purchase') });
  const writes: SQL[] = [sql`settled as (${settle.getSQL()})`];
  const reads: SQL[] = [
    sql`(select count(*) from settled)::int as settled`,
    sql`coalesce((select bool_or(grants_purchase) from settled), false) as grants_purchase`,
  ];
  const events: EventInput[] = [];
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
          [],
          checkout.tax ?? NO_TAX,
        ),
      },
      { paid: outcome.status === 'succeeded' },
      at,
    );
    writes.push(sql`billing_record as (${tx.insert(billingRecords).values(record).getSQL()})`);
    events.push(billingRecordCreatedEvent(record));
  }
  // One order of events for every charge: billing_record.created, payment.*, billing_record.paid.
  // A charge waiting for the customer's authentication has no payment event until it settles.
  if (outcome.status !== 'requires_action') events.push(chargeOutcomeEvent(payment));
  if (record && outcome.status === 'succeeded') {
    events.push(billingRecordPaidEvent(record));
    // PostgreSQL runs a plain `select` CTE only if the statement reads it (unlike an insert or
    // update), so each job's CTE is read below: that is what makes add_job run.
    writes.push(sql`receipt_job as (select ${addJobCall(receiptJob(record.id))} as job)`);
    reads.push(sql`(select count(job) from receipt_job)::int as receipt_job`);
  }
  if (outcome.status === 'unknown' || outcome.status === 'requires_action') {
    writes.push(sql`reconcile_job as (select ${addJobCall(reconcilePaymentJob(payment.id))} as job)`);
    reads.push(sql`(select count(job) from reconcile_job)::int as reconcile_job`);
  }

  // Paid or failed now; an unknown (or requires_action) payment leaves the checkout open until reconciliation.
  const status = outcome.status === 'succeeded' ? 'paid' : outcome.status === 'failed' ? 'failed' : null;
  const finished: CheckoutRow = status ? { ...checkout, status, updatedAt: at } : checkout;
  if (status) {
    const update = tx
      .update(checkouts)
      .set({ status, updatedAt: at })
      .where(
        and(
          eq(checkouts.id, checkout.id),
          eq(checkouts.merchantId, checkout.merchantId),
          inArray(checkouts.status, checkoutStateMachine.sourcesOf(status)),
          sql`exists (select 1 from settled)`,
        ),
      )
      .returning({ id: checkouts.id });
    writes.push(sql`checkout_state as (${update.getSQL()})`);
    reads.push(sql`(select count(*) from checkout_state)::int as checkout_state`);
  }
  if (status === 'paid' && checkout.paymentLinkId) {
    events.push(await paymentLinkCompletedEvent(tx, checkout.merchantId, checkout.paymentLinkId, { checkoutId: checkout.id, paymentId: payment.id }));
  }

  const result: CheckoutOutcome = {
    checkout: shapeCheckout(finished, { payment, promotionCode: await promotionCodeOf(tx, checkout), billingRecordId: record?.id ?? null }),
    declined: outcome.status === 'failed',
  };
  const answer = phases.answerWrite?.(tx, result, sql`exists (select 1 from settled)`);
  if (answer) {
    writes.push(sql`answer as (${answer.statement})`);
    reads.push(sql`(select count(*) from answer)::int as answer`);
  }
  const written = await recordEventsAlong<WrittenOutcome>(tx, events, sql.join(writes, sql`, `), sql.join(reads, sql`, `));
  if (written.settled !== 1) throw new PaymentAlreadySettled(payment.id);
  // The payment was pending, so its checkout was open: anything else is a bug, rolled back.
  if (status && written.checkout_state !== 1) throw new Error(`Checkout ${checkout.id} was not open when its payment ${payment.id} settled.`);
  if (answer) answer.confirm(written.answer!);
  else await phases.answer(tx, result);
  if (status === 'failed') await releaseCheckoutReservations(tx, checkout);
  if (status === 'paid' && checkout.priceId && written.grants_purchase) await grantPurchaseEntitlements(tx, finished, checkout.priceId);
  return result;
}

/** The hosted page's "save this card": kept once the charge did not fail; the payment then points at it. */
async function keepCardIfAsked(tx: Db, pending: PaymentRow, plan: CheckoutPlan, outcome: KnownOutcome): Promise<string | null> {
  const token = chargedToken(outcome) ?? pending.processorToken;
  if (!plan.savePaymentMethod || !token || !plan.card) return null;
  const account = { name: pending.processor, mode: pending.processorMode, connection: pending.processorConnection };
  return (await savePaymentMethod(tx, pending.merchantId, pending.customerId, { token, ...plan.card, account })).id;
}

export async function findCheckoutRow(db: Db, merchantId: string, checkoutId: string) {
  const [row] = await db
    .select()
    .from(checkouts)
    .where(and(eq(checkouts.id, checkoutId), eq(checkouts.merchantId, merchantId)));
  return row;
}

/** What a checkout answers once it has an outcome (or is still open). */
export async function outcomeOf(db: Db, row: CheckoutRow): Promise<CheckoutOutcome> {
  const checkout = await toCheckoutResponse(db, row);
  const declined = checkout.status === 'failed' && checkout.payment?.status === 'failed';
  return { checkout, declined };
}

/**
 * An unknown (or requires_action) checkout charge settles: its billing record is paid or void, the
 * checkout paid or failed (a failed one gives back its link slot and promotion redemption).
 */
async function settleCheckoutCharge(tx: Db, payment: PaymentRow, outcome: DefiniteOutcome) {
  const settled = await settleUnknownPaymentRow(tx, payment.id, outcome);
  if (!settled) return;
  const checkout = await findCheckoutRowByPayment(tx, payment.id);
  const record = await findOpenBillingRecordForPayment(tx, payment.id);
  if (outcome.status === 'succeeded') {
    if (record) await closeBillingRecord(tx, settled.merchantId, record.id, 'paid');
    if (checkout) await markCheckoutPaid(tx, checkout);
  } else {
    if (record) await closeBillingRecord(tx, settled.merchantId, record.id, 'void');
    if (checkout) await failCheckout(tx, checkout);
  }
}

/**
 * A one-time checkout (POST /api/Checkout, link completion, the hosted page, the wallet): phase 1
 * is lib/checkout/checkouts.ts; its phase 3 is one statement that stores the answer too.
 */
export const checkoutMove = defineMoneyMove({
  kind: 'checkout',
  plan: CheckoutPlan,
  customerPresent: () => true,
  takesCustomerAction: true,
  keepsCard: (plan) => plan.savePaymentMethod,
  recordsItself: true,
  apply: async (tx, move, outcome, answer) => {
    const checkout = (move.known as CheckoutRow | undefined) ?? (await findCheckoutRow(tx, move.payment.merchantId, move.payment.checkoutId!));
    return recordCheckoutOutcome(tx, answer, move, checkout!, outcome);
  },
  recorded: async (tx, { payment }) => outcomeOf(tx, (await findCheckoutRow(tx, payment.merchantId, payment.checkoutId!))!),
  settle: (tx, { payment }, outcome) => settleCheckoutCharge(tx, payment, outcome),
});
