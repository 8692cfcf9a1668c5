import { and, asc, eq, inArray, isNotNull, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database, Db } from '../db/client';
import type { Phases } from '../db/phases';
import { payments, subscriptions, testClockCustomers, testClocks } from '../db/schema';
import { paginate, type PageRequest } from '../db/paginate';
import { newId } from '../ids';
import { now } from '../clock';
import { config } from '../config';
import { enqueueJob } from '../jobs/enqueue';
import { log } from '../log';
import { ApiError, invalidField, notFound } from '../errors';
import type { Attempt } from '../http/idempotency';
import { findCustomerRow } from '../customers/customers';
import type { AdvanceTestClockBody, CreateTestClockBody } from './schemas';
import { finishPendingPayment } from '../payments/recovery';
import { processSubscription, renewalMove } from './renewals';
import { dunningRetryMove } from './dunning';
import { prorationMove } from './price-change';
import { testClockStateMachine } from './test-clock-states';

type TestClockRow = typeof testClocks.$inferSelect;

/** How far one Advance may move a clock: enough for several years of monthly billing. */
export const MAX_ADVANCE_MS = 5 * 366 * 86_400_000;

async function toTestClockResponse(db: Db, row: TestClockRow) {
  const attached = await db
    .select({ customerId: testClockCustomers.customerId })
    .from(testClockCustomers)
    .where(eq(testClockCustomers.testClockId, row.id))
    .orderBy(asc(testClockCustomers.createdAt));
  return {
    id: row.id,
    name: row.name,
    frozenTime: row.frozenTime.toISOString(),
    status: row.status,
    customerIds: attached.map((a) => a.customerId),
    createdAt: row.createdAt.toISOString(),
  };
}

async function findTestClockRow(db: Db, merchantId: string, testClockId: string, forUpdate = false) {
  const query = db
    .select()
    .from(testClocks)
    .where(and(eq(testClocks.id, testClockId), eq(testClocks.merchantId, merchantId)));
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('test clock', testClockId);
  return row;
}

export async function createTestClock(tx: Db, merchantId: string, body: z.output<typeof CreateTestClockBody>) {
  const [row] = await tx
    .insert(testClocks)
    .values({ id: newId('testClock'), merchantId, name: body.name ?? null, frozenTime: body.frozenTime ?? now(), createdAt: now(), updatedAt: now() })
    .returning();
  return toTestClockResponse(tx, row!);
}

export async function getTestClock(db: Db, merchantId: string, testClockId: string) {
  return toTestClockResponse(db, await findTestClockRow(db, merchantId, testClockId));
}

export async function listTestClocks(db: Db, merchantId: string, query: PageRequest & { orderBy: 'createdAt' }) {
  const page = await paginate(db, testClocks, {
    ...query,
    scope: [eq(testClocks.merchantId, merchantId)],
    where: [],
    orderBy: [testClocks.createdAt, testClocks.id],
  });
  return { ...page, data: await Promise.all(page.data.map((row) => toTestClockResponse(db, row))) };
}

/**
 * Attaches a customer: their subscriptions created from now on live on the clock's time. A
 * customer with a running subscription, or already on a clock, cannot be attached (409).
 */
export async function attachCustomerToTestClock(tx: Db, merchantId: string, testClockId: string, customerId: string) {
  const clock = await findTestClockRow(tx, merchantId, testClockId);
  await findCustomerRow(tx, merchantId, customerId, 'customerId');
  const [running] = await tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.customerId, customerId), ne(subscriptions.status, 'ended')))
    .limit(1);
  if (running)
    throw new ApiError('INVALID_STATE', `Customer ${customerId} has subscription ${running.id} on real time; attach customers before subscribing them.`);
  const inserted = await tx.insert(testClockCustomers).values({ customerId, testClockId: clock.id, merchantId }).onConflictDoNothing().returning();
  if (inserted.length === 0) {
    const [existing] = await tx.select().from(testClockCustomers).where(eq(testClockCustomers.customerId, customerId));
    if (existing?.testClockId !== clock.id)
      throw new ApiError('CONFLICT', `Customer ${customerId} is already attached to test clock ${existing?.testClockId}.`);
  }
  return toTestClockResponse(tx, clock);
}

/**
 * Moves the clock forward and runs, in time order, everything that became due for its
 * subscriptions: trial ends, renewals, dunning retries, scheduled changes, period-end
 * cancellations — exactly as if that time had passed. Runs within the request, in steps a crash
 * cannot lose: the new time commits first with the status `advancing`, each subscription then
 * catches up in its own transactions, and the clock becomes `ready` with the answer. An advance
 * cut off midway is finished by its retry (the same Idempotency-Key, or the same `frozenTime`
 * while the clock is advancing) or else by the worker (finishAbandonedAdvance).
 */
