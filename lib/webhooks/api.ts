import { z } from 'zod';
import { defineOperation } from '../http/operation';
import { listQuery, pageOf } from '../http/list';
import { BooleanQuery, idParam } from '../http/schemas';
import {
  CreateWebhookEndpointBody,
  DELIVERY_STATUSES,
  DeletedWebhookEndpointResponse,
  EventTypeName,
  RetryFailedDeliveriesBody,
  RetryFailedDeliveriesResponse,
  TestWebhookEndpointBody,
  UpdateWebhookEndpointBody,
  WebhookDeliveryResponse,
  WebhookDeliveryWithAttemptsResponse,
  WebhookEndpointResponse,
  WebhookEndpointWithSecretResponse,
  WebhookEventResponse,
} from './schemas';

const EndpointParams = idParam('endpointId', 'we');
const EventParams = idParam('eventId', 'evt');
const DeliveryParams = idParam('deliveryId', 'wda');

// Create and RotateSecret answer with a secret, so they take no Idempotency-Key: a stored
// replay would keep the secret in plain text for 24 hours (DESIGN 4.10).

export const createWebhookEndpointOperation = defineOperation({
  id: 'createWebhookEndpoint',
  method: 'POST',
  path: '/api/WebhookEndpoint',
  tag: 'Webhooks',
  summary: 'Register a webhook endpoint',
  description:
    'The URL must be a public http(s) address (loopback, private, link-local and metadata addresses are refused). `events` lists event types or `*`. The response carries `signingSecret` — the only time it is shown.',
  scope: 'webhooks:write',
  body: CreateWebhookEndpointBody,
  response: WebhookEndpointWithSecretResponse,
  successStatus: 201,
});

export const listWebhookEndpointsOperation = defineOperation({
  id: 'listWebhookEndpoints',
  method: 'GET',
  path: '/api/WebhookEndpoint',
  tag: 'Webhooks',
  summary: 'List webhook endpoints',
  scope: 'webhooks:read',
  query: listQuery(['createdAt'], { enabled: BooleanQuery.optional() }),
  response: pageOf(WebhookEndpointResponse),
});

export const getWebhookEndpointOperation = defineOperation({
  id: 'getWebhookEndpoint',
  method: 'GET',
  path: '/api/WebhookEndpoint/{endpointId}',
  tag: 'Webhooks',
  summary: 'Retrieve a webhook endpoint',
  scope: 'webhooks:read',
  params: EndpointParams,
  response: WebhookEndpointResponse,
});

export const updateWebhookEndpointOperation = defineOperation({
  id: 'updateWebhookEndpoint',
  method: 'PUT',
  path: '/api/WebhookEndpoint/{endpointId}',
  tag: 'Webhooks',
  summary: 'Update a webhook endpoint',
  description: 'Fields left out keep their value. `enabled: true` re-enables an endpoint that was disabled, manually or automatically.',
  scope: 'webhooks:write',
  params: EndpointParams,
  body: UpdateWebhookEndpointBody,
  response: WebhookEndpointResponse,
});

export const deleteWebhookEndpointOperation = defineOperation({
  id: 'deleteWebhookEndpoint',
  method: 'DELETE',
  path: '/api/WebhookEndpoint/{endpointId}',
  tag: 'Webhooks',
  summary: 'Delete a webhook endpoint',
  description: 'Deletes the endpoint and its delivery history; queued attempts are dropped. Events stay in the event history.',
  scope: 'webhooks:write',
  params: EndpointParams,
  response: DeletedWebhookEndpointResponse,
});

export const rotateWebhookEndpointSecretOperation = defineOperation({
  id: 'rotateWebhookEndpointSecret',
  method: 'POST',
  path: '/api/WebhookEndpoint/{endpointId}/RotateSecret',
  tag: 'Webhooks',
  summary: "Rotate an endpoint's signing secret",
  description:
    'Returns the new `signingSecret` once. For the next 24 hours deliveries carry two `v1=` signatures, one per live secret, so receivers can switch without missing a delivery.',
  scope: 'webhooks:write',
  params: EndpointParams,
  response: WebhookEndpointWithSecretResponse,
});

