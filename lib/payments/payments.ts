import { and, eq, inArray, sql, type WithSubquery } from 'drizzle-orm';
import type { Db } from '../db/client';
import { payments, refunds } from '../db/schema';
import type { PaymentStatus } from '../db/schema';
import { paginate, mapPage, type PageRequest } from '../db/paginate';
import { newId } from '../ids';
import { now } from '../clock';
import { config } from '../config';
import { storableText } from '../stored-text';
import { recordEvent, type EventInput, type EventRecorder } from '../events/record-event';
import { enqueueQueuedJob, type QueuedJob } from '../jobs/enqueue';
import { ApiError, notFound } from '../errors';
import { processorForSeller } from './processor';
import type { ChargeOutcome, SettledOutcome } from './processor/types';
import { toRefundResponse } from './refund-response';
import { disputesOfPayment } from './disputes';
import { paymentStateMachine } from './payment-states';

export type PaymentRow = typeof payments.$inferSelect;

export function toPaymentResponse(row: PaymentRow) {
  return {
    id: row.id,
    status: row.status,
    amount: row.amount,
    amountRefunded: row.amountRefunded,
    currency: row.currency,
    customerId: row.customerId,
    checkoutId: row.checkoutId,
    paymentMethodId: row.paymentMethodId,
    card: row.cardBrand && row.cardLast4 ? { brand: row.cardBrand, last4: row.cardLast4 } : null,
    description: row.description,
    failureCode: row.failureCode,
    failureMessage: row.failureMessage,
    nextAction: row.nextActionUrl ? { type: 'redirect_to_url' as const, url: row.nextActionUrl } : null,
    processor: processorDetails(row),
    metadata: row.metadata,
    settledAt: row.settledAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Which processor took a payment or refund, in which mode, under which of its ids (ours stand in until it gives one). */
export function processorDetails(row: Pick<PaymentRow, 'processor' | 'processorMode' | 'processorReference'>) {
  const reference = row.processorReference && !/^(?:none|unknown)_/.test(row.processorReference) ? row.processorReference : null;
  return { name: row.processor, mode: row.processorMode, reference };
}

/** What a pending payment is created with. */
export interface PendingPaymentInput {
  id?: string;
  merchantId: string;
  customerId: string;
  checkoutId: string | null;
  paymentMethodId: string | null;
  amount: number;
  currency: string;
  description: string;
  processorToken?: string | null;
  processorKey?: string | null;
  intent?: Record<string, unknown> | null;
  metadata?: Record<string, string>;
}

/**
 * A payment starts `pending`, before the processor is asked; no event until it has an outcome.
 * Every column is given (no default fills one in), so the row written is the row returned
 * without reading it back.
 */
export async function createPendingPayment(
  tx: Db,
  input: PendingPaymentInput,
  /** A data-modifying CTE to run in the same statement (e.g. the checkout this payment pays). */
  along?: WithSubquery,
): Promise<PaymentRow> {
  const at = now();
  const processor = await processorForSeller(tx, input.merchantId);
  const row: PaymentRow = {
    id: input.id ?? newId('payment'),
    merchantId: input.merchantId,
    customerId: input.customerId,
    checkoutId: input.checkoutId,
    paymentMethodId: input.paymentMethodId,
    status: paymentStateMachine.start('pending'),
    amount: input.amount,
    amountRefunded: 0,
    currency: input.currency,
    description: input.description,
    processor: processor.name,
    processorMode: processor.mode,
    processorConnection: processor.connection,
    processorReference: null,
    processorToken: input.processorToken ?? null,
    processorKey: input.processorKey ?? null,
    intent: input.intent ?? null,
    recoveryAttempts: 0,
    review: null,
    cardBrand: null,
    cardLast4: null,
    failureCode: null,
    failureMessage: null,
    nextActionUrl: null,
    metadata: input.metadata ?? {},
    settledAt: null,
    createdAt: at,
    updatedAt: at,
  };
  await (along ? tx.with(along) : tx).insert(payments).values(row);
  return row;
}

/**
 * What the events of a subscription's charge say besides the payment or record itself: the
 * subscription and the period billed (a backend fulfils on them without parsing descriptions).
 */
/** The subscription a charge belongs to and, for a billed period (not a trial's zero payment), that period. */
export interface SubscriptionContext {
  subscriptionId: string;
  periodIndex?: number;
  periodStart?: string;
  periodEnd?: string;
}

/**
 * The answer to a request whose payment waits for a person (`needs_review`) before anything
 * could be written from it: no outcome yet. A 5xx, so its Idempotency-Key is not answered with
 * it (lib/server/http/api-route.ts): a retry with the same key answers the outcome once it is settled.
 */
export function paymentAwaitingReview(paymentId: string): ApiError {
  return new ApiError(
    'SERVICE_UNAVAILABLE',
    `Payment ${paymentId} waits for the platform operator to confirm its outcome at the processor; retry with the same Idempotency-Key later.`,
    { retryAfterSeconds: 60, extra: { reason: 'payment_needs_review', paymentId } },
  );
}

/** A payment's status as committed now (a row read earlier may be stale). */
export async function currentPaymentStatus(db: Db, paymentId: string): Promise<PaymentStatus | undefined> {
  const [row] = await db.select({ status: payments.status }).from(payments).where(eq(payments.id, paymentId));
  return row?.status;
}

/** How long after a `payment.unknown` the processor is asked again (sandbox: settles then). */
export const RECONCILE_DELAY_MS = config.payments.reconcileDelayMs;

const OUTCOME_EVENT = { succeeded: 'payment.succeeded', failed: 'payment.failed', unknown: 'payment.unknown' } as const;

/** A processor's answer, or nothing to collect (lib/payments/charges.ts `NO_CHARGE`). */
export type ChargeResult = ChargeOutcome | { status: 'succeeded'; reference: null; card: null };

/** What a charge's outcome writes on its pending payment (one update, however it is sent). */
export function chargeOutcomeColumns(payment: PaymentRow, outcome: ChargeResult, at: Date) {
  // The callers hold the pending row (fresh, or guarded by its status in phase 3), or a
  // `needs_review` one whose outcome was never recorded, which a person settles (recovery.ts).
  const from = outcome.status === 'unknown' || outcome.status === 'requires_action' ? (['pending'] as const) : (['pending', 'needs_review'] as const);
  paymentStateMachine.assertTransition(payment.status, outcome.status, `Payment ${payment.id} is ${payment.status}`, 'not pending', from);
  // The token was kept only so the charge could be finished; a saved method keeps its own.
  return {
    status: outcome.status,
    processorReference: outcome.reference,
    processorToken: null,
    cardBrand: outcome.card?.brand ?? payment.cardBrand,
    cardLast4: outcome.card?.last4 ?? payment.cardLast4,
    // The processor's words are text from outside (lib/stored-text.ts).
    failureCode: outcome.status === 'failed' ? storableText(outcome.declineCode, 100) : null,
    failureMessage: outcome.status === 'failed' ? storableText(outcome.message, 1000) : null,
    // Kept until the payment settles: the customer (or the hosted page) goes there to authenticate.
    nextActionUrl: outcome.status === 'requires_action' ? outcome.nextAction.url : null,
    settledAt: outcome.status === 'unknown' || outcome.status === 'requires_action' ? null : at,
    updatedAt: at,
  };
}

/**
 * The `payment.succeeded | failed | unknown` event of a payment that has just taken its outcome.
 * A `requires_action` payment has none yet (the spec's payment events are those three): its
 * `payment.succeeded | failed` comes when it settles.
 */
export function chargeOutcomeEvent(row: PaymentRow, context?: SubscriptionContext): EventInput {
  return { merchantId: row.merchantId, type: OUTCOME_EVENT[row.status as keyof typeof OUTCOME_EVENT], object: { ...toPaymentResponse(row), ...context } };
}

/**
 * Every unknown outcome (checkout, renewal, proration, dunning retry) and every charge waiting
 * for the customer's authentication is settled on one path: this job.
 */
export function reconcilePaymentJob(paymentId: string, delayMs: number = RECONCILE_DELAY_MS): QueuedJob {
  return {
    task: 'reconcile-payment',
    payload: { paymentId },
    options: { runAt: new Date(now().getTime() + delayMs), jobKey: `reconcile:${paymentId}` },
  };
}

/**
 * pending → succeeded | failed | unknown, with the matching event in the same transaction. A
 * payment no longer pending (another finisher recorded it) throws, with nothing written.
 */
export async function recordChargeOutcome(
  tx: Db,
  payment: PaymentRow,
  outcome: ChargeResult,
  record: EventRecorder = recordEvent,
  context?: SubscriptionContext,
) {
  const [row] = await tx
    .update(payments)
    .set(chargeOutcomeColumns(payment, outcome, now()))
    .where(
      and(
        eq(payments.id, payment.id),
        eq(payments.merchantId, payment.merchantId),
        // The status it was read with (pending, or needs_review when a person settles it): checked by chargeOutcomeColumns.
        eq(payments.status, payment.status),
      ),
    )
    .returning();
  // Not a client's error (a 4xx would be stored as an Idempotency-Key's answer): a race the caller lost.
  if (!row) throw new Error(`Payment ${payment.id} is no longer ${payment.status}: another run recorded its outcome.`);
  if (outcome.status !== 'requires_action') await record(tx, chargeOutcomeEvent(row, context));
  if (outcome.status === 'unknown' || outcome.status === 'requires_action') await enqueueQueuedJob(tx, reconcilePaymentJob(row.id));
  return row;
}

/** unknown (or requires_action) → succeeded | failed, once the processor has answered the reconciliation query. */
export async function settleUnknownPaymentRow(
  tx: Db,
  paymentId: string,
  outcome: Exclude<SettledOutcome, { status: 'unknown' }> & { reference?: string | null },
  context?: SubscriptionContext,
) {
  const at = now();
  const [row] = await tx
    .update(payments)
    .set({
      status: outcome.status,
      // The processor's id of the charge, learnt now when the request that made it lost its answer.
      ...(outcome.reference && !/^(?:none|unknown|review)_/.test(outcome.reference) ? { processorReference: outcome.reference } : {}),
      failureCode: outcome.status === 'failed' ? storableText(outcome.declineCode, 100) : null,
      failureMessage: outcome.status === 'failed' ? storableText(outcome.message, 1000) : null,
      nextActionUrl: null,
      settledAt: at,
      updatedAt: at,
    })
    .where(
      and(eq(payments.id, paymentId), inArray(payments.status, paymentStateMachine.sourcesOf(outcome.status, ['unknown', 'requires_action', 'needs_review']))),
    )
    .returning();
  if (!row) return undefined; // settled already (a concurrent or repeated reconciliation)
  await recordEvent(tx, { merchantId: row.merchantId, type: OUTCOME_EVENT[outcome.status], object: { ...toPaymentResponse(row), ...context } });
  return row;
}

export async function findPaymentRow(db: Db, merchantId: string, paymentId: string, options: { forUpdate?: boolean } = {}) {
  const query = db
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.merchantId, merchantId)));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('payment', paymentId);
  return row;
}

