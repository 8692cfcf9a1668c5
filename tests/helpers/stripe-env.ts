import type { StripeEmulator } from '../stripe-emulator/server';

export const STRIPE_TEST_SECRET_KEY = 'sk_test_paybaseintegration';
export const STRIPE_TEST_PUBLISHABLE_KEY = 'pk_test_paybaseintegration';

/** The settings of a Paybase server in Stripe mode against the emulator (vitest and Playwright alike): API, Stripe.js and keys. */
export function stripeModeEnv(emulator: StripeEmulator): Record<string, string> {
  return {
    PAYMENT_PROCESSOR: 'stripe',
    STRIPE_SECRET_KEY: STRIPE_TEST_SECRET_KEY,
    STRIPE_PUBLISHABLE_KEY: STRIPE_TEST_PUBLISHABLE_KEY,
    STRIPE_API_URL: emulator.baseUrl,
    STRIPE_JS_URL: emulator.stripeJsUrl,
    PAYMENT_RECONCILE_DELAY_MS: '300',
  };
}