export async function advanceTestClock(
  phases: Phases,
  merchantId: string,
  testClockId: string,
  body: z.output<typeof AdvanceTestClockBody>,
  attempt?: Attempt,
) {
  const resuming = await phases.db.transaction((tx) => startAdvance(tx, merchantId, testClockId, body.frozenTime, attempt?.isNew === false));
  if (resuming) await finishLeftCharges(phases.db, testClockId);
  const actionsRun = await catchUp(phases.db, testClockId);
  return phases.db.transaction(async (tx) => {
    const clock = (await markReady(tx, testClockId)) ?? (await findTestClockRow(tx, merchantId, testClockId));
    await queueReminders(tx, testClockId);
    const result = { ...(await toTestClockResponse(tx, clock)), actionsRun };
    await phases.answer(tx, result);
    return result;
  });
}

/**
 * Commits the clock's new time as `advancing`. `takenOver`: this request's Idempotency-Key was
 * taken over from an execution that died, which may have moved the clock already. True when this
 * run resumes one that died.
 */
async function startAdvance(tx: Db, merchantId: string, testClockId: string, to: Date, takenOver: boolean): Promise<boolean> {
  const clock = await findTestClockRow(tx, merchantId, testClockId, true);
  const alreadyThere = to.getTime() <= clock.frozenTime.getTime();
  // This Advance's first run moved the clock and died: finish its catching-up, whatever the status.
  const resuming = alreadyThere && (takenOver || (clock.status === 'advancing' && to.getTime() === clock.frozenTime.getTime()));
  if (!resuming) {
    if (alreadyThere) throw invalidField('frozenTime', `frozenTime must be after the clock's current time ${clock.frozenTime.toISOString()}.`);
    if (to.getTime() - clock.frozenTime.getTime() > MAX_ADVANCE_MS) throw invalidField('frozenTime', 'A test clock moves at most 5 years per Advance.');
  }
  // A ready clock starts advancing. An advancing one stays so when this resumes it, or takes over
  // from a runner that stopped renewing its lease (it died): this one runs what that one left too.
  // Another Advance still running on it (a live lease) is a 409.
  if (clock.status === 'ready' || (!resuming && leaseHeld(clock))) {
    testClockStateMachine.assertTransition(
      clock.status,
      'advancing',
      `Test clock ${clock.id}`,
      `it is still advancing to ${clock.frozenTime.toISOString()}; retry when its status is ready`,
    );
  }
  await tx
    .update(testClocks)
    .set({ frozenTime: resuming ? clock.frozenTime : to, status: 'advancing', advanceLeaseUntil: leaseEnd(), updatedAt: now() })
    .where(eq(testClocks.id, clock.id));
  return resuming || clock.status === 'advancing';
}

/** The kinds of money move an advance runs (docs/payments.md, "Money moves"). */
const ADVANCE_MOVES = [renewalMove.kind, dunningRetryMove.kind, prorationMove.kind];

/**
 * The charges a dead run of this clock's advance pinned and never finished (its renewal's period
 * moved, its payment still pending): finished now under the recovery policy (asked at the
 * processor first, charged with the same key only if it never arrived), so the resumed advance
 * answers with every renewal charged, rather than minutes later when recovery finds them stale.
 */
async function finishLeftCharges(db: Database, testClockId: string): Promise<void> {
  const left = await db
    .select({ payment: payments })
    .from(payments)
    .innerJoin(testClockCustomers, eq(testClockCustomers.customerId, payments.customerId))
    .where(
      and(
        eq(testClockCustomers.testClockId, testClockId),
        eq(payments.status, 'pending'),
        isNotNull(payments.intent),
        inArray(sql`${payments.intent}->>'kind'`, ADVANCE_MOVES),
      ),
    );
  for (const { payment } of left) await finishPendingPayment(db, payment);
}

/**
 * Runs every subscription of the clock with something due by its time, each until nothing is
 * (processSubscription), while renewing the clock's lease so the worker leaves it alone. Returns
 * the number of actions run. Subscriptions of one clock are independent of each other, so each
 * runs to the new time in turn, in its own transactions (charges are made between them:
 * docs/payments.md). Another runner on the same clock (a retry, the worker) is harmless: each
 * action locks its subscription and runs only if still due.
 */
