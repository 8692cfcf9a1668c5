import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { call as callApi } from '../helpers/api';
import { startServer, type RunningServer } from '../setup/server';
import { WEBHOOK_TEST_ENV } from '../setup/start-server';
import { eventually, startReceiver, type Receiver } from '../helpers/webhook-receiver';

/**
 * Crash safety of the dispatcher: the whole process group (web server and dispatcher) is
 * SIGKILLed three times, each time while attempts are in flight, as 1,000 events fan out to
 * three endpoints. Every committed event must arrive at every endpoint at least once; a repeat
 * can only come from an attempt that was sent but not recorded when the process died (at most
 * the leases held at each kill: 3 endpoints × WEBHOOK_ENDPOINT_CONCURRENCY) or from one the
 * receiver got but that was recorded as failed (a timeout), which is retried by design.
 */
const EVENTS = 1000;
const ENDPOINTS = ['a', 'b', 'c'];
const ENDPOINT_CONCURRENCY = 8;
const KILL_AFTER = [250, 500, 750];
// A busy event loop can fire a short timeout before it reads an answer that has arrived; the
// suite's 1.5 s would turn a loaded machine's stalls into failed attempts (and retries) here.
const ENV = { ...WEBHOOK_TEST_ENV, WEBHOOK_ENDPOINT_CONCURRENCY: String(ENDPOINT_CONCURRENCY), WEBHOOK_TIMEOUT_MS: '5000' };

let receiver: Receiver;
let server: RunningServer | undefined;

beforeAll(async () => {
  // A short delay keeps attempts in flight at every moment.
  receiver = await startReceiver(() => ({ status: 200, delayMs: 100 }));
});
afterAll(async () => {
  await server?.stop();
  await receiver.close();
});

/** The developer API of the server this test started (it changes at every restart). */
const call = (method: string, path: string, key: string, body?: unknown) => callApi(method, path, { key, body, baseUrl: server!.baseUrl });

/** A short-lived connection to the server's database (its address changes at every restart). */
async function withClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const leasedNow = (databaseUrl: string) =>
  withClient(
    databaseUrl,
    async (client) => (await client.query<{ n: number }>('select count(*)::int as n from webhook_deliveries where lease_until > now()')).rows[0]!.n,
  );

/** Attempts that failed while the dispatcher was running (not the lost ones a restart writes into the history). */
const countFailedAttempts = (databaseUrl: string) =>
  withClient(
    databaseUrl,
    async (client) =>
      (await client.query<{ n: number }>(`select count(*)::int as n from webhook_attempts where not succeeded and error not like 'No outcome was recorded%'`))
        .rows[0]!.n,
  );

/** The test's deliveries not yet delivered, or still holding the lease of an attempt that was never recorded. */
const unsettled = (databaseUrl: string) =>
  withClient(
    databaseUrl,
    async (client) =>
      (
        await client.query<{ n: number }>(
          `select count(*)::int as n from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
           where starts_with(e.url, $1) and (d.status <> 'delivered' or d.lease_worker_id is not null)`,
          [receiver.url],
        )
      ).rows[0]!.n,
  );

/** Attempt rows in the history per "<endpoint name> <event id>". */
const historyCounts = (databaseUrl: string) =>
  withClient(databaseUrl, async (client) => {
    const rows = await client.query<{ pair: string; n: number }>(
      `select substring(e.url from '[^/]+$') || ' ' || d.event_id as pair, count(a.id)::int as n
       from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id left join webhook_attempts a on a.delivery_id = d.id
       group by 1`,
    );
    return new Map(rows.rows.map((row) => [row.pair, row.n]));
  });

/** The state of the deliveries of events that did not arrive, for the failure message. */
function describeDeliveries(databaseUrl: string, eventIds: string[]): Promise<string> {
  return withClient(databaseUrl, async (client) => {
    const examples = await client.query(
      `select d.event_id, e.url, d.status, d.attempt_count, d.due_at, d.lease_until, d.last_error, e.failing_since
       from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id where d.event_id = any($1) and d.status <> 'delivered' limit 3`,
      [eventIds],
    );
    const byEndpoint = await client.query(
      `select e.url, e.failing_since, d.status, count(*)::int as n, count(*) filter (where d.lease_until > now())::int as leased,
         min(d.due_at) as earliest_due, max(d.lease_until) as latest_lease
       from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id group by 1, 2, 3 order by 1, 3`,
    );
    const attemptsOverTime = await client.query(
      `select date_trunc('second', started_at) - (extract(second from started_at)::int % 10) * interval '1 second' as since,
         count(*)::int as attempts, count(*) filter (where not succeeded)::int as failed, max(error) as an_error
       from webhook_attempts group by 1 order by 1 desc limit 30`,
    );
    return JSON.stringify({ now: new Date(), byEndpoint: byEndpoint.rows, attemptsOverTime: attemptsOverTime.rows, deliveries: examples.rows }, null, 1);
  });
}

