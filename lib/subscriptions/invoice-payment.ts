import { and, eq, inArray } from 'drizzle-orm';
import type { Database, Db } from '../db/client';
import { plainPhases } from '../db/phases';
import { billingRecords, payments, subscriptionBillingRecords, subscriptions } from '../db/schema';
import { config } from '../config';
import { newId } from '../ids';
import type { CustomerText } from '../i18n/customer-text';
import { invoicePath } from '../billing/billing-records';
import { findInvoiceByToken, type HostedInvoice } from '../billing/invoices';
import { isMerchantSuspended } from '../merchants/accepts-payments';
import { finishMoneyMove, Pinned, pinMoneyMove } from '../payments/money-moves';
import { reconcilePayment } from '../payments/recovery';
import { chargeInFlight, resolveToken, type ChargeSource, type SubscriptionRow } from './billing';
import { dunningRetryMove, type RetryPlan } from './dunning';
import { timeFor } from './time';

/**
 * The customer pays an open subscription record on its hosted invoice page (docs/processors.md,
 * "Renewals that need authentication"): Pay now charges the subscription's card with the customer
 * there, so a bank that declined the off-session renewal `authentication_required` can ask them
 * to authenticate (3-D Secure) and the page sends them to do it. It is the dunning retry's money
 * move with a customer-present plan (dunning.ts): settled, refunded when another payment paid the
 * record first, recovered, exactly like a retry, and not counted as one of dunning's attempts.
 */

/** What the invoice page says and offers about paying its record. */
export interface InvoicePaymentView {
  /** Pay now: the amount it charges and the card it charges, in the reader's words; null when it cannot be offered. */
  offer: { amount: string; card: string } | null;
  /** A payment of the record waits for the customer at the authentication page. */
  authenticateUrl: string | null;
  /** A payment of the record waits for the processor's word. */
  processing: boolean;
  /** How the payment the customer came back from (`?payment=`) ended. */
  returned: { status: 'paid' } | { status: 'declined'; reason: string } | null;
}

type Attempt = HostedInvoice['record']['payments'][number];
const waitsForCustomer = (attempt: Attempt) => attempt.status === 'requires_action';
const waitsForProcessor = (attempt: Attempt) => attempt.status === 'pending' || attempt.status === 'unknown';

/**
 * What the hosted invoice page of `loaded` may say and offer about paying it, with the invoice
 * as it is then. Coming back from the authentication page (`returnedPaymentId`, one of the
 * record's own attempts), the processor is asked at once, as the checkout's result page does, so
 * the customer sees the payment paid or declined now.
 */
export async function loadInvoicePayment(
  db: Database,
  loaded: HostedInvoice,
  returnedPaymentId: string | undefined,
  text: CustomerText,
): Promise<{ invoice: HostedInvoice; payment: InvoicePaymentView }> {
  let invoice = loaded;
  const returned = invoice.record.payments.find((attempt) => attempt.id === returnedPaymentId);
  if (returned && waitsForCustomer(returned)) {
    await reconcilePayment(db, returned.id);
    invoice = (await findInvoiceByToken(db, invoice.row.hostedToken)) ?? invoice;
  }
  const settled = invoice.record.payments.find((attempt) => attempt.id === returnedPaymentId);
  const open = invoice.row.status === 'open';
  const attempts = open ? invoice.record.payments : [];
  const waiting = attempts.find(waitsForCustomer);
  const processing = attempts.some(waitsForProcessor);
  const source = open && !waiting && !processing ? await payableSource(db, invoice.row.id) : undefined;
  return {
    invoice,
    payment: {
      offer: source?.card ? { amount: text.money(invoice.row.amount, invoice.row.currency), card: text.card(source.card.brand, source.card.last4) } : null,
      authenticateUrl: waiting?.nextAction?.url ?? null,
      processing,
      returned:
        // A success that did not pay the record (another payment did first) is being refunded: no thanks for it.
        settled?.status === 'succeeded' && invoice.record.paymentId === settled.id
          ? { status: 'paid' }
          : settled?.status === 'failed'
            ? { status: 'declined', reason: text.declineReason(settled.failureCode) }
            : null,
    },
  };
}

/** Where Pay now leads: the processor's authentication page, or back to the invoice page (naming the payment it made, if any). */
export type InvoicePaymentStep = { kind: 'authenticate'; url: string } | { kind: 'back'; paymentId: string | null };

/**
 * Pay now: phase 1 pins a customer-present charge of the record on the subscription's card
 * (its return address the invoice page), phases 2 and 3 follow. Nothing is charged when the record
 * is no longer open, a payment of it is still out or waits for the customer (who is sent back to
 * authenticate that one), the seller is suspended, or there is no card; the page then says why.
 */
