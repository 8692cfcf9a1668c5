import { SandboxProcessor } from './sandbox';
import type { PaymentProcessor } from './types';

export type { PaymentProcessor } from './types';

const sandbox = new SandboxProcessor();

/** The processor every payment goes through. Only the sandbox exists until a real adapter is added. */
export function paymentProcessor(): PaymentProcessor {
  return sandbox;
}
