import { getDb } from '@/lib/db/client';
import { publicRoute } from '@/lib/http/public-route';
import { acceptStripeWebhook } from '@/lib/processors/stripe-webhook';

const ANSWERS = {
  not_stripe_mode: [404, 'Stripe is not this installation’s processor.'],
  unverified: [400, 'The Stripe-Signature does not verify.'],
  stored: [200, 'received'],
  duplicate: [200, 'received before'],
} as const;

/**
 * Stripe's events for the platform connection (docs/processors.md, "Webhooks from Stripe").
 * Stripe retries anything but a 2xx, so a failure to store the event answers 500.
 */
export const POST = publicRoute(async (request) => {
  const answer = await acceptStripeWebhook(getDb(), await request.text(), request.headers.get('stripe-signature'));
  const [status, text] = ANSWERS[answer];
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
});
