/**
 * List paging benchmark: the real service with one seller holding 100,000 payments (and another
 * seller holding 20,000), then `GET /api/Payment` pages near row 1 and near row 100,000, by page
 * number and by cursor (`startingAfter` / `endingBefore`), p50/p99 side by side over loopback
 * HTTP with the database round trips each request made, plus the query plan (EXPLAIN ANALYZE) of the very statement each cursor page runs.
 * Results go to bench/RESULTS.md (bench/results-file.ts).
 *
 *   npm run bench -- lists
 *   BENCH_PAYMENTS=20000 npm run bench -- lists   # smaller
 */
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { startServer } from '../tests/setup/server';
import { demoApiKey, timeRuns } from './common';
import { finishedRun, recordRun, tableSection } from './results-file';

const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const PAGE_SIZE = 20;

const time = (work: () => Promise<unknown>) => timeRuns(RUNS, work);

export async function runListsBench() {
  console.log('starting the service…');
  const server = await startServer({ env: { LOG_LEVEL: 'warn', RUN_WORKER: 'false', DB_COUNT_ROUND_TRIPS: 'true' } });
  const pool = new pg.Pool({ connectionString: server.databaseUrl, max: 2 });
  // Every statement the list functions send, to EXPLAIN the one a cursor page runs.
  let lastQuery: { query: string; params: unknown[] } | undefined;
  const schema = await import('../lib/db/schema');
  const db = drizzle(pool, { schema, casing: 'snake_case', logger: { logQuery: (query, params) => (lastQuery = { query, params }) } });
  const { listPayments } = await import('../lib/payments/payments');
  const key = demoApiKey(server);
  const rows: { scenario: string; http: { p50: number; p99: number }; roundTrips: string; plan: string }[] = [];
  try {
    const [{ id: merchantId }] = (await db.execute<{ id: string }>(sql`select id from merchants where email = 'demo@example.com'`)).rows as [{ id: string }];
    console.log(`creating ${PAYMENTS} payments…`);
    const other = 'mer_bench_other';
    await db.execute(sql`insert into merchants (id, email, name, account_type)
      select ${other}, 'other-bench@example.com', 'Other', 'Business'`);
    for (const [seller, count, prefix] of [
      [merchantId, PAYMENTS, 'pay_bench_'],
      [other, 20_000, 'pay_other_'],
    ] as const) {
      await db.execute(sql`insert into customers (id, merchant_id, email) values (${`cus_${prefix}`}, ${seller}, 'bench@example.com')`);
      await db.execute(sql`insert into payments (id, merchant_id, customer_id, status, amount, amount_refunded, currency, description, created_at)
        select ${prefix} || lpad(i::text, 7, '0'), ${seller}, ${`cus_${prefix}`}, case when i % 20 = 0 then 'failed' else 'succeeded' end,
          500 + (i * 7919) % 20000, 0, 'USD', 'Bench item', now() - i * interval '1 minute' - (i % 1000) * interval '1 microsecond'
        from generate_series(1, ${count}) i`);
    }
    await db.execute(sql`analyze`);

    // The list's order (newest first): the ids at row 20 and at row total − 20.
    const idAt = async (offset: number) =>
      (
        await db.execute<{ id: string }>(
          sql`select id from payments where merchant_id = ${merchantId} order by created_at desc, id desc offset ${offset} limit 1`,
        )
      ).rows[0]!.id;
    const total = Number((await db.execute<{ n: number }>(sql`select count(*)::int as n from payments where merchant_id = ${merchantId}`)).rows[0]!.n);
    const nearFirst = await idAt(PAGE_SIZE - 1);
    const nearLast = await idAt(total - PAGE_SIZE - 1);
    const lastPage = Math.ceil(total / PAGE_SIZE);
    const scenarios: [string, string, Record<string, unknown>][] = [
      ['page=1 (rows 1–20)', `page=1`, { page: 1 }],
      [`page=${lastPage} (the last rows)`, `page=${lastPage}`, { page: lastPage }],
      ['startingAfter row 20 (rows 21–40)', `startingAfter=${nearFirst}`, { startingAfter: nearFirst }],
      [`startingAfter row ${total - PAGE_SIZE} (the last rows)`, `startingAfter=${nearLast}`, { startingAfter: nearLast }],
      [`endingBefore row ${total - PAGE_SIZE}`, `endingBefore=${nearLast}`, { endingBefore: nearLast }],
      ['status=failed, startingAfter row 20', `status=failed&startingAfter=${nearFirst}`, { status: 'failed', startingAfter: nearFirst }],
      [`status=failed, startingAfter row ${total - PAGE_SIZE}`, `status=failed&startingAfter=${nearLast}`, { status: 'failed', startingAfter: nearLast }],
    ];
    for (const [scenario, query, options] of scenarios) {
      const url = `${server.baseUrl}/api/Payment?pageSize=${PAGE_SIZE}&${query}`;
      let roundTrips = '';
      const http = await time(async () => {
        const answer = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
        if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}: ${await answer.text()}`);
        roundTrips = answer.headers.get('x-db-round-trips') ?? '?';
        await answer.text();
      });
      await listPayments(db, merchantId, { pageSize: PAGE_SIZE, orderBy: 'createdAt', orderDirection: 'desc', ...options });
      const explained = await pool.query(`explain (analyze, costs off, timing off, summary on) ${lastQuery!.query}`, lastQuery!.params);
      const plan = explained.rows.map((row: Record<string, string>) => row['QUERY PLAN']).join('\n');
      rows.push({ scenario, http, roundTrips, plan });
      console.log(`${scenario}: p50 ${http.p50.toFixed(1)} ms, p99 ${http.p99.toFixed(1)} ms, ${roundTrips} round trips\n${plan}\n`);
    }
  } finally {
    await pool.end();
    await server.stop();
  }

  const run = finishedRun();
  const columns = ['page', 'HTTP p50', 'HTTP p99', 'database round trips per request'];
  const cells = rows.map((r) => [r.scenario, `${r.http.p50.toFixed(1)} ms`, `${r.http.p99.toFixed(1)} ms`, r.roundTrips]);
  recordRun(
    run,
    [
      ...tableSection(
        'Lists, page numbers vs cursors',
        `One seller with ${PAYMENTS.toLocaleString('en-US')} payments (another with 20,000), \`GET /api/Payment?pageSize=${PAGE_SIZE}\` over loopback HTTP with the API key (authentication, rate limit, query, JSON), ${RUNS} runs after 3 warm-ups (\`npm run bench -- lists\`). Each page also carries \`totalCount\`, a count of the whole match, the same at every depth.`,
        run,
        columns,
        cells,
      ),
      ...rows.flatMap((r) => [`Plan, ${r.scenario}:`, '', '```', r.plan, '```', '']),
    ],
    {
      benchmark: 'lists',
      title: 'List pages, page numbers vs cursors (`npm run bench -- lists`)',
      about: `One seller with ${PAYMENTS.toLocaleString('en-US')} payments, \`GET /api/Payment?pageSize=${PAGE_SIZE}\` over loopback HTTP with the API key, ${RUNS} runs after 3 warm-ups; the query plans are in the run's section.`,
      columns,
      rows: cells,
    },
  );
}
