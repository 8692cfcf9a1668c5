import crypto from 'node:crypto';
import { and, asc, eq, isNotNull, lt, or, inArray } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { webhookEndpoints } from '../db/schema';
import { paginate, mapPage, type PageRequest } from '../db/paginate';
import { newId } from '../ids';
import { now } from '../clock';
import { config } from '../config';
import { decryptSecret, encryptSecret } from '../secret-box';
import { invalidField, notFound } from '../errors';
import { recordAudit } from '../audit/audit-log';
import { checkUrlShape, resolveSafeAddress, UnsafeUrlError } from './url-guard';
import type { CreateWebhookEndpointBody, UpdateWebhookEndpointBody } from './schemas';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

/** The old secret keeps signing this long after a rotation (both `v1`s are sent meanwhile). */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;
const SECRET_PREFIX_LENGTH = 'whsec_'.length + 6;

export function toWebhookEndpointResponse(row: WebhookEndpointRow) {
  const previousLive = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now();
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    status: !row.enabled ? ('disabled' as const) : row.failingSince ? ('failing' as const) : ('enabled' as const),
    disabledReason: row.enabled ? null : (row.disabledReason ?? 'manual'),
    disabledAt: row.enabled ? null : (row.disabledAt?.toISOString() ?? null),
    failingSince: row.failingSince?.toISOString() ?? null,
    secretPrefix: row.secretPrefix,
    previousSecretExpiresAt: previousLive ? row.previousSecretExpiresAt!.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * `whsec_` and 24 random bytes in standard base64: Standard Webhooks receivers take the key as
 * the base64 after the prefix (their libraries decode the standard alphabet only).
 */
function newSigningSecret(): string {
  return `whsec_${crypto.randomBytes(24).toString('base64')}`;
}

/** Registration-time SSRF check; the same check runs again at every connection (send.ts). */
export async function assertReceiverUrl(url: string, fieldPath = 'url', allowPrivate = config.webhooks.allowPrivateUrls): Promise<void> {
  try {
    await resolveSafeAddress(checkUrlShape(url), { allowPrivate });
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw invalidField(fieldPath, error.message);
    throw error;
  }
}

/**
 * `allowPrivateUrl` is for the development sample data only, whose receiver it runs itself on
 * loopback (lib/server/sample-data/sample-webhooks.ts); every seller request keeps the configured check.
 */
export async function createWebhookEndpoint(
  tx: Db,
  merchantId: string,
  input: z.output<typeof CreateWebhookEndpointBody>,
  options: { allowPrivateUrl?: boolean } = {},
) {
  await assertReceiverUrl(input.url, 'url', options.allowPrivateUrl || config.webhooks.allowPrivateUrls);
  const id = newId('webhookEndpoint');
  const secret = newSigningSecret();
  const at = now();
  const [row] = await tx
    .insert(webhookEndpoints)
    .values({
      id,
      merchantId,
      url: input.url,
      description: input.description ?? null,
      events: input.events,
      enabled: input.enabled,
      disabledReason: input.enabled ? null : 'manual',
      disabledAt: input.enabled ? null : at,
      secretCiphertext: encryptSecret(secret, id),
      secretPrefix: secret.slice(0, SECRET_PREFIX_LENGTH),
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  return { ...toWebhookEndpointResponse(row!), signingSecret: secret };
}

export async function findWebhookEndpointRow(db: Db, merchantId: string, endpointId: string, options: { forUpdate?: boolean } = {}) {
  const query = db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.merchantId, merchantId)));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('webhook endpoint', endpointId);
  return row;
}

export async function getWebhookEndpoint(db: Db, merchantId: string, endpointId: string) {
  return toWebhookEndpointResponse(await findWebhookEndpointRow(db, merchantId, endpointId));
}

export async function listWebhookEndpoints(db: Db, merchantId: string, query: PageRequest & { orderBy: 'createdAt'; enabled?: boolean }) {
  const page = await paginate(db, webhookEndpoints, {
    ...query,
    scope: [eq(webhookEndpoints.merchantId, merchantId)],
    where: [query.enabled === undefined ? undefined : eq(webhookEndpoints.enabled, query.enabled)],
    orderBy: [webhookEndpoints.createdAt, webhookEndpoints.id],
  });
  return mapPage(page, toWebhookEndpointResponse);
}

/**
 * Endpoints the seller must hear about (the console banner): those failing right now and those
 * the service disabled itself (410 Gone, or 5 days of failures), oldest first. A manual
 * disable is the seller's own choice and is not listed.
 */