async function catchUp(db: Database, testClockId: string): Promise<number> {
  const renewal = setInterval(() => {
    db.update(testClocks)
      .set({ advanceLeaseUntil: leaseEnd() })
      .where(and(eq(testClocks.id, testClockId), eq(testClocks.status, 'advancing')))
      .catch((error: unknown) => log.warn({ err: error, testClockId }, 'could not renew a test clock lease'));
  }, leaseMs() / 3);
  renewal.unref();
  try {
    let actions = 0;
    const caughtUp = new Set<string>();
    for (;;) {
      const due = (await dueOnClock(db, testClockId)).filter((id) => !caughtUp.has(id));
      if (due.length === 0) return actions;
      for (const id of due) {
        actions += await processSubscription(db, id);
        caughtUp.add(id);
      }
    }
  } finally {
    clearInterval(renewal);
  }
}

/** Subscriptions of the clock with an action due by its time, earliest first. */
async function dueOnClock(db: Db, testClockId: string): Promise<string[]> {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .innerJoin(testClocks, eq(testClocks.id, subscriptions.testClockId))
    .where(
      and(
        eq(subscriptions.testClockId, testClockId),
        // An ended subscription may still have its last usage to bill.
        or(ne(subscriptions.status, 'ended'), isNotNull(subscriptions.usageBillingDueAt)),
        lte(subscriptions.nextActionAt, testClocks.frozenTime),
      ),
    )
    .orderBy(asc(subscriptions.nextActionAt), asc(subscriptions.id));
  return rows.map((row) => row.id);
}

/**
 * The lifecycle reminders due at the clock's new time (a trial ending in 3 days, a yearly renewal
 * in 7, a card expiring next month: lib/lifecycle-emails/reminders.ts), written by the worker for
 * this clock's customers, as the hourly sweep does for real time.
 */
function queueReminders(tx: Db, testClockId: string) {
  return enqueueJob(tx, 'send-lifecycle-reminders', { testClockId }, { jobKey: `lifecycle-reminders:${testClockId}` });
}

/**
 * `ready` once nothing is due by the clock's time; undefined when it is not advancing, or when
 * another Advance moved it further meanwhile (that one finishes it).
 */
async function markReady(tx: Db, testClockId: string): Promise<TestClockRow | undefined> {
  const [row] = await tx
    .update(testClocks)
    .set({ status: 'ready', advanceLeaseUntil: null, updatedAt: now() })
    .where(
      and(
        eq(testClocks.id, testClockId),
        inArray(testClocks.status, testClockStateMachine.sourcesOf('ready')),
        sql`not exists (select 1 from ${subscriptions} where ${subscriptions.testClockId} = ${testClocks.id} and (${subscriptions.status} <> 'ended' or ${subscriptions.usageBillingDueAt} is not null) and ${subscriptions.nextActionAt} <= ${testClocks.frozenTime})`,
      ),
    )
    .returning();
  return row;
}

/**
 * The worker's part: test clocks left `advancing` with their lease lapsed (the request running
 * the advance died, and nobody retried it).
 */
export async function abandonedAdvanceIds(db: Db): Promise<string[]> {
  const rows = await db.select({ id: testClocks.id }).from(testClocks).where(abandonedAdvance());
  return rows.map((row) => row.id);
}

/** Claims an abandoned advance (one worker at a time) and finishes it; false when another has it. */
export async function finishAbandonedAdvance(db: Database, testClockId: string): Promise<boolean> {
  const [claimed] = await db
    .update(testClocks)
    .set({ advanceLeaseUntil: leaseEnd() })
    .where(and(eq(testClocks.id, testClockId), abandonedAdvance()))
    .returning({ id: testClocks.id });
  if (!claimed) return false;
  await finishLeftCharges(db, testClockId);
  const actions = await catchUp(db, testClockId);
  await db.transaction(async (tx) => {
    await markReady(tx, testClockId);
    await queueReminders(tx, testClockId);
  });
  log.info({ testClockId, actions }, 'finished an interrupted test clock advance');
  return true;
}

function abandonedAdvance() {
  return and(eq(testClocks.status, 'advancing'), or(isNull(testClocks.advanceLeaseUntil), lt(testClocks.advanceLeaseUntil, now())));
}

/** An advance holds its clock as a request holds its Idempotency-Key: for IDEMPOTENCY_LEASE_MS, renewed while it runs. */
const leaseMs = () => config.http.idempotencyLeaseMs;
const leaseEnd = () => new Date(now().getTime() + leaseMs());
const leaseHeld = (clock: TestClockRow) => clock.advanceLeaseUntil !== null && clock.advanceLeaseUntil > now();
