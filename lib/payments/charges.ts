import { AsyncLocalStorage } from 'node:async_hooks';
import { and, eq, sql, type WithSubquery } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Phases } from '../db/phases';
import { payments } from '../db/schema';
import { paymentProcessor } from './processor';
import type { ChargeOutcome, RetrievedCharge } from './processor/types';
import { createPendingPayment, type PaymentRow, type PendingPaymentInput } from './payments';

/**
 * Two-phase money movement (docs/payments.md, "Two phases"): phase 1 commits a `pending`
 * payment with everything needed to finish it; phase 2 calls the processor with no transaction
 * or lock held; phase 3 records the outcome in one transaction. A crash between phases leaves
 * the pending row, which reconciliation finishes with the same processor idempotency key.
 */

/** A payment with nothing to collect (100 % discount, trial) succeeds without a processor call. */
export const NO_CHARGE = { status: 'succeeded', reference: null, card: null } as const;
export type KnownOutcome = ChargeOutcome | typeof NO_CHARGE;

export interface ChargeRequest extends Omit<PendingPaymentInput, 'processorToken' | 'processorKey' | 'intent'> {
  /** The processor token to charge; null when the customer has none (the charge fails). */
  token: string | null;
  /** Derived from our ids: the same action always asks the processor with the same key. */
  processorKey: string;
}

/** Which action a pending payment belongs to, so reconciliation can finish it. */
export type ChargeIntent = { kind: string } & Record<string, unknown>;

/** Phase 1: the pending payment, with the token and key phase 2 (or a recovery) charges with. */
export async function createPreparedPayment(tx: Db, request: ChargeRequest, intent: ChargeIntent, along?: WithSubquery): Promise<PaymentRow> {
  const { token, processorKey, ...payment } = request;
  return createPendingPayment(tx, { ...payment, processorToken: token, processorKey, intent }, along);
}

/** Phase 2. Never call it with a transaction open: it may take as long as the processor does. */
export async function collectCharge(payment: PaymentRow): Promise<KnownOutcome> {
  if (payment.amount === 0) return NO_CHARGE;
  if (!payment.processorToken) {
    return {
      status: 'failed',
      reference: `none_${payment.id}`,
      card: null,
      declineCode: 'no_payment_method',
      message: 'The customer has no payment method to charge.',
    };
  }
  return paymentProcessor().charge({
    token: payment.processorToken,
    amount: payment.amount,
    currency: payment.currency,
    idempotencyKey: payment.processorKey ?? payment.id,
  });
}

/** Phase 3 starts here: the payment, locked, while it is still pending (else another finisher won). */
export async function lockPendingPayment(tx: Db, paymentId: string): Promise<PaymentRow | undefined> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.status, 'pending')))
    .for('update');
  return row;
}

// ---------------------------------------------------------------------------------------------
// Phases for code written as one transaction (the subscription engine): the action runs in
// phase 1 until it needs the processor, is rolled back, and runs again in phase 3 with the answer.

class ChargeNeeded extends Error {
  constructor(readonly request: ChargeRequest) {
    super('the action needs a processor charge');
  }
}

class LookupNeeded extends Error {
  constructor(readonly idempotencyKey: string) {
    super('the action needs to ask the processor about a charge');
  }
}

interface Known {
  charge?: { payment: PaymentRow; outcome: KnownOutcome; used?: boolean };
  lookups: Map<string, RetrievedCharge>;
}

const knownAnswers = new AsyncLocalStorage<Known>();

/**
 * The charge an action makes, from inside its transaction: in phase 1 it ends the run (the
 * runner commits the pending payment and calls the processor); in phase 3 it is the prepared
 * payment and the processor's answer. Outside the runner it refuses, so no processor call can
 * ever be made while a transaction is open.
 */
export async function chargeInTransaction(tx: Db, request: ChargeRequest): Promise<{ payment: PaymentRow; outcome: KnownOutcome }> {
  if (request.amount === 0 || request.token === null) {
    const payment = await createPreparedPayment(tx, request, { kind: 'none' });
    return { payment, outcome: await collectCharge(payment) };
  }
  const known = knownAnswers.getStore();
  if (!known) throw new Error('A processor charge must run through runChargePhases (no processor call inside a transaction).');
  const prepared = known.charge;
  if (!prepared) throw new ChargeNeeded(request);
  const { payment } = prepared;
  if (prepared.used || payment.processorKey !== request.processorKey || payment.amount !== request.amount || payment.currency !== request.currency) {
    throw new Error(`Payment ${payment.id} was prepared for another charge than this action now makes.`);
  }
  prepared.used = true;
  return { payment, outcome: prepared.outcome };
}