export async function listWebhookEndpointsNeedingAttention(db: Db, merchantId: string, limit = 5) {
  const where = and(
    eq(webhookEndpoints.merchantId, merchantId),
    or(
      and(eq(webhookEndpoints.enabled, true), isNotNull(webhookEndpoints.failingSince)),
      and(eq(webhookEndpoints.enabled, false), inArray(webhookEndpoints.disabledReason, ['gone', 'failing'])),
    ),
  );
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(where)
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id))
    .limit(limit + 1);
  return { endpoints: rows.slice(0, limit).map(toWebhookEndpointResponse), hasMore: rows.length > limit };
}

export async function updateWebhookEndpoint(tx: Db, merchantId: string, endpointId: string, input: z.output<typeof UpdateWebhookEndpointBody>) {
  const current = await findWebhookEndpointRow(tx, merchantId, endpointId, { forUpdate: true });
  if (input.url !== undefined && input.url !== current.url) await assertReceiverUrl(input.url);
  const at = now();
  const changes: Partial<WebhookEndpointRow> = { updatedAt: at };
  if (input.url !== undefined) changes.url = input.url;
  if (input.events !== undefined) changes.events = input.events;
  if (input.description !== undefined) changes.description = input.description;
  if (input.enabled === true && !current.enabled) {
    // Re-enabling starts a fresh failure window; failed deliveries can then be recovered.
    Object.assign(changes, { enabled: true, disabledReason: null, disabledAt: null, failingSince: null });
  } else if (input.enabled === false && current.enabled) {
    Object.assign(changes, { enabled: false, disabledReason: 'manual', disabledAt: at });
  }
  const [row] = await tx.update(webhookEndpoints).set(changes).where(eq(webhookEndpoints.id, current.id)).returning();
  return toWebhookEndpointResponse(row!);
}

/** Deletes the endpoint with its delivery history; queued jobs find nothing left to send. */
export async function deleteWebhookEndpoint(tx: Db, merchantId: string, endpointId: string) {
  const current = await findWebhookEndpointRow(tx, merchantId, endpointId, { forUpdate: true });
  await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, current.id));
  return { id: current.id, deleted: true as const };
}

/**
 * A new secret signs from now on; the current one keeps signing beside it for 24 hours, so
 * receivers can switch without missing a delivery. A secret older than that is dropped.
 */
export async function rotateWebhookEndpointSecret(tx: Db, merchantId: string, endpointId: string) {
  const current = await findWebhookEndpointRow(tx, merchantId, endpointId, { forUpdate: true });
  const secret = newSigningSecret();
  const at = now();
  const [row] = await tx
    .update(webhookEndpoints)
    .set({
      secretCiphertext: encryptSecret(secret, current.id),
      secretPrefix: secret.slice(0, SECRET_PREFIX_LENGTH),
      previousSecretCiphertext: current.secretCiphertext,
      previousSecretExpiresAt: new Date(at.getTime() + ROTATION_OVERLAP_MS),
      updatedAt: at,
    })
    .where(eq(webhookEndpoints.id, current.id))
    .returning();
  await recordAudit(tx, {
    merchantId,
    action: 'webhook_endpoint.secret_rotated',
    target: { kind: 'webhook_endpoint', id: current.id },
    metadata: { url: current.url, previousSecretValidUntil: row!.previousSecretExpiresAt?.toISOString() ?? null },
  });
  return { ...toWebhookEndpointResponse(row!), signingSecret: secret };
}

/** Every secret that signs a delivery made now: the current one, then the previous while it overlaps. */
export function liveSigningSecrets(
  row: Pick<WebhookEndpointRow, 'id' | 'secretCiphertext' | 'previousSecretCiphertext' | 'previousSecretExpiresAt'>,
  at: Date = now(),
): string[] {
  const secrets = [decryptSecret(row.secretCiphertext, row.id)];
  if (row.previousSecretCiphertext && row.previousSecretExpiresAt && row.previousSecretExpiresAt > at) {
    secrets.push(decryptSecret(row.previousSecretCiphertext, row.id));
  }
  return secrets;
}

/** A rotated-out signing secret is dropped once its overlap has ended (it no longer signs anything). */
export async function dropExpiredPreviousSecrets(db: Db): Promise<number> {
  const rows = await db
    .update(webhookEndpoints)
    .set({ previousSecretCiphertext: null, previousSecretExpiresAt: null })
    .where(and(isNotNull(webhookEndpoints.previousSecretCiphertext), lt(webhookEndpoints.previousSecretExpiresAt, now())))
    .returning({ id: webhookEndpoints.id });
  return rows.length;
}
