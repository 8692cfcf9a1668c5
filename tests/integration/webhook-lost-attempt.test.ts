import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call as callApi } from '../helpers/api';
import { startServer, SUITE_SERVER_ENV, type RunningServer } from '../setup/server';
import { WEBHOOK_TEST_ENV } from '../setup/start-server';
import { eventually, startReceiver, type Receiver } from '../helpers/webhook-receiver';

/**
 * An attempt cut off by a crash is sent again once its lease runs out (at-least-once). The
 * receiver then sees the delivery twice, and so must the delivery's history: the attempt whose
 * outcome was never recorded is an attempt row of its own.
 */
let receiver: Receiver;
let server: RunningServer | undefined;

beforeAll(async () => {
  // The first request is answered after a second: the server is killed while it waits.
  receiver = await startReceiver((_, index) => (index === 0 ? { status: 200, delayMs: 1_000 } : { status: 200 }));
});
afterAll(async () => {
  await server?.stop();
  await receiver.close();
});

const ENV = { ...WEBHOOK_TEST_ENV, ...SUITE_SERVER_ENV };
const call = (method: string, path: string, key: string, body?: unknown) => callApi(method, path, { key, body, baseUrl: server!.baseUrl });

describe('an attempt whose dispatcher died', () => {
  it('is in the delivery history as an attempt without an outcome, before the repeat', async () => {
    server = await startServer({ env: ENV });
    const dataDir = server.dataDir;
    const key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
    const endpoint = await call('POST', '/api/WebhookEndpoint', key, { url: `${receiver.url}/lost`, events: ['product.created'] });
    expect(endpoint.status).toBe(201);
    expect((await call('POST', '/api/Product', key, { name: 'Sent twice' })).status).toBe(201);

    await receiver.waitFor((requests) => requests.length === 1);
    await server.kill();
    server = await startServer({ env: ENV, dataDir });

    // On a loaded machine a repeat may time out and arrive once more before the history is read.
    const [first, second] = await receiver.waitFor((requests) => requests.length >= 2, 60_000);
    expect(second!.headers['x-service-delivery-id']).toBe(first!.headers['x-service-delivery-id']);
    const deliveryId = first!.headers['x-service-delivery-id'] as string;
    const delivery = await eventually(
      async () => {
        const read = await call('GET', `/api/WebhookDelivery/${deliveryId}`, key);
        return read.body.status === 'delivered' && read.body;
      },
      30_000,
      'the repeat recorded',
    );
    // The lost attempt first, the success last; on a loaded machine an attempt in between may time
    // out and be tried again, and each such arrival is in the history too.
    const attempts = delivery.attempts as {
      trigger: string;
      succeeded: boolean;
      responseStatus: number | null;
      responseBody: string | null;
      error: string | null;
    }[];
    expect(attempts.length, JSON.stringify(attempts, null, 1)).toBeGreaterThanOrEqual(2);
    expect(attempts[0]).toMatchObject({ trigger: 'automatic', succeeded: false, responseStatus: null, responseBody: null });
    expect(attempts[0]!.error).toMatch(/no outcome was recorded/i);
    expect(attempts.at(-1)).toMatchObject({ trigger: 'automatic', succeeded: true, responseStatus: 200 });
    expect(attempts.every((attempt) => attempt.trigger === 'automatic')).toBe(true);
    expect(delivery.attemptCount).toBe(attempts.length);
    expect(receiver.received.filter((request) => request.headers['x-service-delivery-id'] === deliveryId)).toHaveLength(attempts.length);
  }, 300_000);
});
