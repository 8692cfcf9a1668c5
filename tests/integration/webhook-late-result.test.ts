import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimDueDeliveries, LOST_ATTEMPT_ERROR, type ClaimedDelivery } from '@/lib/webhooks/claim';
import { recordAttemptResults } from '@/lib/webhooks/record';
import { attemptLeaseMs } from '@/lib/webhooks/policy';
import { call as callApi } from '../helpers/api';
import { startServer, SUITE_SERVER_ENV, type RunningServer } from '../setup/server';
import { WEBHOOK_TEST_ENV } from '../setup/start-server';
import { serverDatabase } from '../helpers/server-pool';

/**
 * An attempt whose answer comes back after its lease ran out (a loaded machine, a receiver slower
 * than the lease): the claim that took the delivery over wrote the attempt into the history as
 * lost; the late answer fills in that row rather than adding one, so the history holds each
 * request once and `attemptCount` matches it. The server runs without a worker: this test is the
 * only dispatcher, and decides when each claim and each answer happens.
 */
let server: RunningServer;
let pool: pg.Pool;

beforeAll(async () => {
  server = await startServer({ env: { ...WEBHOOK_TEST_ENV, ...SUITE_SERVER_ENV, RUN_WORKER: 'false' } });
  pool = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

const claim = (dispatcherId: string, at: Date) =>
  claimDueDeliveries(pool, { dispatcherId, limit: 10, endpointConcurrency: 1, failingEndpointConcurrency: 1, leaseMs: attemptLeaseMs(), at });

const answered = (delivery: ClaimedDelivery, startedAt: Date, body: string) => ({
  delivery,
  headers: { 'x-service-delivery-id': delivery.id },
  startedAt,
  finishedAt: new Date(startedAt.getTime() + 40),
  outcome: { succeeded: true, status: 200, responseBody: body, error: null, durationMs: 40 },
});

describe('an answer that arrives after its lease was taken over', () => {
  it('fills in the lost attempt of the history instead of adding one', async () => {
    const key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
    const call = (method: string, path: string, body?: unknown) => callApi(method, path, { key, body, baseUrl: server.baseUrl });
    expect((await call('POST', '/api/WebhookEndpoint', { url: 'http://127.0.0.1:9/late', events: ['product.created'] })).status).toBe(201);
    expect((await call('POST', '/api/Product', { name: 'Answered late' })).status).toBe(201);
    const db = serverDatabase(pool);

    const sentAt = new Date();
    const [first] = await claim('slow-dispatcher', sentAt);
    expect(first).toBeDefined();
    const takenOverAt = new Date(sentAt.getTime() + attemptLeaseMs() + 1);
    const [second] = await claim('next-dispatcher', takenOverAt);
    expect(second!.id).toBe(first!.id);

    const history = async () => (await call('GET', `/api/WebhookDelivery/${first!.id}`)).body;
    const whileLost = await history();
    expect(whileLost.attempts).toHaveLength(1);
    expect(whileLost.attempts[0]).toMatchObject({ succeeded: false, responseStatus: null, error: LOST_ATTEMPT_ERROR });
    expect(whileLost.attemptCount).toBe(1);

    await recordAttemptResults(db, 'slow-dispatcher', [answered(first!, new Date(sentAt.getTime() + 3), 'late')]);
    const afterLate = await history();
    expect(afterLate.attempts).toHaveLength(1);
    expect(afterLate.attempts[0]).toMatchObject({ succeeded: true, responseStatus: 200, responseBody: 'late', error: null });
    expect(afterLate.attemptCount).toBe(1);
    // The delivery is the next dispatcher's until it records: the late answer does not settle it.
    expect(afterLate.status).not.toBe('delivered');

    await recordAttemptResults(db, 'next-dispatcher', [answered(second!, new Date(takenOverAt.getTime() + 3), 'again')]);
    const settled = await history();
    expect(settled.status).toBe('delivered');
    expect(settled.attempts.map((attempt: { responseBody: string }) => attempt.responseBody)).toEqual(['late', 'again']);
    expect(settled.attemptCount).toBe(2);
  }, 300_000);
});