export async function payInvoiceNow(db: Database, token: string): Promise<InvoicePaymentStep> {
  const [found] = await db.select({ id: billingRecords.id }).from(billingRecords).where(eq(billingRecords.hostedToken, token));
  if (!found) return { kind: 'back', paymentId: null };
  // A payment the customer left at the authentication page may have ended there since: asked first, with no transaction open.
  const waiting = (await waitingPayments(db, found.id)).find((attempt) => attempt.status === 'requires_action');
  if (waiting) await reconcilePayment(db, waiting.id);
  const step = await db.transaction((tx) => pinInvoicePayment(tx, found.id, token));
  if (!(step instanceof Pinned)) return step;
  await finishMoneyMove(plainPhases(db), step.payment);
  const [made] = await db.select().from(payments).where(eq(payments.id, step.payment.id));
  if (made?.status === 'requires_action' && made.nextActionUrl) return { kind: 'authenticate', url: made.nextActionUrl };
  return { kind: 'back', paymentId: step.payment.id };
}

async function pinInvoicePayment(tx: Db, billingRecordId: string, token: string): Promise<InvoicePaymentStep | Pinned> {
  const back: InvoicePaymentStep = { kind: 'back', paymentId: null };
  const [linked] = await tx.select().from(subscriptionBillingRecords).where(eq(subscriptionBillingRecords.billingRecordId, billingRecordId));
  if (!linked) return back;
  // The lock the billing engine takes: no retry of this subscription starts while this payment is pinned.
  const [sub] = await tx.select().from(subscriptions).where(eq(subscriptions.id, linked.subscriptionId)).for('update');
  const [record] = await tx.select().from(billingRecords).where(eq(billingRecords.id, billingRecordId));
  if (!sub || !record || record.status !== 'open' || (await chargeInFlight(tx, sub))) return back;
  const attempts = await waitingPayments(tx, billingRecordId);
  const waiting = attempts.find((attempt) => attempt.status === 'requires_action');
  if (waiting?.nextActionUrl) return { kind: 'authenticate', url: waiting.nextActionUrl };
  if (attempts.length > 0) return back;
  const source = await chargeableSource(tx, sub);
  if (!source?.card) return back;
  const paymentId = newId('payment');
  const plan: RetryPlan = {
    subscriptionId: sub.id,
    linkId: linked.id,
    billingRecordId,
    attempt: linked.attempts,
    periodIndex: linked.periodIndex,
    at: await timeFor(tx, sub.testClockId),
    card: source.card,
    customerPresent: true,
  };
  const step = await pinMoneyMove(tx, dunningRetryMove, plan, {
    id: paymentId,
    merchantId: sub.merchantId,
    customerId: sub.customerId,
    checkoutId: null,
    paymentMethodId: source.paymentMethodId,
    amount: record.amount,
    currency: record.currency,
    description: record.description,
    token: source.token,
    processorKey: `${sub.id}:${linked.id}:${paymentId}`,
    returnUrl: `${config.publicUrl}${invoicePath(token)}?payment=${paymentId}`,
  });
  return step instanceof Pinned ? step : { kind: 'back', paymentId };
}

/** The record's payments that have no outcome yet: out at the processor, or waiting for the customer. */
async function waitingPayments(db: Db, billingRecordId: string) {
  const [record] = await db
    .select({ merchantId: billingRecords.merchantId, attempts: billingRecords.attemptPaymentIds })
    .from(billingRecords)
    .where(eq(billingRecords.id, billingRecordId));
  if (!record?.attempts.length) return [];
  return db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.merchantId, record.merchantId),
        inArray(payments.id, record.attempts),
        inArray(payments.status, ['pending', 'unknown', 'requires_action']),
      ),
    );
}

/** The card Pay now would charge for an open subscription record, when the page may offer it. */
async function payableSource(db: Db, billingRecordId: string): Promise<ChargeSource | undefined> {
  const [linked] = await db
    .select({ sub: subscriptions })
    .from(subscriptionBillingRecords)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionBillingRecords.subscriptionId))
    .where(eq(subscriptionBillingRecords.billingRecordId, billingRecordId));
  return linked ? chargeableSource(db, linked.sub) : undefined;
}

/** The subscription's card, unless nothing may charge it now (ended, or its seller suspended). */
async function chargeableSource(db: Db, sub: SubscriptionRow): Promise<ChargeSource | undefined> {
  if (sub.status === 'ended' || (await isMerchantSuspended(db, sub.merchantId))) return undefined;
  const source = await resolveToken(db, sub);
  return source.token ? source : undefined;
}
