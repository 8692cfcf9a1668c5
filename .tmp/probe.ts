import pg from 'pg';
import { startServer } from '../tests/setup/server';
import { WEBHOOK_TEST_ENV } from '../tests/setup/start-server';
import { startReceiver } from '../tests/helpers/webhook-receiver';

const receiver = await startReceiver(() => ({ status: 200, delayMs: 100 }));
let server = await startServer({ env: { ...WEBHOOK_TEST_ENV, WEBHOOK_ENDPOINT_CONCURRENCY: '8' } });
const key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
const call = (path: string, body: unknown) => fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
for (const name of ['a', 'b', 'c']) await call('/api/WebhookEndpoint', { url: `${receiver.url}/${name}`, events: ['product.created'] });
let created = 0;
while (created < 300) { await Promise.allSettled(Array.from({ length: 4 }, (_, i) => call('/api/Product', { name: `P ${created + i}` }))); created += 4;
  if (created === 100) { const dataDir = server.dataDir; await server.kill(); server = await startServer({ env: { ...WEBHOOK_TEST_ENV, WEBHOOK_ENDPOINT_CONCURRENCY: '8' }, dataDir }); console.log('restarted'); } }
await new Promise((r) => setTimeout(r, 15000));
const client = new pg.Client({ connectionString: server.databaseUrl });
await client.connect();
console.log((await client.query("select left(coalesce(error,''),100) as e, trigger, date_trunc('second', started_at) as t, succeeded, count(*)::int, avg(duration_ms)::int as ms from webhook_attempts group by 1,2,3,4 order by 4 limit 40")).rows);
console.log((await client.query("select status, count(*)::int from webhook_deliveries group by 1")).rows);
console.log('received', receiver.received.length);
await client.end();
await server.stop();
await receiver.close();
