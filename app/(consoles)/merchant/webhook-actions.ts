'use server';

import { redirect } from 'next/navigation';
import { revalidatePath } from 'next/cache';
import { getDb } from '@/lib/db/client';
import { ApiError, invalidField } from '@/lib/errors';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  findWebhookEndpointRow,
  rotateWebhookEndpointSecret,
  updateWebhookEndpoint,
} from '@/lib/webhooks/endpoints';
import { retryFailedWebhookDeliveries, retryWebhookDelivery } from '@/lib/webhooks/deliveries';
import { CreateWebhookEndpointBody, RetryFailedDeliveriesBody, TestWebhookEndpointBody } from '@/lib/webhooks/schemas';
import { sendTestWebhookEvent } from '@/lib/webhooks/test-events';
import { sellerAccountId } from './session';
import { field, formAction, type FormState } from '@/lib/server/web/form-state';
import { parseForm } from '@/lib/server/web/parse-form';
import { inTransaction, runConsoleOnce } from '@/lib/server/web/console-once';
import { now } from '@/lib/clock';

// The seller's webhook actions: each re-checks the session, takes the seller from it (never from
// the form) and calls the same domain function as the developer API route of the same operation.

const WEBHOOKS = '/merchant/webhooks';

export async function createWebhookEndpointAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('developers:write');
    const chosen = form.getAll('events').filter((value): value is string => typeof value === 'string');
    if (chosen.length === 0) throw invalidField('events', 'Choose at least one event type, or all events.');
    const body = parseForm(CreateWebhookEndpointBody, {
      url: field(form, 'url'),
      // "All events" stands alone: the other boxes are only a preview of what it includes.
      events: chosen.includes('*') ? ['*'] : chosen,
      description: field(form, 'description') || null,
    });
    const endpoint = await getDb().transaction((tx) => createWebhookEndpoint(tx, merchantId, body));
    revalidatePath(WEBHOOKS);
    // The secret goes to this one answer and nowhere else (not the page, not a cookie).
    return { result: { id: endpoint.id, url: endpoint.url, signingSecret: endpoint.signingSecret } };
  });
}

export async function rotateWebhookSecretAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('developers:write');
    const endpointId = field(form, 'endpointId');
    const seenPrefix = field(form, 'secretPrefix');
    const rotated = await getDb().transaction(async (tx) => {
      // The form names the secret it was shown with: a second submit of the same form (a double
      // click, a resubmitted POST) finds it already replaced and stops, instead of rotating again
      // and cutting off the secret the receiver still uses.
      const current = await findWebhookEndpointRow(tx, merchantId, endpointId, { forUpdate: true });
      if (current.secretPrefix !== seenPrefix) {
        throw new ApiError('CONFLICT', 'The secret was rotated a moment ago, so it was not rotated again. Reload the page to see the current secret prefix.');
      }
      return rotateWebhookEndpointSecret(tx, merchantId, endpointId);
    });
    revalidatePath(`${WEBHOOKS}/${endpointId}`);
    return { result: { signingSecret: rotated.signingSecret, previousSecretExpiresAt: rotated.previousSecretExpiresAt } };
  });
}

export async function setWebhookEndpointEnabledAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('developers:write');
    const endpointId = field(form, 'endpointId');
    const enabled = field(form, 'enabled') === 'true';
    await getDb().transaction((tx) => updateWebhookEndpoint(tx, merchantId, endpointId, { enabled }));
    revalidatePath(WEBHOOKS, 'layout');
    return {
      notice: enabled
        ? 'Endpoint enabled. New events are sent to it again; recover what it missed below.'
        : 'Endpoint disabled. No new events are sent to it until you enable it.',
    };
  });
}

export async function deleteWebhookEndpointAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('developers:write');
    await getDb().transaction((tx) => deleteWebhookEndpoint(tx, merchantId, field(form, 'endpointId')));
    revalidatePath(WEBHOOKS, 'layout');
    redirect(`${WEBHOOKS}?deleted=1`);
  });
}

/** `datetime-local` gives minutes without a zone; the console shows and takes UTC. */
function utcInput(value: string): string {
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? `${value}:00Z` : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(value) ? `${value}Z` : value;
}

export async function recoverFailedDeliveriesAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('developers:write');
    const endpointId = field(form, 'endpointId');
    const since = field(form, 'since');
    if (!since) throw invalidField('since', 'Enter the time to recover from (UTC).');
    const body = parseForm(RetryFailedDeliveriesBody, { since: utcInput(since) });
    if (body.since > now()) throw invalidField('since', 'Choose a time in the past.');
    const outcome = await runConsoleOnce(
      getDb(),
      {
        merchantId,
        key: field(form, 'formKey'),
        action: `/api/WebhookEndpoint/${endpointId}/RetryFailedDeliveries`,
        body: { since: body.since.toISOString() },
      },
      inTransaction((tx) => retryFailedWebhookDeliveries(tx, merchantId, endpointId, body)),
    );
    revalidatePath(`${WEBHOOKS}/${endpointId}`);
    const { requeued, hasMore } = outcome.result;
    const what =
      requeued === 0
        ? 'No failed or dead deliveries since then: nothing to resend.'
        : `${requeued} failed or dead ${requeued === 1 ? 'delivery' : 'deliveries'} queued for another attempt.`;
    return {
      notice: `${outcome.replayed ? 'Already done (the form was sent twice): ' : ''}${what}${hasMore ? ' More remain: recover again from a later time.' : ''}`,
    };
  });
}

export async function retryWebhookDeliveryAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('developers:write');
    const deliveryId = field(form, 'deliveryId');
    const outcome = await runConsoleOnce(
      getDb(),
      { merchantId, key: field(form, 'formKey'), action: `/api/WebhookDelivery/${deliveryId}/Retry`, body: {} },
      inTransaction((tx) => retryWebhookDelivery(tx, merchantId, deliveryId)),
    );
    revalidatePath(`${WEBHOOKS}/deliveries/${deliveryId}`);
    return {
      notice: outcome.replayed
        ? 'This retry was already queued (the form was sent twice); it is sent once.'
        : 'Retry queued. The new attempt appears below within a few seconds.',
      result: { deliveryId, queuedAt: new Date().toISOString() },
    };
  });
}

/** Developers → Webhooks → endpoint, "Send test event": POST /api/WebhookEndpoint/{id}/Test's domain function. */
export async function sendTestWebhookEventAction(_: FormState, form: FormData): Promise<FormState> {
  return formAction(async () => {
    const merchantId = await sellerAccountId('developers:write');
    const endpointId = field(form, 'endpointId');
    const body = parseForm(TestWebhookEndpointBody, { type: field(form, 'type') });
    const outcome = await runConsoleOnce(
      getDb(),
      { merchantId, key: field(form, 'formKey'), action: `/api/WebhookEndpoint/${endpointId}/Test`, body },
      inTransaction((tx) => sendTestWebhookEvent(tx, merchantId, endpointId, body)),
    );
    revalidatePath(`${WEBHOOKS}/${endpointId}`);
    return {
      notice: outcome.replayed
        ? 'This test event was already sent (the form was sent twice); it is sent once.'
        : `Test ${body.type} event sent. Its delivery appears under Deliveries within a few seconds; the event log marks it Test.`,
      result: { deliveryId: outcome.result.id, eventId: outcome.result.eventId },
    };
  });
}