/** What the processor knows of a charge, asked from inside a transaction (answered between runs). */
export async function retrieveChargeInTransaction(idempotencyKey: string): Promise<RetrievedCharge> {
  const known = knownAnswers.getStore();
  if (!known) throw new Error('A processor lookup must run through runChargePhases (no processor call inside a transaction).');
  const answer = known.lookups.get(idempotencyKey);
  if (!answer) throw new LookupNeeded(idempotencyKey);
  return answer;
}

/**
 * Runs an action written as one transaction with its processor calls moved out of it: each run
 * is a transaction; a run that needs the processor commits only the pending payment (a lookup
 * commits nothing), the processor is asked with no transaction open, and the action runs again
 * with the answer. The last run records everything, and the API answer, at once.
 */
export async function runChargePhases<T>(
  phases: Phases,
  intent: ChargeIntent,
  work: (tx: Db) => Promise<T>,
  known: Known = { lookups: new Map() },
): Promise<T> {
  for (let run = 0; run < 4; run++) {
    const step = await phases.db.transaction(async (tx) => {
      // Another run (a second worker, a recovery) recorded this charge first: run on what it left.
      if (known.charge && !(await lockPendingPayment(tx, known.charge.payment.id))) known.charge = undefined;
      if (known.charge) known.charge.used = false;
      try {
        const value = await knownAnswers.run(known, () => tx.transaction((sp) => work(sp)));
        if (known.charge && !known.charge.used) throw new Error(`Payment ${known.charge.payment.id} was prepared for a charge this action no longer makes.`);
        await phases.answer(tx, value);
        return { value };
      } catch (error) {
        if (error instanceof LookupNeeded) return { lookup: error.idempotencyKey };
        if (!(error instanceof ChargeNeeded) || known.charge) throw error;
        // Racing runs of one action (two workers renewing the same period) prepare one payment:
        // the second waits here for the first to commit, then finds its pending row.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${error.request.processorKey}, 0))`);
        const [existing] = await tx.select().from(payments).where(eq(payments.processorKey, error.request.processorKey));
        if (existing && existing.status !== 'pending') throw new Error(`Charge ${error.request.processorKey} was already recorded as ${existing.status}.`);
        return { prepared: existing ?? (await createPreparedPayment(tx, error.request, intent)) };
      }
    });
    if ('value' in step) return step.value as T;
    if ('lookup' in step) known.lookups.set(step.lookup!, await paymentProcessor().retrieveCharge(step.lookup!));
    else known.charge = { payment: step.prepared!, outcome: await collectCharge(step.prepared!) };
  }
  throw new Error('An action asked the processor more often than one charge and its lookups.');
}

/** Finishes an action whose pending payment was committed by phase 1 (a crash recovery). */
export async function resumeChargePhases<T>(phases: Phases, payment: PaymentRow, work: (tx: Db) => Promise<T>): Promise<T> {
  const outcome = await collectCharge(payment);
  return runChargePhases(phases, (payment.intent ?? { kind: 'unknown' }) as ChargeIntent, work, { charge: { payment, outcome }, lookups: new Map() });
}

/**
 * Phase 1 of an action inside a larger phase-1 transaction (a recurring checkout keeps its
 * link slot and customer): the action's run is rolled back when it needs the processor, and
 * its pending payment is written in the caller's transaction.
 */
export async function prepareInTransaction<T>(tx: Db, intent: ChargeIntent, work: (tx: Db) => Promise<T>): Promise<{ value: T } | { payment: PaymentRow }> {
  try {
    return { value: await knownAnswers.run({ lookups: new Map() }, () => tx.transaction((sp) => work(sp))) };
  } catch (error) {
    if (!(error instanceof ChargeNeeded)) throw error;
    return { payment: await createPreparedPayment(tx, error.request, intent) };
  }
}
