import Stripe from 'stripe';
import type { Database } from '../db/client';
import { PLATFORM_CONNECTION } from '../db/schema';
import { config } from '../config';
import { log } from '../log';
import { receiveStripeEvent } from './stripe-events';
import { connectionWebhookSecret, forgetWebhookSecret, platformWebhookSecret } from './stripe-webhook-endpoint';

/** Stripe signs a body of a few kilobytes; anything much larger is not Stripe's. */
const MAX_EVENT_BYTES = 512 * 1024;

export type WebhookAnswer = 'not_stripe_mode' | 'unverified' | 'stored' | 'duplicate';

/**
 * One delivery to a connection's endpoint (`POST /api/processors/stripe/webhook` for the
 * platform, `…/webhook/{connectionId}` for a seller's): verified with the SDK's `constructEvent`
 * against the raw body and that connection's secret, then stored once by event id (the worker
 * processes it).
 */
export async function acceptStripeWebhook(db: Database, connection: string, body: string, signature: string | null): Promise<WebhookAnswer> {
  const platform = connection === PLATFORM_CONNECTION;
  if (platform && config.processor.name !== 'stripe') return 'not_stripe_mode';
  if (!signature || Buffer.byteLength(body) > MAX_EVENT_BYTES) return 'unverified';
  const event = platform
    ? ((await verify(body, signature, await platformWebhookSecret(db))) ?? (await verifyWithFreshSecret(db, body, signature)))
    : await verify(body, signature, await connectionWebhookSecret(db, connection));
  if (!event) return 'unverified';
  const stored = await receiveStripeEvent(db, connection, event);
  log.info({ connection, stripeEventId: event.id, stripeEventType: event.type, stored }, 'stripe event received');
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

const ANSWERS: Record<WebhookAnswer, readonly [number, string]> = {
  not_stripe_mode: [404, 'Stripe is not this installation’s processor.'],
  unverified: [400, 'The Stripe-Signature does not verify.'],
  stored: [200, 'received'],
  duplicate: [200, 'received before'],
};

export function stripeWebhookResponse(answer: WebhookAnswer): Response {
  const [status, text] = ANSWERS[answer];
  return new Response(text, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
}