describe('webhook delivery across repeated crashes', () => {
  it('delivers every committed event to every endpoint at least once, with few repeats, after three SIGKILLs mid-delivery', async () => {
    server = await startServer({ env: ENV });
    const dataDir = server.dataDir;
    const key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
    for (const name of ENDPOINTS) {
      const created = await call('POST', '/api/WebhookEndpoint', key, { url: `${receiver.url}/${name}`, events: ['product.created'] });
      expect(created.status).toBe(201);
    }

    let created = 0;
    let kills = 0;
    const inFlightAtKill: number[] = [];
    while (created < EVENTS) {
      // Four requests at a time; a request cut off by a kill may or may not have committed,
      // which is why the committed events are read back from the database at the end.
      const batch = await Promise.allSettled(Array.from({ length: 4 }, (_, i) => call('POST', '/api/Product', key, { name: `Crash ${created + i}` })));
      created += batch.filter((r) => r.status === 'fulfilled' && r.value.status === 201).length;
      // Killed only while attempts are in flight; when the dispatcher has caught up, the next
      // batch is created first (waiting instead would wait forever: nothing new would be sent).
      const leased = kills < KILL_AFTER.length && created >= KILL_AFTER[kills]! ? await leasedNow(server.databaseUrl) : 0;
      if (leased > 0) {
        await server.kill();
        inFlightAtKill.push(leased);
        kills++;
        server = await startServer({ env: ENV, dataDir });
      }
    }
    expect(kills).toBe(3);

    const committed: string[] = [];
    for (let page = 1; ; page++) {
      const list = await call('GET', `/api/WebhookEvent?type=product.created&pageSize=100&page=${page}`, key);
      committed.push(...list.body.data.map((event: { id: string }) => event.id));
      if (!list.body.hasMore) break;
    }
    expect(committed.length).toBeGreaterThanOrEqual(EVENTS);

    const arrivals = () => {
      const counts = new Map<string, number>();
      for (const request of receiver.received) {
        const pair = `${request.path.slice(1)} ${request.headers['x-service-event-id']}`;
        counts.set(pair, (counts.get(pair) ?? 0) + 1);
      }
      return counts;
    };
    // Counted once per poll: the receiver shares this event loop, and a poll that walked every
    // arrival for every event would hold it for seconds, so the receiver's answers (not the
    // service) would time out.
    const missing = () => {
      const arrived = arrivals();
      return ENDPOINTS.flatMap((name) => committed.filter((id) => !arrived.has(`${name} ${id}`)));
    };
    await eventually(async () => missing().length === 0, 120_000, 'every committed event at every endpoint').catch(async (error: Error) => {
      fs.writeFileSync(path.join(dataDir, '..', 'webhook-crash-server.log'), server!.output());
      throw new Error(
        `${error.message}: ${missing().length} missing\n${await describeDeliveries(server!.databaseUrl, missing())}\n${server!.output().slice(-3000)}`,
      );
    });

    // The receiver always answers 200, so an attempt recorded as failed timed out (a loaded
    // machine can stall past WEBHOOK_TIMEOUT_MS) after the receiver may already have counted it.
    const failedAttempts = await countFailedAttempts(server.databaseUrl);
    const repeats = [...arrivals().values()].reduce((sum, n) => sum + n - 1, 0);
    console.log(
      `crash test: ${committed.length} events × ${ENDPOINTS.length} endpoints, leases at the kills ${inFlightAtKill.join('/')}, ` +
        `${failedAttempts} attempts recorded as failed, ${repeats} repeated arrivals`,
    );
    expect(repeats).toBeLessThanOrEqual(kills * ENDPOINTS.length * ENDPOINT_CONCURRENCY + failedAttempts);

    // Every request a receiver got is in its delivery's history, repeats after a kill included
    // (the attempt the killed process never recorded is written when its lease has run out).
    await eventually(async () => (await unsettled(server!.databaseUrl)) === 0, 120_000, 'every delivery settled');
    const history = await historyCounts(server.databaseUrl);
    const unseen = [...arrivals()].filter(([pair, n]) => (history.get(pair) ?? 0) < n);
    expect(unseen, 'arrivals missing from the delivery history').toEqual([]);
  }, 400_000);
});
