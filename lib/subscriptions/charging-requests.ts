import type { z } from 'zod';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Phases } from '../db/phases';
import { payments } from '../db/schema';
import { newId } from '../ids';
import { Pinned, pinnedMoveOf, runMoneyMove } from '../payments/money-moves';
import type { PaymentRow } from '../payments/payments';
import { lockAttempt, type Attempt } from '../http/idempotency';
import type { CommandBody, CreateSubscriptionBody } from './schemas';
import { commandSubscription, type CommandResult } from './commands';
import { createSubscription, recordedSubscriptionCreate, type CreatePlan, type CreateResult, type StartOptions } from './create';
import type { Actor } from './subscription-writer';
import { assertSellerAcceptsPayments } from '../merchants/accepts-payments';

/**
 * The subscription requests that may charge, run as money moves (lib/payments/money-moves.ts):
 * phase 1 pins the plan on the pending payment, phases 2 and 3 charge and apply it.
 */

type CreateBody = z.output<typeof CreateSubscriptionBody>;

/**
 * Creates a subscription. The pinned plan carries the request's attempt key (its
 * Idempotency-Key's lifetime), so a takeover of a crashed execution finds the charge the earlier
 * run prepared and finishes it, instead of creating and charging a second one.
 */
export async function createSubscriptionInPhases(
  phases: Phases,
  merchantId: string,
  body: CreateBody,
  startOptions: StartOptions,
  attempt?: Attempt,
): Promise<CreateResult> {
  const options: StartOptions = {
    ...startOptions,
    subscriptionId: startOptions.subscriptionId ?? newId('subscription'),
    attemptKey: attempt?.key ?? null,
  };
  return runMoneyMove(phases, async (tx) => {
    if (attempt) {
      await lockAttempt(tx, merchantId, attempt);
      const earlier = attempt.isNew ? undefined : await findEarlierCreate(tx, merchantId, attempt.key);
      if (earlier) return earlierCreate(tx, earlier);
    }
    // Checked for a new subscription only: a charge already made is always finished and recorded.
    await assertSellerAcceptsPayments(tx, merchantId);
    return createSubscription(tx, merchantId, body, options);
  });
}

/** The payment an earlier execution of this attempt pinned (its charge, whatever became of it). */
async function findEarlierCreate(tx: Db, merchantId: string, attemptKey: string) {
  const [payment] = await tx
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.merchantId, merchantId),
        sql`${payments.intent}->>'kind' = 'subscription-create' and ${payments.intent}->'plan'->>'attemptKey' = ${attemptKey}`,
      ),
    )
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return payment;
}

/** An earlier execution's payment: still to be finished (pending), or what it recorded. */
async function earlierCreate(tx: Db, payment: PaymentRow): Promise<CreateResult | Pinned> {
  if (payment.status === 'pending') return new Pinned(payment);
  const { plan } = pinnedMoveOf(payment).move as { plan: CreatePlan };
  return recordedSubscriptionCreate(tx, payment, plan);
}

export async function commandSubscriptionInPhases(
  phases: Phases,
  merchantId: string,
  subscriptionId: string,
  body: z.output<typeof CommandBody>,
  actor: Actor,
): Promise<CommandResult> {
  // A plan change may charge a proration: refused for a suspended seller before phase 1 (never between phases).
  if (body.type === 'ChangePrice') await assertSellerAcceptsPayments(phases.db, merchantId);
  return runMoneyMove(phases, (tx) => commandSubscription(tx, merchantId, subscriptionId, body, actor));
}
