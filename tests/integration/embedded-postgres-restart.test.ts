import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../setup/server';
import { eventually, startReceiver } from '../helpers/webhook-receiver';
import { WEBHOOK_TEST_ENV } from '../setup/start-server';

/**
 * `npm start` with the embedded PostgreSQL, whose server process dies (SIGKILL of the postmaster,
 * found in its postmaster.pid): the launcher starts it again and the service answers again,
 * writes and webhooks included; meanwhile it answers 503, never 500. When PostgreSQL cannot be
 * started again, the launcher exits non-zero, so that a supervisor restarts it.
 */
let server: RunningServer | undefined;
/**
 * PostgreSQL is killed here, so it runs durable, without the suite's `synchronous_commit=off`
 * (tests/setup/server.ts), under which a row committed just before the kill may be lost.
 */
const DURABLE = { EMBEDDED_POSTGRES_SETTINGS: '' };

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

function postmasterPid(dataDir: string): number {
  return Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
}

function demoKey(running: RunningServer) {
  return /Demo API key\s+(\S+)/.exec(running.output())![1]!;
}

describe('the embedded PostgreSQL dies while npm start runs', () => {
  it('is started again: 503 meanwhile, never 500, then the API, pages and webhooks work again', async () => {
    server = await startServer({ env: { ...WEBHOOK_TEST_ENV, ...DURABLE } });
    const running = server;
    const auth = { authorization: `Bearer ${demoKey(running)}`, 'content-type': 'application/json' };
    const receiver = await startReceiver(() => ({ status: 200, body: 'ok' }));
    const endpoint = await fetch(`${running.baseUrl}/api/WebhookEndpoint`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ url: `${receiver.url}/hooks`, events: ['product.created'] }),
    });
    expect(endpoint.status).toBe(201);
    const dead = postmasterPid(running.dataDir);
    process.kill(dead, 'SIGKILL');

    const seen = new Map<string, Set<number>>();
    const probe = async (what: string, init?: RequestInit) => {
      const answer = await fetch(`${running.baseUrl}${what}`, init);
      await answer.arrayBuffer();
      seen.set(what, (seen.get(what) ?? new Set()).add(answer.status));
      return answer.status;
    };
    await eventually(
      async () => {
        const statuses = [await probe('/api/health'), await probe('/api/Product', { headers: auth }), await probe('/merchant/sign-in')];
        return statuses.every((status) => status === 200);
      },
      120_000,
      'answers after PostgreSQL was started again',
    );
    for (const [what, statuses] of seen)
      expect(
        [...statuses].filter((status) => status !== 200 && status !== 503),
        what,
      ).toEqual([]);
    expect(postmasterPid(running.dataDir)).not.toBe(dead);
    expect(running.output()).toContain('embedded PostgreSQL exited unexpectedly');

    const product = await fetch(`${running.baseUrl}/api/Product`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'After the restart' }) });
    expect(product.status).toBe(201);
    const productId = ((await product.json()) as { id: string }).id;
    await eventually(async () => receiver.received.some((delivery) => delivery.body.includes(productId)), 30_000, 'the product.created webhook');
    await receiver.close();
  }, 300_000);

  it('exits non-zero when PostgreSQL cannot be started again', async () => {
    server = await startServer({ env: DURABLE });
    const running = server;
    process.kill(postmasterPid(running.dataDir), 'SIGKILL');
    // The data directory is gone (a lost disk): no start can succeed.
    fs.renameSync(path.join(running.dataDir, 'postgres'), path.join(running.dataDir, 'postgres-lost'));

    expect(await running.exited()).not.toBe(0);
    expect(running.output()).toContain('could not start the embedded PostgreSQL again');
  }, 300_000);
});
