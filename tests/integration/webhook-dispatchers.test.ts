import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../setup/server';
import { WEBHOOK_TEST_ENV } from '../setup/start-server';
import { eventually } from '../helpers/webhook-receiver';

/**
 * Two dispatcher processes on one database (the server's and `npm run worker`): no delivery is
 * ever sent by both at once, and WEBHOOK_ENDPOINT_CONCURRENCY holds across both processes.
 */
const ENDPOINT_CONCURRENCY = 3;
const ENDPOINTS = ['one', 'two', 'three'];
const EVENTS = 150;
const ENV = { ...WEBHOOK_TEST_ENV, WEBHOOK_ENDPOINT_CONCURRENCY: String(ENDPOINT_CONCURRENCY), LOG_LEVEL: 'info' };

let server: RunningServer | undefined;
let worker: ChildProcess | undefined;
let receiver: http.Server;
const open = new Map<string, number>();
const maxOpen = new Map<string, number>();
const openDeliveries = new Map<string, number>();
const arrivals = new Map<string, number>();
let overlaps = 0;

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
      setTimeout(() => {
        open.set(path, open.get(path)! - 1);
        const left = openDeliveries.get(delivery)! - 1;
        if (left === 0) openDeliveries.delete(delivery);
        else openDeliveries.set(delivery, left);
        res.end('ok');
      }, 15),
    );
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  worker?.kill('SIGKILL');
  await server?.stop();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

async function call(method: string, path: string, key: string, body?: unknown) {
  const response = await fetch(`${server!.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as any };
}

describe('two dispatcher processes', () => {
  it('never send one delivery twice at once and share the per-endpoint limit', async () => {
    server = await startServer({ env: ENV });
    const key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    worker = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
      env: { ...process.env, ...ENV, DATABASE_URL: server.databaseUrl, DATA_DIR: server.dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let workerOutput = '';
    worker.stdout!.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
    worker.stderr!.on('data', (chunk: Buffer) => (workerOutput += chunk.toString()));
    await eventually(async () => workerOutput.includes('webhook dispatcher started'), 60_000, 'the second dispatcher');

    for (const name of ENDPOINTS) {
      expect((await call('POST', '/api/WebhookEndpoint', key, { url: `${receiverUrl}/${name}`, events: ['product.created'] })).status).toBe(201);
    }
    const eventIds: string[] = [];
    for (let i = 0; i < EVENTS; i += 5) {
      await Promise.all(
        Array.from({ length: 5 }, async (_, j) => {
          await call('POST', '/api/Product', key, { name: `Shared ${i + j}` });
        }),
      );
    }
    for (let page = 1; ; page++) {
      const list = await call('GET', `/api/WebhookEvent?type=product.created&pageSize=100&page=${page}`, key);
      eventIds.push(...list.body.data.map((event: { id: string }) => event.id));
      if (!list.body.hasMore) break;
    }
    expect(eventIds).toHaveLength(EVENTS);
    await eventually(async () => ENDPOINTS.every((name) => eventIds.every((id) => arrivals.has(`/${name} ${id}`))), 60_000, 'every delivery');

    // Nothing crashed, so every delivery arrived exactly once, and never overlapping itself.
    expect([...arrivals.values()].every((n) => n === 1)).toBe(true);
    expect(arrivals.size).toBe(EVENTS * ENDPOINTS.length);
    expect(overlaps).toBe(0);
    for (const name of ENDPOINTS) expect(maxOpen.get(`/${name}`)).toBeLessThanOrEqual(ENDPOINT_CONCURRENCY);

    const exited = new Promise((resolve) => worker!.once('exit', resolve));
    worker.kill('SIGTERM');
    await exited;
    const sentByWorker = Number(/"sent":(\d+)[^\n]*webhook dispatcher stopped/.exec(workerOutput)?.[1] ?? -1);
    console.log(`two dispatchers: the worker process sent ${sentByWorker} of ${arrivals.size}; most open per endpoint ${[...maxOpen.values()].join('/')}`);
    expect(sentByWorker).toBeGreaterThan(0);
    expect(sentByWorker).toBeLessThan(arrivals.size);
  }, 240_000);
});
