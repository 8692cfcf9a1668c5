import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database, Db } from '../db/client';
import { billingRecords, creditNotes, payments, prices, products, refunds, subscriptionBillingRecords, subscriptions } from '../db/schema';
import { writeLifecycleEmail, type LifecycleOutcome } from './write';
import { config } from '../config';
import { creditNotePath } from '../payments/credit-notes';

/**
 * The lifecycle emails that follow a state change: the change queues a `send-lifecycle-email` job
 * in its own transaction (lib/subscriptions, lib/payments), and the job writes the email from what
 * the rows say when it runs. A refund's credit note has its number only once the refund's
 * transaction has committed, so it is read here, never there.
 */
export const LifecycleEmailJob = z.discriminatedUnion('kind', [
  /** A cancellation at the period end was scheduled, making the subscription this `version`. */
  z.object({ kind: z.literal('subscription_canceled'), subscriptionId: z.string(), version: z.number().int() }),
  /** The subscription ended: at once, at its period end, or (`unpaid`) when dunning gave up. */
  z.object({ kind: z.literal('subscription_ended'), subscriptionId: z.string(), unpaid: z.boolean() }),
  /** A renewal (or dunning) charge of this open record was declined, not for authentication. */
  z.object({ kind: z.literal('renewal_failed'), billingRecordId: z.string() }),
  /** A refund succeeded. */
  z.object({ kind: z.literal('refund_issued'), refundId: z.string() }),
]);
export type LifecycleEmailJob = z.output<typeof LifecycleEmailJob>;

export async function writeEventEmail(db: Database, job: LifecycleEmailJob): Promise<LifecycleOutcome> {
  switch (job.kind) {
    case 'subscription_canceled':
      return writeCanceledEmail(db, job.subscriptionId, job.version);
    case 'subscription_ended':
      return writeEndedEmail(db, job.subscriptionId, job.unpaid);
    case 'renewal_failed':
      return writeRenewalFailedEmail(db, job.billingRecordId);
    case 'refund_issued':
      return writeRefundEmail(db, job.refundId);
  }
}

/** A subscription with the name of its product, as the emails about it say it. */
export async function subscriptionWithProduct(db: Db, subscriptionId: string) {
  const [found] = await db
    .select({ sub: subscriptions, product: products.name })
    .from(subscriptions)
    .innerJoin(prices, eq(prices.id, subscriptions.priceId))
    .innerJoin(products, eq(products.id, prices.productId))
    .where(eq(subscriptions.id, subscriptionId));
  return found;
}

async function writeCanceledEmail(db: Database, subscriptionId: string, version: number) {
  const found = await subscriptionWithProduct(db, subscriptionId);
  if (!found) return 'not_due';
  const { sub } = found;
  const claim = { merchantId: sub.merchantId, customerId: sub.customerId, kind: 'subscription_canceled' as const, subjectKey: `${sub.id}:v${version}` };
  return writeLifecycleEmail(db, claim, async ({ tx, seller, text: { t, date }, portalUrl }) => {
    const current = await subscriptionWithProduct(tx, subscriptionId);
    // Reactivated since, or already ended (the ended email says so): nothing to announce.
    if (current?.sub.status !== 'canceled' || !current.sub.cancelAtPeriodEnd) return null;
    const words = { seller: seller.name, product: current.product, date: date(current.sub.currentPeriodEnd) };
    return {
      subject: t('lifecycle.canceledSubject', words),
      paragraphs: [t('lifecycle.canceledIntro', words)],
      action: { text: t('lifecycle.canceledAction'), url: portalUrl, button: t('lifecycle.portalButton') },
    };
  });
}

async function writeEndedEmail(db: Database, subscriptionId: string, unpaid: boolean) {
  const found = await subscriptionWithProduct(db, subscriptionId);
  if (!found) return 'not_due';
  const { sub, product } = found;
  const claim = { merchantId: sub.merchantId, customerId: sub.customerId, kind: 'subscription_ended' as const, subjectKey: sub.id };
  return writeLifecycleEmail(db, claim, async ({ seller, text: { t, date }, portalUrl }) => {
    if (sub.status !== 'ended' || !sub.endedAt) return null;
    const words = { seller: seller.name, product, date: date(sub.endedAt) };
    return {
      subject: t('lifecycle.endedSubject', words),
      paragraphs: [t('lifecycle.endedIntro', words), ...(unpaid ? [t('lifecycle.endedUnpaid')] : [])],
      action: { text: t('lifecycle.endedAction'), url: portalUrl, button: t('lifecycle.portalButton') },
    };
  });
}

