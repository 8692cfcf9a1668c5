import { z } from 'zod';
import { EVENT_TYPES } from '../events/types';
import { EventSequence } from '../events/sequence';
import { DateTime, Timestamp } from '../http/schemas';

export const EventTypeName = z.enum(EVENT_TYPES);

const EventSubscription = z
  .array(z.union([z.literal('*'), EventTypeName]))
  .min(1)
  .max(EVENT_TYPES.length + 1)
  .transform((events) => [...new Set(events)])
  .meta({ description: 'Event type names to receive; `*` receives every type.', example: ['payment.succeeded', 'refund.succeeded'] });

const ReceiverUrl = z
  .string()
  .min(1)
  .max(2048)
  .meta({ description: 'Public http(s) address of your receiver.', example: 'https://example.com/webhooks/paybase' });

export const CreateWebhookEndpointBody = z.strictObject({
  url: ReceiverUrl,
  events: EventSubscription,
  description: z.string().max(500).nullable().optional(),
  enabled: z.boolean().default(true),
});

export const UpdateWebhookEndpointBody = z.strictObject({
  url: ReceiverUrl.optional(),
  events: EventSubscription.optional(),
  description: z.string().max(500).nullable().optional(),
  enabled: z.boolean().optional().meta({ description: 'false pauses deliveries; true re-enables an endpoint disabled for failures.' }),
});

export const WebhookEndpointResponse = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  status: z.enum(['enabled', 'failing', 'disabled']).meta({
    description: '`failing` while recent attempts fail (disabled after 5 days of failures); `disabled` when paused or disabled automatically.',
  }),
  disabledReason: z.enum(['manual', 'gone', 'failing']).nullable().meta({
    description: '`gone`: the receiver answered 410; `failing`: every attempt failed for 5 days; `manual`: you disabled it.',
  }),
  disabledAt: Timestamp.nullable(),
  failingSince: Timestamp.nullable(),
  secretPrefix: z.string(),
  previousSecretExpiresAt: Timestamp.nullable().meta({ description: 'Until then, deliveries also carry a v1 signature made with the previous secret.' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const WebhookEndpointWithSecretResponse = WebhookEndpointResponse.extend({
  signingSecret: z.string().meta({ description: 'Shown once; store it now. Later reads show only secretPrefix.' }),
});

export const DeletedWebhookEndpointResponse = z.object({ id: z.string(), deleted: z.literal(true) });

export const WebhookEventResponse = z.object({
  id: z.string(),
  apiVersion: z.string().meta({ description: 'The API version the event is rendered in, as in its deliveries (docs/changelog.md).' }),
  type: z.string(),
  sequence: EventSequence,
  createdAt: Timestamp,
  data: z.object({
    object: z.record(z.string(), z.unknown()),
    previousAttributes: z.record(z.string(), z.unknown()).optional(),
    test: z.boolean().optional().meta({ description: 'true on events sent by the Test endpoint.' }),
  }),
});

export const DELIVERY_STATUSES = ['pending', 'failed', 'delivered', 'dead'] as const;

export const WebhookDeliveryResponse = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  endpointId: z.string(),
  status: z.enum(DELIVERY_STATUSES).meta({
    description:
      '`pending` before the first attempt; `failed` when the last attempt failed and a retry is scheduled at nextAttemptAt; `delivered`; `dead` when retries are exhausted.',
  }),
  attemptCount: z.int().meta({ description: 'Automatic attempts made so far (at most 8).' }),
  nextAttemptAt: Timestamp.nullable(),
  lastAttemptAt: Timestamp.nullable(),
  lastResponseStatus: z.int().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: Timestamp.nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const WebhookAttemptResponse = z.object({
  trigger: z.enum(['automatic', 'manual', 'recover']),
  url: z.string(),
  startedAt: Timestamp,
  durationMs: z.int(),
  requestHeaders: z.record(z.string(), z.string()),
  responseStatus: z.int().nullable(),
  responseBody: z.string().nullable().meta({ description: 'The first 4 KiB of the response body.' }),
  error: z.string().nullable(),
  succeeded: z.boolean(),
});

export const WebhookDeliveryWithAttemptsResponse = WebhookDeliveryResponse.extend({
  attempts: z.array(WebhookAttemptResponse).meta({ description: 'Every attempt, oldest first.' }),
});

export const RetryFailedDeliveriesBody = z.strictObject({
  since: DateTime.meta({ description: 'Resend failed and dead deliveries created at or after this time.' }),
  until: DateTime.optional().meta({ description: 'Inclusive upper bound on creation time (default: now).' }),
});

export const TestWebhookEndpointBody = z.strictObject({
  type: EventTypeName.meta({ description: 'The event type to send; its sample data is in docs/webhooks.md.' }),
});

export const RetryFailedDeliveriesResponse = z.object({
  endpointId: z.string(),
  requeued: z.int().meta({ description: 'How many failed or dead deliveries were queued for another attempt.' }),
  missedEventsDelivered: z
    .int()
    .meta({ description: 'Events of the window the endpoint subscribes to but never received (raised while it was disabled), now delivered.' }),
  hasMore: z.boolean().meta({ description: `More matched than one call requeues (1,000); call again with since set after the last one.` }),
  deliveryIds: z.array(z.string()),
});
