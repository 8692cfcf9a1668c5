import { and, eq, isNull } from 'drizzle-orm';
import Stripe from 'stripe';
import { z } from 'zod';
import { recordAudit } from '../audit/audit-log';
import type { Database } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { processorConnections, stripeWebhookEndpoints } from '../db/schema';
import { ApiError, invalidField } from '../errors';
import { newId } from '../ids';
import { log } from '../log';
import { activeConnectionOf, connectionKeyContext } from '../payments/processor';
import { stripeClient, stripeModeOf } from '../payments/processor/stripe';
import { decryptSecret, encryptSecret } from '../secret-box';
import { endpointSecretContext, registerConnectionEndpoint } from './stripe-webhook-endpoint';

/**
 * A seller's own Stripe account (docs/processors.md, "Connecting a seller's Stripe account"):
 * Settings → Payments, Owner and Admin only. The key is checked with one call, sealed, and the
 * account's webhook endpoint registered through the API; from then on the seller's new payments
 * go to their account, while those made before stay with the account that made them.
 */
export const StripeConnectionBody = z.object({
  secretKey: z
    .string()
    .trim()
    .regex(/^(?:sk|rk)_(?:test|live)_[A-Za-z0-9]{8,}$/, 'A Stripe secret key (sk_test_…, sk_live_…) or restricted key (rk_…).'),
  publishableKey: z
    .string()
    .trim()
    .regex(/^pk_(?:test|live)_[A-Za-z0-9]{8,}$/, 'A Stripe publishable key (pk_test_… or pk_live_…).'),
});

/** What the console shows of a connection: never its key. */
export interface StripeConnectionView {
  id: string;
  mode: 'test' | 'live';
  accountReference: string;
  accountName: string | null;
  publishableKey: string;
  webhookUrl: string | null;
  connectedAt: Date;
  dashboardUrl: string;
}

export async function sellerStripeConnection(db: Database, merchantId: string): Promise<StripeConnectionView | undefined> {
  const row = await activeConnectionOf(db, merchantId);
  if (!row) return undefined;
  const [endpoint] = await db.select({ url: stripeWebhookEndpoints.url }).from(stripeWebhookEndpoints).where(eq(stripeWebhookEndpoints.connection, row.id));
  return {
    id: row.id,
    mode: row.mode,
    accountReference: row.accountReference,
    accountName: row.accountName,
    publishableKey: row.publishableKey,
    webhookUrl: endpoint?.url ?? null,
    connectedAt: row.createdAt,
    dashboardUrl: `https://dashboard.stripe.com/${row.mode === 'test' ? 'test/' : ''}dashboard`,
  };
}

export async function connectStripeAccount(db: Database, merchantId: string, userId: string, body: z.output<typeof StripeConnectionBody>) {
  const mode = stripeModeOf(body.secretKey);
  if (!body.publishableKey.startsWith(`pk_${mode}_`)) {
    throw invalidField('publishableKey', `The secret key is a ${mode} key: the publishable key must be one too (pk_${mode}_…).`);
  }
  if (await activeConnectionOf(db, merchantId)) {
    throw new ApiError('CONFLICT', 'A Stripe account is connected already: disconnect it first.');
  }
  const stripe = stripeClient(body.secretKey);
  const account = await checkKey(stripe);
  const id = newId('processorConnection');
  const endpoint = await registerConnectionEndpoint(stripe, id).catch((error: unknown) => {
    throw keyRefused(error, 'register the webhook endpoint');
  });
  try {
    await db.transaction(async (tx) => {
      await tx.insert(processorConnections).values({
        id,
        merchantId,
        processor: 'stripe',
        mode,
        accountReference: account.id,
        accountName: account.settings?.dashboard?.display_name ?? account.business_profile?.name ?? null,
        sealedSecretKey: encryptSecret(body.secretKey, connectionKeyContext(id)),
        publishableKey: body.publishableKey,
        connectedBy: userId,
      });
      await tx.insert(stripeWebhookEndpoints).values({
        connection: id,
        mode,
        url: endpoint.url,
        stripeEndpointId: endpoint.stripeEndpointId,
        sealedSecret: encryptSecret(endpoint.secret, endpointSecretContext(id)),
      });
      await recordAudit(tx, {
        merchantId,
        action: 'stripe.connected',
        target: { kind: 'processor_connection', id },
        metadata: { account: account.id, mode },
      });
    });
  } catch (error) {
    await deleteEndpoint(stripe, endpoint.stripeEndpointId);
    if (isUniqueViolation(error)) throw new ApiError('CONFLICT', 'A Stripe account is connected already: disconnect it first.');
    throw error;
  }
  log.info({ merchantId, connection: id, account: account.id, mode }, 'seller connected a Stripe account');
  return id;
}

/**
 * New payments go through the platform again; the key is wiped and the endpoint deleted at
 * Stripe. Payments made through the connection keep naming it: refunds of them are refused
 * (refund them in Stripe's dashboard).
 */
export async function disconnectStripeAccount(db: Database, merchantId: string): Promise<void> {
  const row = await activeConnectionOf(db, merchantId);
  if (!row?.sealedSecretKey) throw new ApiError('NOT_FOUND', 'No Stripe account is connected.');
  // Read before the key is wiped: the endpoint is deleted with it once the change is committed.
  const key = decryptSecret(row.sealedSecretKey, connectionKeyContext(row.id));
  const removed = await db.transaction(async (tx) => {
    const [done] = await tx
      .update(processorConnections)
      .set({ disconnectedAt: new Date(), sealedSecretKey: null })
      .where(and(eq(processorConnections.id, row.id), isNull(processorConnections.disconnectedAt)))
      .returning({ id: processorConnections.id });
    if (!done) return undefined;
    const [endpoint] = await tx
      .delete(stripeWebhookEndpoints)
      .where(eq(stripeWebhookEndpoints.connection, row.id))
      .returning({ stripeEndpointId: stripeWebhookEndpoints.stripeEndpointId });
    await recordAudit(tx, {
      merchantId,
      action: 'stripe.disconnected',
      target: { kind: 'processor_connection', id: row.id },
      metadata: { account: row.accountReference, mode: row.mode },
    });
    return endpoint ?? null;
  });
  if (removed) await deleteEndpoint(stripeClient(key), removed.stripeEndpointId);
}

async function checkKey(stripe: Stripe): Promise<Stripe.Account> {
  try {
    return await stripe.accounts.retrieveCurrent();
  } catch (error) {
    throw keyRefused(error, 'read the account');
  }
}

function keyRefused(error: unknown, what: string): Error {
  if (error instanceof Stripe.errors.StripeAuthenticationError) return invalidField('secretKey', `Stripe did not accept this key: ${error.message}`);
  if (error instanceof Stripe.errors.StripePermissionError) {
    return invalidField('secretKey', `This restricted key may not ${what} (${error.message}). docs/processors.md lists the permissions it needs.`);
  }
  if (error instanceof Stripe.errors.StripeError) {
    return new ApiError('SERVICE_UNAVAILABLE', `Stripe could not ${what}: ${error.message}. Try again in a moment.`, { retryAfterSeconds: 30 });
  }
  return error instanceof Error ? error : new Error(String(error));
}

async function deleteEndpoint(stripe: Stripe, stripeEndpointId: string): Promise<void> {
  await stripe.webhookEndpoints
    .del(stripeEndpointId)
    .catch((error: unknown) => log.warn({ err: error, stripeEndpointId }, 'could not delete a Stripe webhook endpoint; delete it in the dashboard'));
}
