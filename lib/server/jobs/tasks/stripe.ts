import type { Task } from 'graphile-worker';
import { getDb } from '../../../db/client';
import { processStripeEvent } from '../../../processors/stripe-events';
import { ensureStripeWebhookEndpoint } from '../../../processors/stripe-webhook-endpoint';

/** One event Stripe sent to the webhook (lib/processors/stripe-events.ts). */
export const processStripeEventTask: Task = async (payload) => {
  const { eventId, connection } = payload as { eventId: string; connection?: string };
  await processStripeEvent(getDb(), eventId, connection);
};

/** At start, with no STRIPE_WEBHOOK_SECRET: the platform connection's endpoint at Stripe. */
export const registerStripeWebhookEndpointTask: Task = async () => {
  await ensureStripeWebhookEndpoint(getDb());
};
