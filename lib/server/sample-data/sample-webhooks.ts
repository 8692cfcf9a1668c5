import http from 'node:http';
import { getPool, type Database } from '../../db/client';
import { now } from '../../clock';
import { createWebhookEndpoint, liveSigningSecrets, updateWebhookEndpoint } from '../../webhooks/endpoints';
import { CreateWebhookEndpointBody } from '../../webhooks/schemas';
import { claimDueDeliveries } from '../../webhooks/claim';
import { eventBody } from '../../webhooks/deliveries';
import { deliveryHeaders } from '../../webhooks/attempt-request';
import { attemptLeaseMs } from '../../webhooks/policy';
import { recordAttemptResults, type AttemptResult } from '../../webhooks/record';
import { createWebhookAgent, sendWebhookRequest } from '../../webhooks/send';

const DISPATCHER_ID = 'sample-data';
const BATCH = 500;
const TIMEOUT_MS = 5_000;
/** Every this many requests the sample receiver answers 500, as a flaky backend would. */
const FLAKY_EVERY = 11;

const SAMPLE_EVENTS = ['payment.succeeded', 'payment.failed', 'refund.succeeded', 'subscription.created', 'subscription.canceled', 'billing_record.paid'];

/**
 * A webhook endpoint for the sample business, on a receiver the generator runs on loopback for
 * as long as it runs: it answers 200, a 500 now and then, and 503 during an outage the generator
 * switches on, so the delivery history holds retries that succeed, and deliveries that die. The
 * real dispatcher is not running yet (the generator walks the process clock), so `deliverDue`
 * claims, sends and records due deliveries with the dispatcher's own functions at each step of
 * simulated time.
 */
export async function startSampleWebhooks(db: Database, merchantId: string) {
  let requests = 0;
  let outage = false;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests += 1;
      if (outage) response.writeHead(503, { 'content-type': 'text/plain' }).end('sample receiver: down for maintenance');
      else if (requests % FLAKY_EVERY === 0) response.writeHead(500, { 'content-type': 'text/plain' }).end('sample receiver: database timeout');
      else response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const body = CreateWebhookEndpointBody.parse({
    url: `http://127.0.0.1:${port}/webhooks`,
    events: SAMPLE_EVENTS,
    description: 'Sample receiver: it answered only while the sample data was made. Point it at your backend, or delete it.',
  });
  const endpoint = await db.transaction((tx) => createWebhookEndpoint(tx, merchantId, body, { allowPrivateUrl: true }));
  const agent = createWebhookAgent({ allowPrivate: true, timeoutMs: TIMEOUT_MS });
  // A claim is one multi-statement query on a raw pool client (the dispatcher's way).
  const pool = getPool();

  async function deliverDue(): Promise<void> {
    for (;;) {
      const at = now();
      const claimed = await claimDueDeliveries(pool, {
        dispatcherId: DISPATCHER_ID,
        limit: BATCH,
        endpointConcurrency: BATCH,
        failingEndpointConcurrency: BATCH,
        leaseMs: attemptLeaseMs(),
        at,
      });
      const results: AttemptResult[] = await Promise.all(
        claimed.map(async (delivery) => {
          const secrets = liveSigningSecrets({ ...delivery, id: delivery.endpointId }, at);
          const payload = eventBody({
            id: delivery.eventId,
            type: delivery.eventType,
            sequence: delivery.eventSequence,
            createdAt: delivery.eventCreatedAt,
            data: delivery.eventData,
          });
          const headers = deliveryHeaders(delivery, secrets, payload, at);
          const outcome = await sendWebhookRequest({ url: delivery.url, headers, body: payload, timeoutMs: TIMEOUT_MS }, agent);
          return { delivery, headers, startedAt: at, finishedAt: now(), outcome };
        }),
      );
      await recordAttemptResults(db, DISPATCHER_ID, results);
      if (claimed.length < BATCH) return;
    }
  }

  return {
    deliverDue,
    setOutage(down: boolean) {
      outage = down;
    },
    /** The last due attempts, then the endpoint is disabled: its receiver stops with the generator. */
    async finish() {
      await deliverDue();
      await db.transaction((tx) => updateWebhookEndpoint(tx, merchantId, endpoint.id, { enabled: false }));
    },
    async stop() {
      await agent.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
