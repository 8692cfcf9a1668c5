import { and, eq, isNull, or, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { now } from '../clock';
import type { Database } from '../db/client';
import { plainPhases } from '../db/phases';
import { paymentMethods, payments, PLATFORM_CONNECTION, processorConnections, processorEvents, refunds } from '../db/schema';
import { ApiError } from '../errors';
import { enqueueJob } from '../jobs/enqueue';
import { PAYBASE_KEY } from '../payments/processor/stripe';
import { reconcilePayment } from '../payments/recovery';
import { finishRefund } from '../payments/refunds';
import { removePaymentMethod } from '../saved-cards/saved-cards';
import { retrieveStripeDispute } from '../payments/processor/stripe-disputes';
import { recordProcessorDispute } from '../payments/disputes';
import { stripeClientOfConnection } from '../payments/processor';

/**
 * Stripe's events in (docs/processors.md, "Webhooks from Stripe"): the route stores a verified
 * event once (its id is the key) and queues its processing in the same transaction. Processing
 * never trusts the event's snapshot of a charge: a payment still waiting (`unknown`,
 * `requires_action`) is settled by asking Stripe now (reconciliation), so events may come late,
 * twice or out of order and the outcome is the same.
 */
export async function receiveStripeEvent(db: Database, connection: string, event: Stripe.Event): Promise<'stored' | 'duplicate'> {
  return db.transaction(async (tx) => {
    const stored = await tx
      .insert(processorEvents)
      .values({
        id: event.id,
        connection,
        processor: 'stripe',
        livemode: event.livemode,
        type: event.type,
        payload: event as unknown as Record<string, unknown>,
      })
      .onConflictDoNothing()
      .returning({ id: processorEvents.id });
    if (stored.length === 0) return 'duplicate';
    // A dispute's events are processed one at a time, in the order they came: each reads the dispute back from Stripe.
    const queueName = event.type.startsWith('charge.dispute.') ? `stripe-dispute:${(event.data.object as { id?: string }).id}` : undefined;
    await enqueueJob(tx, 'process-stripe-event', { eventId: event.id, connection }, { jobKey: `stripe-event:${connection}:${event.id}`, queueName });
    return 'stored';
  });
}

/**
 * Processed events are kept 30 days (docs/operations.md, "Retention"): Stripe redelivers an event
 * for up to 3 days, so its id still de-duplicates; its payload (a customer's email, a card's last
 * digits) is not kept longer. An event not processed yet is never dropped.
 */
export const PROCESSOR_EVENT_RETENTION_DAYS = 30;

export async function pruneProcessorEvents(db: Database, cutoff = new Date(now().getTime() - PROCESSOR_EVENT_RETENTION_DAYS * 86_400_000)): Promise<number> {
  let removed = 0;
  for (;;) {
    const result = await db.execute(sql`
      delete from processor_events where (connection, id) in (
        select connection, id from processor_events where received_at < ${cutoff} and processed_at is not null limit 10000)`);
    removed += result.rowCount ?? 0;
    if (!result.rowCount) return removed;
  }
}

/** The `process-stripe-event` job: once per event; a failure is retried by graphile-worker. */
export async function processStripeEvent(db: Database, eventId: string, connection = PLATFORM_CONNECTION): Promise<string | undefined> {
  const which = and(eq(processorEvents.connection, connection), eq(processorEvents.id, eventId));
  const [row] = await db.select().from(processorEvents).where(which);
  if (!row || row.processedAt) return row?.outcome ?? undefined;
  const outcome = await handleEvent(db, await eventSource(db, connection), row.payload as unknown as Stripe.Event);
  await db
    .update(processorEvents)
    .set({ processedAt: now(), outcome })
    .where(and(which, isNull(processorEvents.processedAt)));
  return outcome;
}

/**
 * Whose events these are: the platform connection's concern only the payments made through it,
 * a seller connection's only that seller's payments through it (an account may be connected
 * twice, the platform's and a seller's: each endpoint gets every event of the account).
 */
interface EventSource {
  connection: string;
  /** Set for a seller connection. */
  merchantId?: string;
}

async function eventSource(db: Database, connection: string): Promise<EventSource> {
  if (connection === PLATFORM_CONNECTION) return { connection };
  const [row] = await db.select({ merchantId: processorConnections.merchantId }).from(processorConnections).where(eq(processorConnections.id, connection));
  // A connection is never deleted; an unknown one scopes to nobody.
  return { connection, merchantId: row?.merchantId ?? '' };
}

async function handleEvent(db: Database, source: EventSource, event: Stripe.Event): Promise<string> {
  const { type } = event;
  if (type.startsWith('payment_intent.')) return settlePayment(db, source, event.data.object as Stripe.PaymentIntent);
  if (type.startsWith('refund.')) return finishRequestedRefund(db, source, event.data.object as Stripe.Refund);
  if (type === 'payment_method.detached') return forgetDetachedCard(db, source, event.data.object as Stripe.PaymentMethod);
  if (type.startsWith('charge.dispute.')) return recordDispute(db, source, event.data.object as Stripe.Dispute);
  // charge.refunded repeats what refund.* say; SetupIntents are answered in the request that saves the card.
  return `acknowledged: ${type} needs nothing`;
}

/**
 * Any `charge.dispute.*` event: the dispute as Stripe has it now (not the event's snapshot, which
 * may be older than one already recorded) is written for the payment it disputes.
 */
async function recordDispute(db: Database, source: EventSource, snapshot: Pick<Stripe.Dispute, 'id'>): Promise<string> {
  const stripe = await stripeClientOfConnection(db, source.connection);
  if (!stripe) return `ignored: connection ${source.connection} holds no key to read dispute ${snapshot.id}`;
  const dispute = await retrieveStripeDispute(stripe, snapshot.id);
  if (!dispute) return `ignored: Stripe does not know dispute ${snapshot.id}`;
  const payment = dispute.paymentKey ? await paymentOfKey(db, source, dispute.paymentKey) : undefined;
  if (!payment) return `ignored: dispute ${dispute.reference} is not of a Paybase payment`;
  const { row, change } = await db.transaction((tx) => recordProcessorDispute(tx, payment, dispute));
  if (change === 'unknown_status') return `ignored: dispute ${dispute.reference} has a status Paybase does not know (${dispute.rawStatus})`;
  return `dispute ${row!.id} of payment ${payment.id}: ${change} (${row!.status})`;
}

/** Our payment behind a PaymentIntent: the key it was made with (our payment id, or the key derived from it). */
async function paymentOfIntent(db: Database, source: EventSource, intent: Pick<Stripe.PaymentIntent, 'metadata'>) {
  const key = intent.metadata?.[PAYBASE_KEY];
  if (!key || intent.metadata.paybase_canceled) return undefined;
  return paymentOfKey(db, source, key);
}

/** The source's payment charged with our key: keys are unique, so another connection's payment is simply not found. */
async function paymentOfKey(db: Database, source: EventSource, key: string) {
  const [payment] = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.processor, 'stripe'),
        eq(payments.processorConnection, source.connection),
        source.merchantId === undefined ? undefined : eq(payments.merchantId, source.merchantId),
        or(eq(payments.processorKey, key), and(isNull(payments.processorKey), eq(payments.id, key))),
      ),
    );
  return payment;
}

