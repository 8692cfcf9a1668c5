/**
 * Operator's console benchmark: the real service with many sellers (BENCH_SELLERS, default
 * 2,000) holding BENCH_PAYMENTS payments (default 500,000 over 180 days, some `unknown`), one
 * webhook endpoint each (3 % failing, 2 % disabled), BENCH_DELIVERIES deliveries (default
 * 200,000 over 90 days, 1 % dead, some due) and BENCH_AUDIT audit entries (default 200,000), then
 * the server time of the platform overview, a seller page and the audit log (HTTP on loopback,
 * whole page rendered) and of their queries alone, p50/p99. Last, the overview's queries again
 * without this change's indexes, side by side in the same run. Results go to bench/RESULTS.md
 * (bench/results-file.ts).
 *
 *   npm run bench -- operator
 *   BENCH_SELLERS=500 BENCH_PAYMENTS=100000 npm run bench -- operator   # smaller
 */
import { sql } from 'drizzle-orm';
import { startServer } from '../tests/setup/server';
import { consolePageLoader, timeRunsMs as time } from './common';
import { finishedRun, recordRun, tableSection } from './results-file';

const SELLERS = Number(process.env.BENCH_SELLERS ?? 2_000);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 500_000);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 200_000);
const AUDIT = Number(process.env.BENCH_AUDIT ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);

