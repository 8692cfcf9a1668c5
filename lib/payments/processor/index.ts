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

let platformStripe: Stripe | undefined;

/** The SDK client of the platform's Stripe connection (STRIPE_SECRET_KEY), for what is not a payment: webhooks and their endpoint. */
export function platformStripeClient(): Stripe {
  if (config.processor.name !== 'stripe') throw new Error('PAYMENT_PROCESSOR is not stripe');
  platformStripe ??= stripeClient(config.processor.stripe.secretKey!);
  return platformStripe;
}