export async function getPayment(db: Db, merchantId: string, paymentId: string) {
  const row = await findPaymentRow(db, merchantId, paymentId);
  const [refundRows, disputes] = await Promise.all([
    db.select().from(refunds).where(eq(refunds.paymentId, row.id)).orderBy(refunds.createdAt, refunds.id),
    disputesOfPayment(db, merchantId, row.id),
  ]);
  return { ...toPaymentResponse(row), refunds: refundRows.map(toRefundResponse), disputes };
}

export async function listPayments(
  db: Db,
  merchantId: string,
  query: PageRequest & { orderBy: 'createdAt' | 'amount'; status?: PaymentStatus; customerId?: string; customerIds?: string[]; checkoutId?: string },
) {
  const page = await paginate(db, payments, {
    ...query,
    scope: [eq(payments.merchantId, merchantId)],
    where: [
      query.status ? eq(payments.status, query.status) : undefined,
      query.customerId ? eq(payments.customerId, query.customerId) : undefined,
      query.checkoutId ? eq(payments.checkoutId, query.checkoutId) : undefined,
      // The console's customer filter: every customer record with one email (an empty list matches none).
      query.customerIds ? (query.customerIds.length ? inArray(payments.customerId, query.customerIds) : sql`false`) : undefined,
    ],
    orderBy: [query.orderBy === 'amount' ? payments.amount : payments.createdAt, payments.id],
  });
  return mapPage(page, toPaymentResponse);
}
