import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints, type WebhookAttemptTrigger } from '../db/schema';
import { now } from '../clock';
import { config } from '../config';
import { log } from '../log';
import { findMerchantById } from '../merchants/merchants';
import { sendEmail } from '../email/send-email';
import { liveSigningSecrets, type WebhookEndpointRow } from './endpoints';
import { eventBody } from './deliveries';
import { enqueueDeliveryAttempt } from './queue';
import { nextRetryDelayMs, disableAfterMs, attemptLeaseMs } from './policy';
import { sendWebhookRequest, type SendOutcome } from './send';
import { signatureHeader } from './signature';
import type { HostResolver } from './url-guard';

export type AttemptResult = 'sent' | 'skipped' | 'postponed';

export interface AttemptOptions {
  trigger: WebhookAttemptTrigger;
  /** The graphile worker running the attempt (for the log of a crashed attempt). */
  workerId?: string;
  resolver?: HostResolver;
}

/**
 * One attempt of one delivery: claim it (a lease, so two workers never send it at once), POST
 * it outside any transaction, then record the attempt and schedule what follows in one
 * transaction. A crash after the claim leaves a lease that the sweeper (sweep.ts) recovers.
 */
export async function attemptDelivery(db: Db, deliveryId: string, options: AttemptOptions): Promise<AttemptResult> {
  const claim = (await claimDeliveryFast(db, deliveryId, options)) ?? (await claimDelivery(db, deliveryId, options));
  if (claim.kind !== 'claimed') return claim.kind;
  const { delivery, endpoint, body } = claim;

  const startedAt = now();
  const secrets = liveSigningSecrets(endpoint, startedAt);
  // A fresh timestamp and signature on every attempt; the body never changes.
  const timestamp = Math.floor(startedAt.getTime() / 1000);
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'Paybase-Webhooks/1.0',
    'X-Service-Signature': signatureHeader(secrets, timestamp, body),
    'X-Service-Event-Id': delivery.eventId,
    'X-Service-Delivery-Id': delivery.id,
    'X-Service-Event-Type': delivery.eventType,
  };
  const outcome = await sendWebhookRequest({
    url: endpoint.url,
    headers,
    body,
    timeoutMs: config.webhooks.timeoutMs,
    allowPrivate: config.webhooks.allowPrivateUrls,
    resolver: options.resolver,
  });
  const attempt = { deliveryId, endpointUrl: endpoint.url, headers, startedAt, outcome, trigger: options.trigger };
  if (outcome.succeeded) await recordSuccess(db, attempt, { endpointWasFailing: endpoint.failingSince !== null });
  else await db.transaction((tx) => recordAttempt(tx, attempt));
  return 'sent';
}

type ClaimedEndpoint = Pick<WebhookEndpointRow, 'id' | 'url' | 'failingSince' | 'secretCiphertext' | 'previousSecretCiphertext' | 'previousSecretExpiresAt'>;
type ClaimedDelivery = Pick<typeof webhookDeliveries.$inferSelect, 'id' | 'endpointId' | 'eventId' | 'eventType' | 'attemptCount'>;

type Claim = { kind: 'skipped' | 'postponed' } | { kind: 'claimed'; delivery: ClaimedDelivery; endpoint: ClaimedEndpoint; body: string };

/**
 * The common case in one statement (database round trips are what an attempt mostly costs):
 * take the lease if no other attempt holds it and, for an automatic attempt, the delivery is
 * still due and its endpoint enabled. Anything else falls back to `claimDelivery`.
 */
async function claimDeliveryFast(db: Db, deliveryId: string, options: AttemptOptions): Promise<Claim | undefined> {
  const at = now();
  const automatic = options.trigger === 'automatic';
  const result = await db.execute<{
    id: string;
    endpoint_id: string;
    event_id: string;
    event_type: string;
    attempt_count: number;
    url: string;
    failing_since: Date | null;
    secret_ciphertext: string;
    previous_secret_ciphertext: string | null;
    previous_secret_expires_at: Date | null;
    event_created_at: Date;
    event_data: { object: Record<string, unknown> };
  }>(sql`
    update webhook_deliveries as d
    set lease_until = ${new Date(at.getTime() + attemptLeaseMs()).toISOString()}::timestamptz, lease_worker_id = ${options.workerId ?? null}
    from webhook_endpoints as e, events as ev
    where d.id = ${deliveryId} and e.id = d.endpoint_id and ev.id = d.event_id
      and (d.lease_until is null or d.lease_until <= ${at.toISOString()}::timestamptz)
      and (${!automatic} or (d.status in ('pending', 'failed') and e.enabled))
    returning d.id, d.endpoint_id, d.event_id, d.event_type, d.attempt_count, e.url, e.failing_since, e.secret_ciphertext,
      e.previous_secret_ciphertext, e.previous_secret_expires_at, ev.created_at as event_created_at, ev.data as event_data`);
  const row = result.rows[0];
  if (!row) return undefined;
  const toDate = (value: Date | string | null) => (value === null ? null : new Date(value));
  return {
    kind: 'claimed',
    delivery: { id: row.id, endpointId: row.endpoint_id, eventId: row.event_id, eventType: row.event_type, attemptCount: row.attempt_count },
    endpoint: {
      id: row.endpoint_id,
      url: row.url,
      failingSince: toDate(row.failing_since),
      secretCiphertext: row.secret_ciphertext,
      previousSecretCiphertext: row.previous_secret_ciphertext,
      previousSecretExpiresAt: toDate(row.previous_secret_expires_at),
    },
    body: eventBody({ id: row.event_id, type: row.event_type, createdAt: toDate(row.event_created_at)!, data: row.event_data }),
  };
}