export async function runOperatorBench() {
  console.log('starting the service…');
  const server = await startServer({ env: { LOG_LEVEL: 'warn', RUN_WORKER: 'false' } });
  (await import('../lib/config')).setDatabaseUrl(server.databaseUrl);
  const { getDb, closeDb } = await import('../lib/db/client');
  const { loadPlatformOverview } = await import('../lib/operator/platform-overview');
  const { loadSellerProfile } = await import('../lib/operator/seller-profile');
  const { listAuditEntries } = await import('../lib/audit/audit-log');
  const db = getDb();
  type Timing = { p50: number; p99: number };
  const rows: { scenario: string; page?: Timing; query: Timing }[] = [];
  try {
    console.log(`creating ${SELLERS} sellers, ${PAYMENTS} payments, ${DELIVERIES} deliveries and ${AUDIT} audit entries…`);
    // Bulk rows straight in SQL: this measures reads, and the domain path would take hours here.
    await db.execute(sql`insert into merchants (id, email, name, account_type, created_at)
      select 'mer_bench_' || i, 'bench-seller-' || i || '@example.com', 'Bench seller ' || i, 'Business', now() - i * interval '1 hour'
      from generate_series(1, ${SELLERS}) i`);
    await db.execute(sql`insert into customers (id, merchant_id, email, name, created_at)
      select 'cus_bench_' || i, 'mer_bench_' || i, 'bench-customer-' || i || '@example.com', 'Bench customer ' || i, now() - interval '200 days'
      from generate_series(1, ${SELLERS}) i`);
    await db.execute(sql`insert into payments (id, merchant_id, customer_id, status, amount, amount_refunded, currency, description, created_at)
      select 'pay_bench_' || i, 'mer_bench_' || (1 + (i * 7) % ${SELLERS}), 'cus_bench_' || (1 + (i * 7) % ${SELLERS}),
        case when i % 20 = 0 then 'failed' when i % 997 = 0 then 'unknown' else 'succeeded' end,
        500 + (i::bigint * 7919) % 20000, 0, (array['USD', 'USD', 'EUR', 'JPY'])[1 + i % 4], 'Bench item',
        now() - (i % 180) * interval '1 day' - (i % 86400) * interval '1 second'
      from generate_series(1, ${PAYMENTS}) i`);
    await db.execute(sql`insert into webhook_endpoints (id, merchant_id, url, events, enabled, disabled_reason, disabled_at, secret_ciphertext, secret_prefix, failing_since, created_at)
      select 'we_bench_' || i, 'mer_bench_' || i, 'https://hooks.example.com/' || i, array['*'], i % 50 <> 0,
        case when i % 50 = 0 then 'failing' end, case when i % 50 = 0 then now() - interval '2 days' end, 'x', 'whsec_bench',
        case when i % 33 = 0 and i % 50 <> 0 then now() - (i % 48) * interval '1 hour' end, now() - interval '200 days'
      from generate_series(1, ${SELLERS}) i`);
    await db.execute(sql`insert into events (id, merchant_id, type, data, sequence, created_at)
      select 'evt_bench_' || i, 'mer_bench_' || (1 + i % ${SELLERS}), 'payment.succeeded', '{"object":{}}'::jsonb, i, now() - (i % 90) * interval '1 day'
      from generate_series(1, ${DELIVERIES}) i`);
    await db.execute(sql`insert into webhook_deliveries (id, merchant_id, endpoint_id, event_id, event_type, status, attempt_count, due_at, created_at)
      select 'wda_bench_' || i, 'mer_bench_' || (1 + i % ${SELLERS}), 'we_bench_' || (1 + i % ${SELLERS}), 'evt_bench_' || i, 'payment.succeeded',
        case when i % 100 = 0 then 'dead' when i % 1000 = 1 then 'failed' else 'delivered' end, 1,
        case when i % 1000 = 1 then now() + (i % 7 - 3) * interval '1 minute' end,
        now() - (i % 90) * interval '1 day'
      from generate_series(1, ${DELIVERIES}) i`);
    await db.execute(sql`insert into audit_log (id, merchant_id, actor_kind, actor_id, actor_label, action, target_kind, target_id, ip, request_id, metadata, created_at)
      select 'aud_bench_' || lpad(i::text, 9, '0'), 'mer_bench_' || (1 + i % ${SELLERS}), 'seller_user', 'usr_bench_' || (i % 5000), 'user' || (i % 5000) || '@example.com',
        (array['seller.sign_in', 'seller.sign_in', 'seller.sign_in', 'api_key.created', 'refund.created', 'seller.sign_in_failed'])[1 + i % 6],
        'seller_user', 'usr_bench_' || (i % 5000), '198.51.100.' || (i % 250), 'req_bench_' || i, '{}'::jsonb, now() - (i % 365) * interval '1 day' - (i % 86400) * interval '1 second'
      from generate_series(1, ${AUDIT}) i`);
    await db.execute(sql`analyze`);

    const page = await consolePageLoader(server, {
      path: '/api/AdminAuth/Login',
      body: { name: 'admin', password: 'admin-password' },
      cookiePrefix: 'pb_admin',
    });
    const at = new Date();
    const busySeller = 'mer_bench_1';
    const scenarios: [string, string, () => Promise<unknown>][] = [
      ['platform overview, 7 days', '/admin/overview?range=7d', () => loadPlatformOverview(db, { range: '7d', at })],
      ['platform overview, 30 days', '/admin/overview?range=30d', () => loadPlatformOverview(db, { range: '30d', at })],
      ['platform overview, 90 days', '/admin/overview?range=90d', () => loadPlatformOverview(db, { range: '90d', at })],
      ['seller page', `/admin/sellers/${busySeller}`, () => loadSellerProfile(db, busySeller, at)],
      ['audit log, all sellers, newest 50', '/admin/audit-log', () => listAuditEntries(db, { merchantId: undefined }, {})],
      ['audit log, one seller', `/admin/audit-log?seller=${busySeller}`, () => listAuditEntries(db, { merchantId: busySeller }, {})],
      ['audit log, one action', '/admin/audit-log?action=refund.created', () => listAuditEntries(db, { merchantId: undefined }, { action: 'refund.created' })],
      ['audit log, one actor', '/admin/audit-log?actor=usr_bench_42', () => listAuditEntries(db, { merchantId: undefined }, { actor: 'usr_bench_42' })],
    ];
    for (const [scenario, url, query] of scenarios) {
      rows.push({ scenario, page: await time(RUNS, page(url)), query: await time(RUNS, query) });
      console.log(rows.at(-1));
    }
    // The same overview queries without this change's indexes, in the same run.
    await db.execute(sql`drop index payments_created_idx, payments_unknown_idx, webhook_deliveries_dead_idx, webhook_endpoints_unhealthy_idx`);
    await db.execute(sql`analyze`);
    for (const range of ['7d', '30d'] as const) {
      rows.push({
        scenario: `platform overview, ${range === '7d' ? '7' : '30'} days, WITHOUT the new indexes`,
        query: await time(Math.min(RUNS, 5), () => loadPlatformOverview(db, { range, at })),
      });
      console.log(rows.at(-1));
    }
  } finally {
    await closeDb();
    await server.stop();
  }

  const run = finishedRun();
  const cell = (timing: Timing | undefined, key: 'p50' | 'p99') => (timing ? `${timing[key]} ms` : 'not measured');
  const columns = ['scenario', 'page p50', 'page p99', 'queries p50', 'queries p99'];
  const cells = rows.map((r) => [r.scenario, cell(r.page, 'p50'), cell(r.page, 'p99'), cell(r.query, 'p50'), cell(r.query, 'p99')]);
  const data = `${SELLERS.toLocaleString('en-US')} sellers, ${PAYMENTS.toLocaleString('en-US')} payments over 180 days, ${DELIVERIES.toLocaleString('en-US')} webhook deliveries over 90 days, ${AUDIT.toLocaleString('en-US')} audit entries over a year`;
  recordRun(
    run,
    tableSection(
      "Operator's console",
      `${data} (\`npm run bench -- operator\`). *Page* is a whole server-rendered admin page over loopback HTTP; *queries* is the page's domain call alone. ${RUNS} runs after 3 warm-ups (5 for the rows without indexes).`,
      run,
      columns,
      cells,
    ),
    {
      benchmark: 'operator',
      title: "Operator's console (`npm run bench -- operator`)",
      about: `${data}; *page* is the whole server-rendered admin page over loopback HTTP, *queries* its domain call alone; ${RUNS} runs after 3 warm-ups (5 for the rows without indexes).`,
      columns,
      rows: cells,
    },
  );
}
