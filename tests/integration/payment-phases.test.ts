import crypto from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { checkouts, events, payments, sandboxProcessorOperations } from '@/lib/db/schema';
import { startServer, type RunningServer } from '../setup/server';
import { eventually } from '../helpers/webhook-receiver';
import { call } from '../helpers/api';
import { serverPool, serverDatabase } from '../helpers/server-pool';

/**
 * Money moves outside locks (docs/payments.md, "Two phases"): a server of its own whose sandbox
 * processor takes 2.5 s per call (long enough that checkouts overlap in phase 2 even when the
 * whole suite shares a slow machine and phase 1 runs a few per second). Checkouts of one link
 * overlap in phase 2 instead of queueing on the link's row, and a crash between phase 1 and
 * phase 3 is finished after the restart under the customer-present policy: a checkout is paid
 * exactly when the processor charged it before the crash, recovery itself charges nobody, and
 * every other checkout fails and gives its link slot back.
 */
const LATENCY_MS = 2_500;
// Recovery leaves alone what is younger than a processor call (a checkout still in phase 2).
const ENV = { SANDBOX_PROCESSOR_LATENCY_MS: String(LATENCY_MS), PAYMENT_PENDING_RECONCILE_AFTER_MS: String(2 * LATENCY_MS) };

let server: RunningServer | undefined;
let pool: pg.Pool | undefined;

afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

// Through `call()`, so every answer (also across the crash) is held to the OpenAPI document.
const api = (key: string, method: string, path: string, body?: unknown) =>
  call(method, path, { key, body, headers: { 'idempotency-key': crypto.randomUUID() }, baseUrl: server!.baseUrl });

function database() {
  pool = serverPool(server!.databaseUrl, 2);
  return serverDatabase(pool);
}

