import { getDb } from '@/lib/db/client';
import { PLATFORM_CONNECTION } from '@/lib/db/schema';
import { publicRoute } from '@/lib/server/http/public-route';
import { acceptStripeWebhook, stripeWebhookResponse } from '@/lib/processors/stripe-webhook';

/**
 * Stripe's events for the platform connection (docs/processors.md, "Webhooks from Stripe").
 * Stripe retries anything but a 2xx, so a failure to store the event answers 500.
 */
export const POST = publicRoute(async (request) =>
  stripeWebhookResponse(await acceptStripeWebhook(getDb(), PLATFORM_CONNECTION, await request.text(), request.headers.get('stripe-signature'))),
);