async function settlePayment(db: Database, source: EventSource, intent: Stripe.PaymentIntent): Promise<string> {
  const payment = await paymentOfIntent(db, source, intent);
  if (!payment) return 'ignored: no Paybase payment has this PaymentIntent';
  // The event overtook the request that made the charge (its phase 3 has not recorded it yet): the job fails and is retried.
  if (payment.status === 'pending') throw new Error(`payment ${payment.id} is still pending; the event is processed again later`);
  if (payment.status !== 'unknown' && payment.status !== 'requires_action') return `nothing to do: payment ${payment.id} is ${payment.status}`;
  return `payment ${payment.id}: ${await reconcilePayment(db, payment.id)}`;
}

/** A refund still `requested` (its request stopped before recording Stripe's answer) is finished: the same key asks Stripe again. */
async function finishRequestedRefund(db: Database, source: EventSource, refund: Stripe.Refund): Promise<string> {
  const refundId = refund.metadata?.[PAYBASE_KEY];
  if (!refundId) return 'ignored: not a Paybase refund';
  const [found] = await db
    .select({ refund: refunds })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(
      and(
        eq(refunds.id, refundId),
        eq(refunds.processor, 'stripe'),
        eq(payments.processorConnection, source.connection),
        source.merchantId === undefined ? undefined : eq(payments.merchantId, source.merchantId),
      ),
    );
  const row = found?.refund;
  if (!row) return 'ignored: no such Paybase refund';
  if (row.status === 'requested') {
    await finishRefund(plainPhases(db), row.id);
    return `refund ${row.id} finished`;
  }
  if (row.status === 'succeeded' && (refund.status === 'failed' || refund.status === 'canceled')) {
    // The card network returned it after Stripe had accepted it: a person must settle it with the customer.
    return `refund ${row.id} ${refund.status} at Stripe after it succeeded (${refund.failure_reason ?? 'no reason'}): needs attention`;
  }
  return `nothing to do: refund ${row.id} is ${row.status}`;
}

/** A card detached at Stripe (its dashboard, another integration) can no longer be charged: it leaves the customer's saved cards. */
async function forgetDetachedCard(db: Database, source: EventSource, method: Stripe.PaymentMethod): Promise<string> {
  const saved = await db
    .select()
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.processorToken, method.id),
        isNull(paymentMethods.detachedAt),
        source.merchantId === undefined ? undefined : eq(paymentMethods.merchantId, source.merchantId),
      ),
    );
  const results: string[] = [];
  for (const row of saved) {
    try {
      await db.transaction((tx) => removePaymentMethod(tx, row.merchantId, row.customerId, row.id, 'stripe'));
      results.push(`${row.id} removed`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      results.push(`${row.id} kept: ${error.message}`);
    }
  }
  return results.length ? results.join('; ') : 'nothing to do: no saved card has this PaymentMethod';
}