describe('two-phase checkouts with a slow processor', () => {
  it('runs 50 checkouts of one link side by side, answers a read of the link meanwhile, and finishes 20 interrupted by a crash', async () => {
    server = await startServer({ env: ENV });
    const dataDir = server.dataDir;
    const key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
    const db = database();

    // --- 50 customers pay one link at once.
    const link = (await api(key, 'POST', '/api/PaymentLink', { name: 'Concert ticket', unitAmount: 2500, currency: 'USD', maxCompletions: 60 })).body;
    const linkPayments = () =>
      db
        .select({ status: payments.status, count: sql<number>`count(*)::int` })
        .from(payments)
        .innerJoin(checkouts, eq(checkouts.id, payments.checkoutId))
        .where(eq(checkouts.paymentLinkId, link.id))
        .groupBy(payments.status);
    let finished = 0;
    const paying = Array.from({ length: 50 }, (_, i) =>
      api(key, 'POST', `/api/PaymentLink/${link.id}/Complete`, { customerEmail: `fan-${i}@example.com`, tokenRef: 'tok_visa' }).finally(() => finished++),
    );
    // Phase 2 of every checkout overlaps: with the link's row locked across the processor call
    // they would pass one at a time, and never more than one would be pending at once. (How
    // many overlap depends on how fast phase 1 runs on the machine, hence a modest threshold.)
    const peak = await eventually(
      async () => {
        const pending = (await linkPayments()).find((row) => row.status === 'pending')?.count ?? 0;
        return pending >= 10 && pending;
      },
      50 * LATENCY_MS,
      'at least 10 checkouts pending at once',
    );
    expect(peak).toBeGreaterThanOrEqual(10);
    const read = await api(key, 'GET', `/api/PaymentLink/${link.id}`);
    expect(read.status).toBe(200);
    expect(finished).toBeLessThan(50); // the read answered while charges were still in flight
    const answers = await Promise.all(paying);
    expect(answers.map((answer) => answer.status)).toEqual(Array(50).fill(201));
    expect(await linkPayments()).toEqual([{ status: 'succeeded', count: 50 }]);
    expect((await api(key, 'GET', `/api/PaymentLink/${link.id}`)).body.completionCount).toBe(50);

    // --- 20 checkouts are in phase 2 when the server is killed: 15 cards that pay, 5 that decline.
    const limited = (await api(key, 'POST', '/api/PaymentLink', { name: 'Workshop seat', unitAmount: 9900, currency: 'USD', maxCompletions: 20 })).body;
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      api(key, 'POST', `/api/PaymentLink/${limited.id}/Complete`, {
        customerEmail: `student-${i}@example.com`,
        tokenRef: i < 15 ? 'tok_visa' : 'tok_declined',
      }).catch(() => 'cut off'),
    );
    const limitedCheckouts = () => db.select().from(checkouts).where(eq(checkouts.paymentLinkId, limited.id));
    await eventually(async () => (await limitedCheckouts()).length === 20, 60_000, '20 checkouts in phase 2');
    await server.kill();
    expect(await Promise.all(inFlight)).toEqual(Array(20).fill('cut off'));
    const interrupted = await limitedCheckouts();
    expect(interrupted.every((checkout) => checkout.status === 'open')).toBe(true);
    // What the processor did before the crash: the customers who left saw an error; whatever it
    // did not charge, nobody may charge later.
    const interruptedIds = interrupted.map((row) => row.paymentId!);
    const bookedBefore = await db.select().from(sandboxProcessorOperations).where(inArray(sandboxProcessorOperations.idempotencyKey, interruptedIds));
    const chargedBefore = bookedBefore.filter((op) => op.status === 'succeeded').map((op) => op.idempotencyKey);

    await pool!.end();
    server = await startServer({ env: ENV, dataDir });
    const restarted = database();
    const settled = await eventually(
      async () => {
        const rows = await restarted.select().from(checkouts).where(eq(checkouts.paymentLinkId, limited.id));
        return rows.every((row) => row.status !== 'open') && rows;
      },
      90_000,
      'every interrupted checkout settled',
    );
    const paid = settled.filter((row) => row.status === 'paid').map((row) => row.paymentId!);
    expect(paid.sort()).toEqual([...chargedBefore].sort());
    expect(settled.filter((row) => row.status === 'failed')).toHaveLength(20 - paid.length);

    const paymentIds = settled.map((row) => row.paymentId!);
    const rows = await restarted.select().from(payments).where(inArray(payments.id, paymentIds));
    expect(
      rows
        .filter((row) => row.status === 'succeeded')
        .map((row) => row.id)
        .sort(),
    ).toEqual(paid.sort());
    expect(rows.filter((row) => row.status === 'failed')).toHaveLength(20 - paid.length);
    // The processor's books: recovery asked, and charged nobody the processor had not charged before the crash.
    const booked = await restarted.select().from(sandboxProcessorOperations).where(inArray(sandboxProcessorOperations.idempotencyKey, paymentIds));
    // What the processor had not seen was canceled there (a late request with the key would be refused), never charged.
    const afterCrash = booked.filter((op) => !bookedBefore.some((before) => before.idempotencyKey === op.idempotencyKey));
    expect(afterCrash.every((op) => op.status === 'failed' && op.declineCode === 'canceled')).toBe(true);
    expect(
      booked
        .filter((op) => op.status === 'succeeded')
        .map((op) => op.idempotencyKey)
        .sort(),
    ).toEqual([...chargedBefore].sort());
    expect(booked.filter((op) => op.status === 'succeeded').reduce((sum, op) => sum + op.amount, 0)).toBe(paid.length * 9900);
    // Exactly one outcome event per payment.
    const outcomeEvents = await restarted
      .select({ type: events.type, count: sql<number>`count(*)::int` })
      .from(events)
      .where(and(inArray(events.type, ['payment.succeeded', 'payment.failed']), inArray(sql`${events.data}->'object'->>'id'`, paymentIds)))
      .groupBy(events.type);
    expect(Object.fromEntries(outcomeEvents.map((row) => [row.type, row.count]))).toEqual({
      ...(paid.length < 20 ? { 'payment.failed': 20 - paid.length } : {}),
      ...(paid.length > 0 ? { 'payment.succeeded': paid.length } : {}),
    });
    // maxCompletions counts paid checkouts exactly: the failed ones gave their slots back.
    const after = (await api(key, 'GET', `/api/PaymentLink/${limited.id}`)).body;
    expect(after.completionCount).toBe(paid.length);
  }, 300_000);
});