/** A 2xx: the attempt, the delivered state and a cleared failure streak, in one statement. */
async function recordSuccess(db: Db, input: RecordInput, known: { endpointWasFailing: boolean }) {
  const at = now();
  const { outcome } = input;
  const automatic = input.trigger === 'automatic';
  await db.execute(sql`
    with attempt as (
      insert into webhook_attempts (delivery_id, trigger, url, request_headers, started_at, duration_ms, response_status, response_body, error, succeeded)
      select id, ${input.trigger}, ${input.endpointUrl}, ${JSON.stringify(input.headers)}::jsonb, ${input.startedAt.toISOString()}::timestamptz,
        ${outcome.durationMs}::int, ${outcome.status}::int, ${outcome.responseBody}, null, true
      from webhook_deliveries where id = ${input.deliveryId}
    ), endpoint as (
      update webhook_endpoints set failing_since = null, updated_at = ${at.toISOString()}::timestamptz
      where ${known.endpointWasFailing} and id = (select endpoint_id from webhook_deliveries where id = ${input.deliveryId}) and failing_since is not null
    )
    update webhook_deliveries
    set status = 'delivered', delivered_at = ${at.toISOString()}::timestamptz, next_attempt_at = null, last_error = null,
      attempt_count = attempt_count + ${automatic ? 1 : 0}, last_attempt_at = ${input.startedAt.toISOString()}::timestamptz,
      last_response_status = ${outcome.status}, lease_until = null, lease_worker_id = null, updated_at = ${at.toISOString()}::timestamptz
    where id = ${input.deliveryId}`);
}

async function claimDelivery(db: Db, deliveryId: string, options: AttemptOptions): Promise<Claim> {
  return db.transaction(async (tx): Promise<Claim> => {
    const [delivery] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId)).for('update');
    if (!delivery) return { kind: 'skipped' }; // its endpoint was deleted
    const at = now();
    const automatic = options.trigger === 'automatic';
    if (automatic && (delivery.status === 'delivered' || delivery.status === 'dead')) return { kind: 'skipped' };
    if (delivery.leaseUntil && delivery.leaseUntil > at) {
      // Another worker is sending it right now: come back when its lease ends, in case it dies.
      await enqueueDeliveryAttempt(tx, delivery, { trigger: options.trigger, runAt: new Date(delivery.leaseUntil.getTime() + 1000) });
      return { kind: 'postponed' };
    }
    const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId));
    if (!endpoint) return { kind: 'skipped' };
    if (automatic && !endpoint.enabled) {
      await tx
        .update(webhookDeliveries)
        .set({ status: 'dead', nextAttemptAt: null, lastError: 'The endpoint is disabled.', updatedAt: at })
        .where(eq(webhookDeliveries.id, delivery.id));
      return { kind: 'skipped' };
    }
    const [event] = await tx.select().from(events).where(eq(events.id, delivery.eventId));
    await tx
      .update(webhookDeliveries)
      .set({ leaseUntil: new Date(at.getTime() + attemptLeaseMs()), leaseWorkerId: options.workerId ?? null })
      .where(eq(webhookDeliveries.id, delivery.id));
    return { kind: 'claimed', delivery, endpoint, body: eventBody(event!) };
  });
}

interface RecordInput {
  deliveryId: string;
  endpointUrl: string;
  headers: Record<string, string>;
  startedAt: Date;
  outcome: SendOutcome;
  trigger: WebhookAttemptTrigger;
}

