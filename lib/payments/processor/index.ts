import type Stripe from 'stripe';
import { config } from '../../config';
import { SandboxProcessor } from './sandbox';
import { StripeProcessor, stripeClient } from './stripe';
import type { PaymentProcessor } from './types';

export type { PaymentProcessor } from './types';

let processor: PaymentProcessor | undefined;

/** The processor every payment goes through: `PAYMENT_PROCESSOR` (docs/processors.md), made on first use. */
export function paymentProcessor(): PaymentProcessor {
  processor ??= makeProcessor();
  return processor;
}

function makeProcessor(): PaymentProcessor {
  if (config.processor.name === 'sandbox') return new SandboxProcessor();
  const key = config.processor.stripe.secretKey!;
  return new StripeProcessor(stripeClient(key), key);
}

let sandbox: SandboxProcessor | undefined;

/**
 * The processor that made a payment, to refund it: the current one when it is the same processor
 * in the same mode; the sandbox for a sandbox payment (it keeps its book in our database); none
 * for a payment of a processor or mode this installation no longer uses (a Stripe test payment
 * once the key is live): its money is not reachable from here.
 */
export function processorOf(payment: { processor: string; processorMode: string }): PaymentProcessor | undefined {
  const current = paymentProcessor();
  if (payment.processor === current.name && payment.processorMode === current.mode) return current;
  if (payment.processor === 'sandbox') {
    sandbox ??= new SandboxProcessor();
    return sandbox;
  }
  return undefined;
}

let platformStripe: Stripe | undefined;

/** The SDK client of the platform's Stripe connection (STRIPE_SECRET_KEY), for what is not a payment: webhooks and their endpoint. */
export function platformStripeClient(): Stripe {
  if (config.processor.name !== 'stripe') throw new Error('PAYMENT_PROCESSOR is not stripe');
  platformStripe ??= stripeClient(config.processor.stripe.secretKey!);
  return platformStripe;
}