async function writeRenewalFailedEmail(db: Database, billingRecordId: string) {
  const [found] = await db
    .select({ record: billingRecords, link: subscriptionBillingRecords })
    .from(billingRecords)
    .innerJoin(subscriptionBillingRecords, eq(subscriptionBillingRecords.billingRecordId, billingRecords.id))
    .where(eq(billingRecords.id, billingRecordId));
  if (!found) return 'not_due';
  const { record } = found;
  const claim = { merchantId: record.merchantId, customerId: record.customerId, kind: 'renewal_failed' as const, subjectKey: record.id };
  return writeLifecycleEmail(db, claim, async ({ tx, seller, text: { t, date, money }, portalUrl }) => {
    const [current] = await tx
      .select({ status: billingRecords.status, nextAttemptAt: subscriptionBillingRecords.nextAttemptAt })
      .from(billingRecords)
      .innerJoin(subscriptionBillingRecords, eq(subscriptionBillingRecords.billingRecordId, billingRecords.id))
      .where(eq(billingRecords.id, billingRecordId));
    // Paid (or closed) since: nothing left to do for the customer.
    if (current?.status !== 'open') return null;
    const subscription = await subscriptionWithProduct(tx, found.link.subscriptionId);
    const words = { seller: seller.name, product: subscription?.product ?? record.description, amount: money(record.amount, record.currency) };
    return {
      subject: t('lifecycle.failedSubject', words),
      paragraphs: [t('lifecycle.failedIntro', words)],
      action: {
        text: current.nextAttemptAt ? t('lifecycle.failedRetry', { date: date(current.nextAttemptAt) }) : t('lifecycle.failedUpdate'),
        url: portalUrl,
        button: t('lifecycle.portalButton'),
      },
    };
  });
}

async function writeRefundEmail(db: Database, refundId: string) {
  const [found] = await db
    .select({ refund: refunds, customerId: payments.customerId })
    .from(refunds)
    .innerJoin(payments, and(eq(payments.id, refunds.paymentId), eq(payments.merchantId, refunds.merchantId)))
    .where(eq(refunds.id, refundId));
  if (found?.refund.status !== 'succeeded' || !found.customerId) return 'not_due';
  const { refund } = found;
  const claim = { merchantId: refund.merchantId, customerId: found.customerId, kind: 'refund_issued' as const, subjectKey: refund.id };
  return writeLifecycleEmail(db, claim, async ({ tx, seller, text: { t, money } }) => {
    // The credit note (absent when the payment's record was void) and the invoice it reduces.
    const [note] = await tx
      .select({ number: creditNotes.number, hostedToken: creditNotes.hostedToken, invoiceNumber: billingRecords.number })
      .from(creditNotes)
      .innerJoin(billingRecords, eq(billingRecords.id, creditNotes.billingRecordId))
      .where(and(eq(creditNotes.refundId, refund.id), eq(creditNotes.merchantId, refund.merchantId)));
    const words = { seller: seller.name, amount: money(refund.amount, refund.currency) };
    return {
      subject: t('lifecycle.refundSubject', words),
      paragraphs: [
        t('lifecycle.refundIntro', words),
        [
          ...(note?.invoiceNumber ? [t('lifecycle.refundInvoice', { number: note.invoiceNumber })] : []),
          ...(note?.number ? [t('lifecycle.refundCreditNote', { number: note.number })] : []),
        ].join('\n'),
        t('lifecycle.refundTiming'),
      ].filter((paragraph) => paragraph !== ''),
      ...(note
        ? {
            action: {
              text: t('lifecycle.refundCreditNoteLink'),
              url: `${config.publicUrl}${creditNotePath(note.hostedToken)}`,
              button: t('lifecycle.refundCreditNoteButton'),
            },
          }
        : {}),
    };
  });
}