export const retryFailedWebhookDeliveriesOperation = defineOperation({
  id: 'retryFailedWebhookDeliveries',
  method: 'POST',
  path: '/api/WebhookEndpoint/{endpointId}/RetryFailedDeliveries',
  tag: 'Webhooks',
  summary: "Resend an endpoint's failed and dead deliveries",
  description:
    'Queues one more attempt for every `failed` or `dead` delivery of the endpoint created in [since, until], and delivers the events of the window the endpoint subscribes to but never received (raised while it was disabled), oldest first, up to 1,000 of each per call. The endpoint must be enabled.',
  scope: 'webhooks:write',
  params: EndpointParams,
  body: RetryFailedDeliveriesBody,
  response: RetryFailedDeliveriesResponse,
  successStatus: 202,
  idempotency: 'required',
  answers: { 409: 'INVALID_STATE: the endpoint is disabled; enable it first.' },
});

export const listWebhookEventsOperation = defineOperation({
  id: 'listWebhookEvents',
  method: 'GET',
  path: '/api/WebhookEvent',
  tag: 'Webhooks',
  summary: 'List events',
  description: 'The event history: every event, whether or not an endpoint received it. Each item is the body a delivery sends.',
  scope: 'webhooks:read',
  query: listQuery(['createdAt'], {
    type: EventTypeName.optional(),
    test: BooleanQuery.optional().meta({ description: '`true`: only test events (`data.test`); `false`: only real ones.' }),
  }),
  response: pageOf(WebhookEventResponse),
});

export const getWebhookEventOperation = defineOperation({
  id: 'getWebhookEvent',
  method: 'GET',
  path: '/api/WebhookEvent/{eventId}',
  tag: 'Webhooks',
  summary: 'Retrieve an event',
  scope: 'webhooks:read',
  params: EventParams,
  response: WebhookEventResponse,
});

export const listWebhookDeliveriesOperation = defineOperation({
  id: 'listWebhookDeliveries',
  method: 'GET',
  path: '/api/WebhookDelivery',
  tag: 'Webhooks',
  summary: 'List deliveries',
  description: 'The delivery history: one delivery per event and subscribed endpoint.',
  scope: 'webhooks:read',
  query: listQuery(['createdAt'], {
    status: z.enum(DELIVERY_STATUSES).optional(),
    endpointId: z.string().min(1).optional(),
    eventId: z.string().min(1).optional(),
    type: EventTypeName.optional(),
  }),
  response: pageOf(WebhookDeliveryResponse),
});

export const getWebhookDeliveryOperation = defineOperation({
  id: 'getWebhookDelivery',
  method: 'GET',
  path: '/api/WebhookDelivery/{deliveryId}',
  tag: 'Webhooks',
  summary: 'Retrieve a delivery with every attempt',
  description: 'Each attempt shows its time, duration, request headers, response status, the first 4 KiB of the response body and any error.',
  scope: 'webhooks:read',
  params: DeliveryParams,
  response: WebhookDeliveryWithAttemptsResponse,
});

export const retryWebhookDeliveryOperation = defineOperation({
  id: 'retryWebhookDelivery',
  method: 'POST',
  path: '/api/WebhookDelivery/{deliveryId}/Retry',
  tag: 'Webhooks',
  summary: 'Resend one delivery',
  description:
    'Queues one more attempt now, whatever the delivery state (also `delivered` and `dead`), with a fresh timestamp and signature over the same body. The automatic retry schedule is unchanged.',
  scope: 'webhooks:write',
  params: DeliveryParams,
  response: WebhookDeliveryResponse,
  successStatus: 202,
  idempotency: 'required',
});

export const testWebhookEndpointOperation = defineOperation({
  id: 'testWebhookEndpoint',
  method: 'POST',
  path: '/api/WebhookEndpoint/{endpointId}/Test',
  tag: 'Webhooks',
  summary: 'Send a test event to an endpoint',
  description:
    'Records an event of the chosen `type` with sample data (`data.test` is true) and delivers it to this endpoint only, as a normal signed delivery with retries, visible in the event and delivery history. The endpoint must be enabled; it need not subscribe to the type. Answers 202 with the delivery.',
  scope: 'webhooks:write',
  params: EndpointParams,
  body: TestWebhookEndpointBody,
  response: WebhookDeliveryResponse,
  successStatus: 202,
  idempotency: 'optional',
});