async function recordAttempt(tx: Db, input: RecordInput) {
  const { outcome, trigger } = input;
  const [delivery] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, input.deliveryId)).for('update');
  if (!delivery) return;
  const [endpoint] = await tx.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, delivery.endpointId)).for('update');
  if (!endpoint) return;
  await tx.insert(webhookAttempts).values({
    deliveryId: delivery.id,
    trigger,
    url: input.endpointUrl,
    requestHeaders: input.headers,
    startedAt: input.startedAt,
    durationMs: outcome.durationMs,
    responseStatus: outcome.status,
    responseBody: outcome.responseBody,
    error: outcome.error,
    succeeded: outcome.succeeded,
  });
  const at = now();
  const common = { lastAttemptAt: input.startedAt, lastResponseStatus: outcome.status, leaseUntil: null, leaseWorkerId: null, updatedAt: at };
  const automatic = trigger === 'automatic';
  const attemptCount = delivery.attemptCount + (automatic ? 1 : 0);

  if (outcome.succeeded) {
    await tx
      .update(webhookDeliveries)
      .set({ ...common, attemptCount, status: 'delivered', deliveredAt: at, nextAttemptAt: null, lastError: null })
      .where(eq(webhookDeliveries.id, delivery.id));
    if (endpoint.failingSince) {
      await tx.update(webhookEndpoints).set({ failingSince: null, updatedAt: at }).where(eq(webhookEndpoints.id, endpoint.id));
    }
    return;
  }

  const gone = outcome.status === 410;
  if (automatic) {
    const retryDelay = gone ? undefined : nextRetryDelayMs(attemptCount);
    if (retryDelay === undefined) {
      await tx
        .update(webhookDeliveries)
        .set({ ...common, attemptCount, status: 'dead', nextAttemptAt: null, lastError: outcome.error })
        .where(eq(webhookDeliveries.id, delivery.id));
    } else {
      const nextAttemptAt = new Date(at.getTime() + retryDelay);
      await tx
        .update(webhookDeliveries)
        .set({ ...common, attemptCount, status: 'failed', nextAttemptAt, lastError: outcome.error })
        .where(eq(webhookDeliveries.id, delivery.id));
      await enqueueDeliveryAttempt(tx, delivery, { runAt: nextAttemptAt });
    }
  } else {
    // A manual or recover attempt adds to the history; the delivery keeps its state and schedule.
    await tx.update(webhookDeliveries).set({ ...common, lastError: outcome.error }).where(eq(webhookDeliveries.id, delivery.id));
  }

  if (!endpoint.enabled) return;
  const failingSince = endpoint.failingSince ?? input.startedAt;
  if (gone) {
    await disableEndpoint(tx, endpoint, 'gone', at);
  } else if (at.getTime() - failingSince.getTime() >= disableAfterMs()) {
    await disableEndpoint(tx, endpoint, 'failing', at);
  } else if (!endpoint.failingSince) {
    await tx.update(webhookEndpoints).set({ failingSince, updatedAt: at }).where(eq(webhookEndpoints.id, endpoint.id));
  }
}

/**
 * Turns the endpoint off, stops its scheduled retries (they become dead, recoverable once it
 * is enabled again) and tells the seller by email; the console shows `disabledReason`.
 */
async function disableEndpoint(tx: Db, endpoint: WebhookEndpointRow, reason: 'gone' | 'failing', at: Date) {
  await tx
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: reason, disabledAt: at, failingSince: endpoint.failingSince ?? at, updatedAt: at })
    .where(eq(webhookEndpoints.id, endpoint.id));
  await tx
    .update(webhookDeliveries)
    .set({ status: 'dead', nextAttemptAt: null, updatedAt: at })
    .where(and(eq(webhookDeliveries.endpointId, endpoint.id), inArray(webhookDeliveries.status, ['pending', 'failed'])));
  log.warn({ endpointId: endpoint.id, merchantId: endpoint.merchantId, reason }, 'webhook endpoint disabled');
  const merchant = await findMerchantById(tx, endpoint.merchantId);
  if (!merchant) return;
  const why =
    reason === 'gone'
      ? 'it answered 410 Gone, which means the receiver no longer exists'
      : `every delivery attempt has failed since ${endpoint.failingSince?.toISOString() ?? at.toISOString()}`;
  await sendEmail(tx, {
    to: merchant.email,
    subject: `Webhook endpoint disabled: ${endpoint.url}`,
    text: [
      `Hello ${merchant.name},`,
      '',
      `We disabled your webhook endpoint ${endpoint.url} (${endpoint.id}) because ${why}.`,
      'No more events are sent to it until you enable it again in the console (Webhooks) or with',
      `PUT /api/WebhookEndpoint/${endpoint.id} {"enabled": true}. After that, POST`,
      `/api/WebhookEndpoint/${endpoint.id}/RetryFailedDeliveries resends what it missed.`,
    ].join('\n'),
    category: 'webhook.endpoint_disabled',
  });
}
