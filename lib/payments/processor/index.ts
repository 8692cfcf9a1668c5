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
