import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call as callApi } from '../helpers/api';
import { startServer, type RunningServer } from '../setup/server';
import { WEBHOOK_TEST_ENV } from '../setup/start-server';
import { eventually } from '../helpers/webhook-receiver';

/**
 * Two dispatcher processes on one database (the server's and `npm run worker`): no delivery is
 * ever sent by both at once, and WEBHOOK_ENDPOINT_CONCURRENCY (or, for a failing endpoint,
 * WEBHOOK_FAILING_ENDPOINT_CONCURRENCY) holds across both processes.
 */
const ENDPOINT_CONCURRENCY = 3;
const FAILING_ENDPOINT_CONCURRENCY = 1;
const ENDPOINTS = ['one', 'two', 'three'];
const EVENTS = 150;
const ENV = {
  ...WEBHOOK_TEST_ENV,
  WEBHOOK_ENDPOINT_CONCURRENCY: String(ENDPOINT_CONCURRENCY),
  WEBHOOK_FAILING_ENDPOINT_CONCURRENCY: String(FAILING_ENDPOINT_CONCURRENCY),
  LOG_LEVEL: 'info',
};

let server: RunningServer | undefined;
let worker: ChildProcess | undefined;
let receiver: http.Server;
const open = new Map<string, number>();
const maxOpen = new Map<string, number>();
const openDeliveries = new Map<string, number>();
const arrivals = new Map<string, number>();
let overlaps = 0;
/** What /flaky answers (after 150 ms). */
let flakyStatus = 500;
let workerOutput = '';
let key = '';
let receiverUrl = '';

