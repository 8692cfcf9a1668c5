import Stripe from 'stripe';
import type { Database } from '../db/client';
import { config } from '../config';
import { log } from '../log';
import { receiveStripeEvent } from './stripe-events';
import { forgetWebhookSecret, platformWebhookSecret } from './stripe-webhook-endpoint';

/** Stripe signs a body of a few kilobytes; anything much larger is not Stripe's. */
const MAX_EVENT_BYTES = 512 * 1024;

export type WebhookAnswer = 'not_stripe_mode' | 'unverified' | 'stored' | 'duplicate';

/**
 * One delivery to `POST /api/processors/stripe/webhook`: verified with the SDK's `constructEvent`
 * against the raw body, then stored once by event id (the worker processes it).
 */
export async function acceptStripeWebhook(db: Database, body: string, signature: string | null): Promise<WebhookAnswer> {
  if (config.processor.name !== 'stripe') return 'not_stripe_mode';
  if (!signature || Buffer.byteLength(body) > MAX_EVENT_BYTES) return 'unverified';
  const event = (await verify(body, signature, await platformWebhookSecret(db))) ?? (await verifyWithFreshSecret(db, body, signature));
  if (!event) return 'unverified';
  const stored = await receiveStripeEvent(db, event);
  log.info({ stripeEventId: event.id, stripeEventType: event.type, stored }, 'stripe event received');
  return stored;
}

async function verify(body: string, signature: string, secret: string | undefined): Promise<Stripe.Event | undefined> {
  if (!secret) return undefined;
  try {
    return Stripe.webhooks.constructEvent(body, signature, secret);
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) return undefined;
    throw error;
  }
}

/** The endpoint may have been registered again (PUBLIC_URL changed) since this process read its secret. */
async function verifyWithFreshSecret(db: Database, body: string, signature: string) {
  if (config.processor.stripe.webhookSecret) return undefined;
  forgetWebhookSecret();
  return verify(body, signature, await platformWebhookSecret(db));
}
