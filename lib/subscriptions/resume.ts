import type { z } from 'zod';
import type { Phases } from '../db/phases';
import { newId } from '../ids';
import { resumeChargePhases, runChargePhases } from '../payments/charges';
import type { PaymentRow } from '../payments/payments';
import type { CommandBody, CreateSubscriptionBody } from './schemas';
import { commandSubscription, createSubscription, processNextAction, type Actor, type StartOptions } from './subscriptions';

/**
 * The subscription actions that may charge, run in phases (lib/payments/charges.ts). Each
 * pending payment's intent names its action, so reconciliation can finish it after a crash.
 */

export function createSubscriptionInPhases(phases: Phases, merchantId: string, body: z.output<typeof CreateSubscriptionBody>, startOptions: StartOptions) {
  const options = { ...startOptions, subscriptionId: startOptions.subscriptionId ?? newId('subscription') };
  return runChargePhases(phases, { kind: 'subscription-create', merchantId, body, options }, (tx) => createSubscription(tx, merchantId, body, options));
}

export function commandSubscriptionInPhases(phases: Phases, merchantId: string, subscriptionId: string, body: z.output<typeof CommandBody>, actor: Actor) {
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
      const { merchantId, body, options } = intent as { merchantId: string; body: z.output<typeof CreateSubscriptionBody>; options: StartOptions };
      await resumeChargePhases(phases, payment, (tx) => createSubscription(tx, merchantId, body, options));
      return;
    }
    case 'subscription-command': {
      const { merchantId, subscriptionId, body, actor } = intent as { merchantId: string; subscriptionId: string; body: z.output<typeof CommandBody>; actor: Actor };
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
