import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listen, verifyPaybaseWebhook, type ForwardedEvent } from '@/packages/sdk/src/index';
import { baseUrl, call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { clockFor, customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';
import { eventually, startReceiver, type Receiver } from '../helpers/webhook-receiver';

/**
 * `npx paybase listen` as a developer runs it: the SDK's built bin (packages/sdk/dist/cli.js,
 * built by `npm test` before the suite) against the real server, forwarding to a loopback receiver.
 */
const CLI = path.resolve(import.meta.dirname, '../../packages/sdk/dist/cli.js');
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => Promise.all(cleanups.map((cleanup) => cleanup())));

async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  cleanups.push(() => started.close());
  return started;
}

/** Starts the bin and answers once it printed its secret (the moment it is listening). */
async function runListen(args: string[], apiKey: string) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI, 'listen', '--base-url', baseUrl(), ...args], {
    env: { ...process.env, PAYBASE_API_KEY: apiKey, PAYBASE_URL: '' },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  cleanups.push(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  const secret = await eventually(
    async () => /signing secret is (whsec_[A-Za-z0-9+/=]+)/.exec(stdout)?.[1] ?? (child.exitCode !== null ? Promise.reject(new Error(stderr)) : undefined),
    20_000,
    'the listener to start',
  );
  const stop = async () => {
    child.kill('SIGTERM');
    return exited;
  };
  return { secret, output: () => stdout, stop };
}

describe('paybase listen (the SDK bin)', () => {
  it('forwards product.created created after it started, signed with the printed secret that the SDK verification accepts', async () => {
    const { key, api } = await newMerchant();
    const before = await api.post('/api/Product', { name: 'Made before listening' });
    expect(before.status).toBe(201);
    const local = await receiver();
    const listener = await runListen(['--forward-to', `${local.url}/webhooks`], key);

    const product = await api.post('/api/Product', { name: 'Made while listening' });
    expect(product.status).toBe(201);
    const [delivery] = await local.waitFor((requests) => requests.length >= 1, 10_000);

    // The first request is the new product's event: the one raised before the start is never sent.
    expect(delivery!.path).toBe('/webhooks');
    const signature = delivery!.headers['x-service-signature'] as string;
    const event = verifyPaybaseWebhook(delivery!.body, signature, listener.secret);
    expect(event.type).toBe('product.created');
    expect(event.data.object).toMatchObject({ id: product.body.id, name: 'Made while listening' });
    expect(delivery!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-service-event-id': event.id,
      'x-service-event-type': 'product.created',
      'paybase-version': event.apiVersion,
    });
    expect(event.sequence).toBeGreaterThan(0);
    expect(delivery!.headers['x-service-delivery-id']).toMatch(/^wda_/);
    // The body is the event as the history holds it, byte for byte what a real delivery carries.
    const stored = await call('GET', `/api/WebhookEvent/${event.id}`, { key });
    expect(delivery!.body).toBe(JSON.stringify(stored.body));
    expect(() => verifyPaybaseWebhook(delivery!.body, signature, 'whsec_not_the_printed_one')).toThrow(/No v1 signature/);

    // One line per event with the local answer's status.
    await eventually(async () => listener.output().includes(`${event.id}  --> POST ${local.url}/webhooks [200]`), 5_000, 'the event line');

    // A second event arrives after further polls; the first is never sent again.
    const second = await api.post('/api/Product', { name: 'Second' });
    await local.waitFor((requests) => requests.some((request) => request.body.includes(second.body.id)), 10_000);
    const ids = local.received.map((request) => request.headers['x-service-event-id']);
    expect(new Set(ids).size).toBe(ids.length);
    expect(local.received.map((request) => JSON.parse(request.body).data.object.name)).toEqual(['Made while listening', 'Second']);
    expect(await listener.stop()).toBe(0);
  });

  it('forwards only the types given with --events, and prints the status the local URL answered', async () => {
    const { key, api } = await newMerchant();
    const local = await receiver();
    local.setResponder(() => ({ status: 500 }));
    const listener = await runListen(['--forward-to', local.url, '--events', 'product.created,price.created'], key);

    await api.post('/api/Customer', { email: 'skipped@example.com', name: 'Skipped' });
    const product = await api.post('/api/Product', { name: 'Filtered in' });
    const [delivery] = await local.waitFor((requests) => requests.length >= 1, 10_000);
    // Events are forwarded in history order: had customer.created passed the filter it would be first.
    expect(delivery!.headers['x-service-event-type']).toBe('product.created');
    expect(JSON.parse(delivery!.body).data.object.id).toBe(product.body.id);
    await eventually(async () => /product\.created +evt_\S+ +--> POST \S+ \[500\]/.test(listener.output()), 5_000, 'the 500 line');
    expect(listener.output()).not.toContain('customer.created');
  });

  it('refuses to start without an API key', async () => {
    const child = spawn(process.execPath, [CLI, 'listen', '--forward-to', 'http://127.0.0.1:9/'], { env: { ...process.env, PAYBASE_API_KEY: '' } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    expect(await new Promise((resolve) => child.once('exit', resolve))).toBe(2);
    expect(stderr).toContain('API key is required');
  });
});

describe('listen() from the SDK', () => {
  it('follows every page of a poll and forwards each event once, in history order', async () => {
    const { key, api } = await newMerchant();
    const local = await receiver();
    const forwarded: ForwardedEvent[] = [];
    const listener = await listen({
      baseUrl: baseUrl(),
      apiKey: key,
      forwardTo: local.url,
      pageSize: 2,
      pollIntervalMs: 200,
      onForward: (result) => forwarded.push(result),
    });
    cleanups.push(() => listener.stop());

    const names = ['P1', 'P2', 'P3', 'P4', 'P5'];
    for (const name of names) await api.post('/api/Product', { name });
    await local.waitFor((requests) => requests.length >= names.length, 10_000);
    // One more event, seen by a later poll whose window still holds the first five.
    names.push('P6');
    await api.post('/api/Product', { name: 'P6' });
    await local.waitFor((requests) => requests.some((request) => JSON.parse(request.body).data.object.name === 'P6'), 10_000);
    await listener.stop();
    expect(local.received.map((request) => JSON.parse(request.body).data.object.name)).toEqual(names);
    expect(forwarded.map((result) => result.status)).toEqual(names.map(() => 200));
    for (const request of local.received)
      expect(verifyPaybaseWebhook(request.body, request.headers['x-service-signature'] as string, listener.secret).type).toBe('product.created');
  });

  it('keeps forwarding real-time events after a sandbox test clock dated years ahead raised some', async () => {
    const { merchant, key, api } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1500 });
    const { customerId, paymentMethodId } = await customerWithCard(api, merchant.id);
    await clockFor(api, customerId, '2035-01-01T00:00:00.000Z');
    const local = await receiver();
    const listener = await listen({ baseUrl: baseUrl(), apiKey: key, forwardTo: local.url, pollIntervalMs: 200 });
    cleanups.push(() => listener.stop());

    const subscription = await subscribe(api, { customerId, priceId: price.id, paymentMethodId });
    expect(subscription.status, subscription.text).toBe(201);
    await local.waitFor((requests) => requests.some((request) => request.headers['x-service-event-type'] === 'subscription.created'), 10_000);
    const clocked = local.received.find((request) => request.headers['x-service-event-type'] === 'subscription.created')!;
    expect(JSON.parse(clocked.body).createdAt).toBe('2035-01-01T00:00:00.000Z');

    // An event dated now, after ones dated 2035: still forwarded, and nothing is sent twice.
    const product = await api.post('/api/Product', { name: 'After the clock' });
    await local.waitFor((requests) => requests.some((request) => request.body.includes(product.body.id)), 10_000);
    const ids = local.received.map((request) => request.headers['x-service-event-id']);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
