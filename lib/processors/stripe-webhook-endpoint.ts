import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { config } from '../config';
import type { Database } from '../db/client';
import { stripeWebhookEndpoints } from '../db/schema';
import { log } from '../log';
import { platformStripeClient } from '../payments/processor';
import { stripeModeOf } from '../payments/processor/stripe';
import { decryptSecret, encryptSecret } from '../secret-box';

/** Where Stripe sends a connection's events (docs/processors.md, "Webhooks from Stripe"). */
export const STRIPE_WEBHOOK_PATH = '/api/processors/stripe/webhook';
const PLATFORM = 'platform';

/** The events Paybase acts on; the endpoint asks Stripe for these only. */
export const STRIPE_EVENTS: Stripe.WebhookEndpointCreateParams.EnabledEvent[] = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
  'payment_intent.processing',
  'payment_intent.requires_action',
  'payment_intent.canceled',
  'charge.refunded',
  'refund.created',
  'refund.updated',
  'refund.failed',
  'setup_intent.succeeded',
  'setup_intent.setup_failed',
  'setup_intent.requires_action',
  'setup_intent.canceled',
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.funds_reinstated',
  'payment_method.detached',
];

function endpointUrl(): string {
  return `${config.publicUrl}${STRIPE_WEBHOOK_PATH}`;
}

/**
 * With no STRIPE_WEBHOOK_SECRET, the platform connection registers its own endpoint at Stripe
 * (at start, by a job) and keeps its secret sealed. Registered already for this URL and mode:
 * nothing to do. Another URL (PUBLIC_URL changed): the old endpoint is deleted at Stripe. Two
 * workers starting at once: the second one's endpoint is deleted again.
 */
export async function ensureStripeWebhookEndpoint(db: Database): Promise<'configured' | 'registered' | 'kept'> {
  if (config.processor.name !== 'stripe' || config.processor.stripe.webhookSecret) return 'configured';
  const mode = stripeModeOf(config.processor.stripe.secretKey!);
  const url = endpointUrl();
  const [current] = await db.select().from(stripeWebhookEndpoints).where(eq(stripeWebhookEndpoints.connection, PLATFORM));
  if (current && current.url === url && current.mode === mode) return 'kept';
  const stripe = platformStripeClient();
  const endpoint = await stripe.webhookEndpoints.create({
    url,
    enabled_events: STRIPE_EVENTS,
    description: 'Paybase (registered by the platform connection)',
    metadata: { paybase_connection: PLATFORM },
  });
  const row = {
    connection: PLATFORM,
    mode,
    url,
    stripeEndpointId: endpoint.id,
    sealedSecret: encryptSecret(endpoint.secret!, endpointSecretContext(PLATFORM)),
  };
  const saved = current
    ? await db.update(stripeWebhookEndpoints).set(row).where(eq(stripeWebhookEndpoints.stripeEndpointId, current.stripeEndpointId)).returning()
    : await db.insert(stripeWebhookEndpoints).values(row).onConflictDoNothing().returning();
  if (saved.length === 0) {
    await stripe.webhookEndpoints.del(endpoint.id);
    return 'kept';
  }
  if (current)
    await stripe.webhookEndpoints
      .del(current.stripeEndpointId)
      .catch((error: unknown) => log.warn({ err: error }, 'could not delete the previous Stripe webhook endpoint'));
  secretCache = undefined;
  log.info({ stripeEndpointId: endpoint.id, url }, 'registered the Stripe webhook endpoint');
  return 'registered';
}

let secretCache: { secret: string; at: number } | undefined;

export function forgetWebhookSecret() {
  secretCache = undefined;
}

/** The secret Stripe signs the platform connection's events with: the setting, else the registered endpoint's. */
export async function platformWebhookSecret(db: Database): Promise<string | undefined> {
  if (config.processor.stripe.webhookSecret) return config.processor.stripe.webhookSecret;
  if (secretCache && Date.now() - secretCache.at < 60_000) return secretCache.secret;
  const [row] = await db.select().from(stripeWebhookEndpoints).where(eq(stripeWebhookEndpoints.connection, PLATFORM));
  if (!row) return undefined;
  secretCache = { secret: decryptSecret(row.sealedSecret, endpointSecretContext(PLATFORM)), at: Date.now() };
  return secretCache.secret;
}

/** Where Stripe sends a seller connection's events. */
export function connectionWebhookUrl(connectionId: string): string {
  return `${config.publicUrl}${STRIPE_WEBHOOK_PATH}/${connectionId}`;
}

/** Registers a seller connection's endpoint at their Stripe account (a network call: no transaction open). */
export async function registerConnectionEndpoint(stripe: Stripe, connectionId: string): Promise<{ stripeEndpointId: string; secret: string; url: string }> {
  const url = connectionWebhookUrl(connectionId);
  const endpoint = await stripe.webhookEndpoints.create(
    { url, enabled_events: STRIPE_EVENTS, description: 'Paybase (registered when this account was connected)', metadata: { paybase_connection: connectionId } },
    { idempotencyKey: `webhook-endpoint:${connectionId}` },
  );
  return { stripeEndpointId: endpoint.id, secret: endpoint.secret!, url };
}

/** The sealed secret of an endpoint row is bound to its connection. */
export const endpointSecretContext = (connection: string) => `stripe-endpoint:${connection}`;

/** The secret Stripe signs a seller connection's events with; undefined once disconnected (its endpoint row is gone). */
export async function connectionWebhookSecret(db: Database, connection: string): Promise<string | undefined> {
  const [row] = await db.select().from(stripeWebhookEndpoints).where(eq(stripeWebhookEndpoints.connection, connection));
  return row ? decryptSecret(row.sealedSecret, endpointSecretContext(connection)) : undefined;
}
