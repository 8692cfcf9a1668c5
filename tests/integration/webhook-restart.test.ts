import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../setup/server';
import { WEBHOOK_TEST_ENV } from '../setup/start-server';
import { eventually, startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { call } from '../helpers/api';

/**
 * A server of its own (not the shared one), killed with SIGKILL while an attempt is in flight
 * and started again on the same data directory.
 */
let receiver: Receiver;
let server: RunningServer | undefined;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await server?.stop();
  await receiver.close();
});

// Through `call()`, so every answer (also across the restart) is held to the OpenAPI document.
const api = (base: string, key: string, method: string, path: string, body?: unknown) => call(method, path, { key, body, baseUrl: base });

describe('webhook delivery across a crash', () => {
  it('delivers after the worker is killed mid-delivery and the server starts again', async () => {
    server = await startServer({ env: WEBHOOK_TEST_ENV });
    const dataDir = server.dataDir;
    const key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;

    // The first attempt hangs: the process is killed while it waits for the answer.
    receiver.setResponder((_request, index) => (index === 0 ? { hang: true } : { status: 200 }));
    const endpoint = await api(server.baseUrl, key, 'POST', '/api/WebhookEndpoint', { url: `${receiver.url}/crash`, events: ['product.created'] });
    expect(endpoint.status).toBe(201);
    const product = await api(server.baseUrl, key, 'POST', '/api/Product', { name: 'Survives a crash' });
    expect(product.status).toBe(201);
    await receiver.waitFor((requests) => requests.length === 1, 20_000);
    const deliveryId = receiver.received[0]!.headers['x-service-delivery-id'] as string;

    await server.kill();
    server = await startServer({ env: WEBHOOK_TEST_ENV, dataDir });

    await receiver
      .waitFor((requests) => requests.length >= 2, 60_000)
      .catch((error: Error) => {
        throw new Error(`${error.message}\nserver output:\n${server!.output().slice(-4000)}`);
      });
    const second = receiver.received[1]!;
    expect(second.headers['x-service-delivery-id']).toBe(deliveryId);
    expect(second.body).toBe(receiver.received[0]!.body);
    const delivery = await eventually(async () => {
      const d = (await api(server!.baseUrl, key, 'GET', `/api/WebhookDelivery/${deliveryId}`)).body;
      return d.status === 'delivered' && d;
    });
    // The killed attempt left no record (it never finished); the one after the restart did.
    expect(delivery.attempts.filter((a: { succeeded: boolean }) => a.succeeded)).toHaveLength(1);
    expect(JSON.parse(second.body).data.object.id).toBe(product.body.id);
  }, 180_000);
});