beforeAll(async () => {
  // Answers after 15 ms, counting requests open per endpoint path and per delivery id.
  receiver = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const delivery = String(req.headers['x-service-delivery-id']);
    open.set(path, (open.get(path) ?? 0) + 1);
    maxOpen.set(path, Math.max(maxOpen.get(path) ?? 0, open.get(path)!));
    if (openDeliveries.has(delivery)) overlaps++;
    openDeliveries.set(delivery, (openDeliveries.get(delivery) ?? 0) + 1);
    const pair = `${path} ${req.headers['x-service-event-id']}`;
    arrivals.set(pair, (arrivals.get(pair) ?? 0) + 1);
    req.resume();
    req.on('end', () =>
      setTimeout(
        () => {
          open.set(path, open.get(path)! - 1);
          const left = openDeliveries.get(delivery)! - 1;
          if (left === 0) openDeliveries.delete(delivery);
          else openDeliveries.set(delivery, left);
          res.statusCode = path === '/flaky' ? flakyStatus : 200;
          res.end('ok');
        },
        path === '/flaky' ? 150 : 15,
      ),
    );
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  server = await startServer({ env: ENV });
  key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
  worker = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
    env: { ...process.env, ...ENV, DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  worker.stdout!.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
  worker.stderr!.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
  // A second process compiling with tsx on a loaded machine can take minutes to start.
  await eventually(async () => workerOutput.includes('webhook dispatcher started'), 180_000, 'the second dispatcher');
}, 240_000);
afterAll(async () => {
  worker?.kill('SIGKILL');
  await server?.stop();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

/** The developer API of the server this test started (it changes at every restart). */
const call = (method: string, path: string, key: string, body?: unknown) => callApi(method, path, { key, body, baseUrl: server!.baseUrl });

async function postProducts(count: number, prefix: string) {
  for (let i = 0; i < count; i += 5) {
    await Promise.all(
      Array.from({ length: Math.min(5, count - i) }, async (_, j) => {
        expect((await call('POST', '/api/Product', key, { name: `${prefix} ${i + j}` })).status).toBe(201);
      }),
    );
  }
}

const arrivedAt = (path: string) => [...arrivals.keys()].filter((pair) => pair.startsWith(`${path} `)).length;

describe('two dispatcher processes', () => {
  it('hold a failing endpoint to the failing limit, and give it the full limit once it succeeds again', async () => {
    const created = await call('POST', '/api/WebhookEndpoint', key, { url: `${receiverUrl}/flaky`, events: ['product.created'] });
    expect(created.status).toBe(201);
    const endpointPath = `/api/WebhookEndpoint/${created.body.id}`;
    await postProducts(1, 'First failure');
    await eventually(async () => (await call('GET', endpointPath, key)).body.status === 'failing', 20_000, 'the endpoint failing');

    // From now on both processes together keep at most one attempt open to it, although the
    // normal limit (3) would let a backlog of 12 go out three at a time.
    maxOpen.set('/flaky', open.get('/flaky') ?? 0);
    await postProducts(12, 'While failing');
    await eventually(async () => arrivedAt('/flaky') === 13, 30_000, 'a first attempt of every delivery');
    expect(maxOpen.get('/flaky')).toBeLessThanOrEqual(FAILING_ENDPOINT_CONCURRENCY);

    flakyStatus = 200;
    await eventually(async () => (await call('GET', endpointPath, key)).body.status === 'enabled', 20_000, 'the endpoint healthy');
    const before = arrivedAt('/flaky');
    maxOpen.set('/flaky', 0);
    await postProducts(15, 'Healthy again');
    await eventually(async () => arrivedAt('/flaky') === before + 15, 30_000, 'the new deliveries');
    expect(maxOpen.get('/flaky')).toBeGreaterThan(FAILING_ENDPOINT_CONCURRENCY);
    expect(maxOpen.get('/flaky')).toBeLessThanOrEqual(ENDPOINT_CONCURRENCY);
    expect((await call('PUT', endpointPath, key, { enabled: false })).status).toBe(200);
  }, 120_000);

  it('never send one delivery twice at once and share the per-endpoint limit', async () => {
    for (const name of ENDPOINTS) {
      expect((await call('POST', '/api/WebhookEndpoint', key, { url: `${receiverUrl}/${name}`, events: ['product.created'] })).status).toBe(201);
    }
    const eventIds: string[] = [];
    await postProducts(EVENTS, 'Shared');
    for (let page = 1; ; page++) {
      const list = await call('GET', `/api/WebhookEvent?type=product.created&pageSize=100&page=${page}`, key);
      type Listed = { id: string; data: { object: { name: string } } };
      eventIds.push(...list.body.data.filter((event: Listed) => event.data.object.name.startsWith('Shared ')).map((event: Listed) => event.id));
      if (!list.body.hasMore) break;
    }
    expect(eventIds).toHaveLength(EVENTS);
    await eventually(async () => ENDPOINTS.every((name) => eventIds.every((id) => arrivals.has(`/${name} ${id}`))), 60_000, 'every delivery');

    // Nothing crashed, so every delivery arrived once per attempt the service recorded (once,
    // unless a loaded machine let an attempt time out and be retried), never overlapping itself.
    const shared = [...arrivals].filter(([pair]) => ENDPOINTS.some((name) => pair.startsWith(`/${name} `)));
    expect(shared).toHaveLength(eventIds.length * ENDPOINTS.length);
    const endpointIds = new Map<string, string>();
    for (const endpoint of (await call('GET', '/api/WebhookEndpoint?pageSize=100', key)).body.data as { id: string; url: string }[]) {
      endpointIds.set(endpoint.url.slice(receiverUrl.length), endpoint.id);
    }
    const sharedEndpoints = new Set(ENDPOINTS.map((name) => endpointIds.get(`/${name}`)));
    // An attempt is recorded once its answer is in: wait for every shared delivery's record.
    const attempts = await eventually(
      async () => {
        const recorded = new Map<string, number>();
        for (let page = 1; ; page++) {
          const list = await call('GET', `/api/WebhookDelivery?type=product.created&pageSize=100&page=${page}`, key);
          for (const delivery of list.body.data as { eventId: string; endpointId: string; attemptCount: number; status: string }[]) {
            if (!sharedEndpoints.has(delivery.endpointId)) continue;
            if (delivery.status !== 'delivered') return undefined;
            recorded.set(`${delivery.endpointId} ${delivery.eventId}`, delivery.attemptCount);
          }
          if (!list.body.hasMore) return recorded;
        }
      },
      60_000,
      'every shared delivery recorded as delivered',
    );
    const unrecorded = shared.filter(([pair, n]) => {
      const [path, eventId] = pair.split(' ');
      return n !== attempts.get(`${endpointIds.get(path!)} ${eventId}`);
    });
    expect(unrecorded).toEqual([]);
    expect(overlaps).toBe(0);
    for (const name of ENDPOINTS) expect(maxOpen.get(`/${name}`)).toBeLessThanOrEqual(ENDPOINT_CONCURRENCY);

    const exited = new Promise((resolve) => worker!.once('exit', resolve));
    worker!.kill('SIGTERM');
    await exited;
    const sentByWorker = Number(/"sent":(\d+)[^\n]*webhook dispatcher stopped/.exec(workerOutput)?.[1] ?? -1);
    const total = [...arrivals.values()].reduce((sum, n) => sum + n, 0);
    console.log(
      `two dispatchers: the worker process sent ${sentByWorker} of ${total} attempts; most open per endpoint ${ENDPOINTS.map((name) => maxOpen.get(`/${name}`)).join('/')}`,
    );
    expect(sentByWorker).toBeGreaterThan(0);
    expect(sentByWorker).toBeLessThan(total);
  }, 240_000);
});
