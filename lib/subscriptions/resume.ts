import type { z } from 'zod';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Phases } from '../db/phases';
import { payments, subscriptions } from '../db/schema';
import { newId } from '../ids';
import { resumeChargePhases, runChargePhases } from '../payments/charges';
import { toPaymentResponse, type PaymentRow } from '../payments/payments';
import type { Attempt } from '../http/idempotency';
import type { CommandBody, CreateSubscriptionBody } from './schemas';
import { commandSubscription } from './commands';
import { createSubscription, type CreateResult, type StartOptions } from './create';
import { getSubscriptionDetail } from './queries';
import { processNextAction } from './renewals';
import type { Actor } from './subscription-writer';
import { assertSellerAcceptsPayments } from '../merchants/accepts-payments';

/**
 * The subscription actions that may charge, run in phases (lib/payments/charges.ts). Each
 * pending payment's intent names its action, so reconciliation can finish it after a crash.
 */

type CreateBody = z.output<typeof CreateSubscriptionBody>;

/**
 * Creates a subscription in phases. The pending payment's intent carries the request's attempt
 * key (its Idempotency-Key's lifetime), so a takeover of a crashed execution finds the charge
 * the earlier run prepared and finishes it, instead of creating and charging a second one.
 */
export async function createSubscriptionInPhases(
  phases: Phases,
  merchantId: string,
  body: CreateBody,
  startOptions: StartOptions,
  attempt?: Attempt,
): Promise<CreateResult> {
  if (attempt && !attempt.isNew) {
    const earlier = await findEarlierCreate(phases, merchantId, attempt.key);
    if (earlier) return finishEarlierCreate(phases, earlier);
  }
  // Checked before phase 1 only: a charge already made is always finished and recorded.
  await assertSellerAcceptsPayments(phases.db, merchantId);
  const options = { ...startOptions, subscriptionId: startOptions.subscriptionId ?? newId('subscription') };
  const intent = { kind: 'subscription-create', merchantId, body, options, attemptKey: attempt?.key ?? null };
  return runChargePhases(phases, intent, (tx) => createSubscription(tx, merchantId, body, options));
}

/** The payment an earlier execution of this attempt prepared (its charge, whatever became of it). */
async function findEarlierCreate(phases: Phases, merchantId: string, attemptKey: string) {
  const [payment] = await phases.db
    .select()
    .from(payments)
    .where(
      and(eq(payments.merchantId, merchantId), sql`${payments.intent}->>'kind' = 'subscription-create' and ${payments.intent}->>'attemptKey' = ${attemptKey}`),
    )
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return payment;
}

async function finishEarlierCreate(phases: Phases, payment: PaymentRow): Promise<CreateResult> {
  const { merchantId, body, options } = payment.intent as { merchantId: string; body: CreateBody; options: StartOptions };
  if (payment.status === 'pending') return resumeChargePhases(phases, payment, (tx) => createSubscription(tx, merchantId, body, options));
  // Reconciliation finished it after the crash: answer with what it recorded.
  return phases.db.transaction(async (tx) => {
    const [created] = await tx.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.id, options.subscriptionId!));
    const result: CreateResult = created
      ? { declined: false, subscription: await getSubscriptionDetail(tx, merchantId, created.id) }
      : {
          declined: true,
          payment: toPaymentResponse(payment),
          message: payment.failureMessage ?? 'The charge was declined.',
          declineCode: payment.failureCode ?? 'declined',
        };
    await phases.answer(tx, result);
    return result;
  });
}

export async function commandSubscriptionInPhases(
  phases: Phases,
  merchantId: string,
  subscriptionId: string,
  body: z.output<typeof CommandBody>,
  actor: Actor,
) {
  // A plan change may charge a proration: refused for a suspended seller before phase 1 (never between phases).
  if (body.type === 'ChangePrice') await assertSellerAcceptsPayments(phases.db, merchantId);
  // Only a change applied now charges; once accepted in phase 1 its version check is done.
  const accepted = { type: body.type, priceId: body.priceId, reason: body.reason };
  return runChargePhases(phases, { kind: 'subscription-command', merchantId, subscriptionId, body: accepted, actor }, (tx) =>
    commandSubscription(tx, merchantId, subscriptionId, body, actor),
  );
}

/** Finishes the subscription action a pending payment belongs to (crash recovery). */
export async function resumeSubscriptionCharge(phases: Phases, payment: PaymentRow): Promise<void> {
  const intent = payment.intent ?? {};
  switch (intent.kind) {
    case 'subscription-create': {
      const { merchantId, body, options } = intent as { merchantId: string; body: CreateBody; options: StartOptions };
      await resumeChargePhases(phases, payment, (tx) => createSubscription(tx, merchantId, body, options));
      return;
    }
    case 'subscription-command': {
      const { merchantId, subscriptionId, body, actor } = intent as {
        merchantId: string;
        subscriptionId: string;
        body: z.output<typeof CommandBody>;
        actor: Actor;
      };
      await resumeChargePhases(phases, payment, (tx) => commandSubscription(tx, merchantId, subscriptionId, body, actor));
      return;
    }
    case 'subscription-action': {
      const { subscriptionId } = intent as { subscriptionId: string };
      await resumeChargePhases(phases, payment, (tx) => processNextAction(tx, subscriptionId));
      return;
    }
    default:
      throw new Error(`Payment ${payment.id} is pending with no action to finish it (${String(intent.kind)}).`);
  }
}
