/**
 * Seller console benchmark: the real service with one seller holding 100,000 payments (a year,
 * with refunds and customers) and 1,000,000 logged API requests (30 days), then the server time
 * of the overview and Developers → Logs pages (HTTP on loopback, whole page rendered) and of
 * their queries alone, p50/p99 side by side. Results go to bench/RESULTS.md (bench/results-file.ts).
 *
 *   npm run bench -- console
 *   BENCH_PAYMENTS=20000 BENCH_REQUESTS=100000 npm run bench -- console   # smaller
 */
import { sql } from 'drizzle-orm';
import { startServer } from '../tests/setup/server';
import { consolePageLoader, timeRunsMs as time } from './common';
import { finishedRun, recordRun, tableSection } from './results-file';

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 100_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

export async function runConsoleBench() {
  console.log('starting the service…');
  const server = await startServer({ env: { LOG_LEVEL: 'warn', RUN_WORKER: 'false' } });
  (await import('../lib/config')).setDatabaseUrl(server.databaseUrl);
  const { getDb, closeDb } = await import('../lib/db/client');
  const { loadOverview } = await import('../lib/reports/overview');
  const { listRequestLogs } = await import('../lib/request-logs/request-logs');
  const db = getDb();
  const rows: { scenario: string; page: { p50: number; p99: number }; query: { p50: number; p99: number } }[] = [];
  try {
    const [{ id: merchantId, time_zone: timeZone }] = (
      await db.execute<{ id: string; time_zone: string }>(sql`select id, time_zone from merchants where email = 'demo@example.com'`)
    ).rows as [{ id: string; time_zone: string }];
    console.log(`creating ${PAYMENTS} payments and ${REQUESTS} logged requests…`);
    // Bulk rows straight in SQL: this measures reads, and the domain path would take hours here.
    await db.execute(sql`insert into customers (id, merchant_id, email, name, created_at)
      select 'cus_bench_' || i, ${merchantId}, 'bench' || i || '@example.com', 'Bench ' || i, now() - (i % 365) * interval '1 day'
      from generate_series(1, 5000) i`);
    await db.execute(sql`insert into payments (id, merchant_id, customer_id, status, amount, amount_refunded, currency, description, created_at)
      select 'pay_bench_' || i, ${merchantId}, 'cus_bench_' || (1 + i % 5000),
        case when i % 20 = 0 then 'failed' when i % 97 = 0 then 'unknown' when i % 31 = 0 then 'refunded' else 'succeeded' end,
        500 + (i * 7919) % 20000, case when i % 31 = 0 and i % 20 <> 0 and i % 97 <> 0 then 500 + (i * 7919) % 20000 else 0 end,
        case when i % 5 = 0 then 'EUR' else 'USD' end, 'Bench item', now() - (i % 365) * interval '1 day' - (i % 86400) * interval '1 second'
      from generate_series(1, ${PAYMENTS}) i`);
    await db.execute(sql`insert into refunds (id, merchant_id, payment_id, status, amount, currency, created_at)
      select 're_' || p.id, p.merchant_id, p.id, 'succeeded', p.amount_refunded, p.currency, p.created_at + interval '1 hour'
      from payments p where p.merchant_id = ${merchantId} and p.status = 'refunded'`);
    for (let done = 0; done < REQUESTS; done += 200_000) {
      const batch = Math.min(200_000, REQUESTS - done);
      await db.execute(sql`insert into api_request_logs (merchant_id, request_id, method, path, status, duration_ms, api_key_id, request_body, response_body, created_at)
        select ${merchantId}, 'req_bench_' || (${done} + i), case when i % 3 = 0 then 'GET' else 'POST' end,
          (array['/api/Payment', '/api/Customer', '/api/Checkout', '/api/Product'])[1 + i % 4],
          case when i % 50 = 0 then 400 when i % 997 = 0 then 500 else 200 end, 5 + i % 80, null,
          case when i % 50 = 0 then '{"priceId":"price_x"}' end, case when i % 50 = 0 then '{"code":"VALIDATION_FAILED"}' end,
          now() - ((${done} + i) % 2592000) * interval '1 second'
        from generate_series(1, ${batch}) i`);
    }
    await db.execute(sql`analyze`);

    const page = await consolePageLoader(server, {
      path: '/api/MerchantAuth/Login',
      body: { email: 'demo@example.com', password: 'demo-password' },
      cookiePrefix: 'pb_merchant',
    });
    const at = new Date();
    const scenarios: [string, string, () => Promise<unknown>][] = [
      ['overview, 7 days', '/merchant?range=7d', () => loadOverview(db, merchantId, { range: '7d', timeZone, at })],
      ['overview, 30 days', '/merchant?range=30d', () => loadOverview(db, merchantId, { range: '30d', timeZone, at })],
      ['overview, 90 days', '/merchant?range=90d', () => loadOverview(db, merchantId, { range: '90d', timeZone, at })],
      ['overview, 12 months', '/merchant?range=12m', () => loadOverview(db, merchantId, { range: '12m', timeZone, at })],
      ['logs, newest 50', '/merchant/developers/logs', () => listRequestLogs(db, merchantId, {})],
      ['logs, 5xx only', '/merchant/developers/logs?status=5xx', () => listRequestLogs(db, merchantId, { statusClass: '5xx' })],
      ['logs, path /api/Checkout', '/merchant/developers/logs?path=%2Fapi%2FCheckout', () => listRequestLogs(db, merchantId, { path: '/api/Checkout' })],
      ['logs, by request id', '/merchant/developers/logs?requestId=req_bench_123456', () => listRequestLogs(db, merchantId, { requestId: 'req_bench_123456' })],
    ];
    for (const [scenario, url, query] of scenarios) {
      rows.push({ scenario, page: await time(RUNS, page(url)), query: await time(RUNS, query) });
      console.log(rows.at(-1));
    }
  } finally {
    await closeDb();
    await server.stop();
  }

  const run = finishedRun();
  const columns = ['scenario', 'page p50', 'page p99', 'queries p50', 'queries p99'];
  const cells = rows.map((r) => [r.scenario, `${r.page.p50} ms`, `${r.page.p99} ms`, `${r.query.p50} ms`, `${r.query.p99} ms`]);
  recordRun(
    run,
    tableSection(
      'Console',
      `One seller with ${PAYMENTS.toLocaleString('en-US')} payments over a year and ${REQUESTS.toLocaleString('en-US')} logged API requests over 30 days (\`npm run bench -- console\`). *Page* is a whole server-rendered page over loopback HTTP (session check, queries, React render); *queries* is the page's domain call alone. ${RUNS} runs after 3 warm-ups.`,
      run,
      columns,
      cells,
    ),
    {
      benchmark: 'console',
      title: 'Seller console (`npm run bench -- console`)',
      about: `One seller with ${PAYMENTS.toLocaleString('en-US')} payments and ${REQUESTS.toLocaleString('en-US')} logged API requests; *page* is the whole server-rendered page over loopback HTTP, *queries* its domain call alone; ${RUNS} runs after 3 warm-ups.`,
      columns,
      rows: cells,
    },
  );
}
