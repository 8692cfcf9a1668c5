import { and, asc, eq, lte, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import type { Phases } from '../db/phases';
import { subscriptions, testClockCustomers, testClocks } from '../db/schema';
import { paginate, type PageRequest } from '../db/paginate';
import { newId } from '../ids';
import { now } from '../clock';
import { ApiError, invalidField, notFound } from '../http/errors';
import { findCustomerRow } from '../customers/customers';
import type { AdvanceTestClockBody, CreateTestClockBody } from './schemas';
import { processSubscription } from './renewals';

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
 * cancellations — exactly as if that time had passed. Runs within the request.
 */
export async function advanceTestClock(phases: Phases, merchantId: string, testClockId: string, body: z.output<typeof AdvanceTestClockBody>) {
  const due = await phases.db.transaction(async (tx) => {
    const clock = await findTestClockRow(tx, merchantId, testClockId, true);
    if (body.frozenTime <= clock.frozenTime)
      throw invalidField('frozenTime', `frozenTime must be after the clock's current time ${clock.frozenTime.toISOString()}.`);
    if (body.frozenTime.getTime() - clock.frozenTime.getTime() > MAX_ADVANCE_MS)
      throw invalidField('frozenTime', 'A test clock moves at most 5 years per Advance.');
    await tx.update(testClocks).set({ frozenTime: body.frozenTime, updatedAt: now() }).where(eq(testClocks.id, clock.id));
    return tx
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(and(eq(subscriptions.testClockId, clock.id), ne(subscriptions.status, 'ended'), lte(subscriptions.nextActionAt, body.frozenTime)));
  });
  let actions = 0;
  // Subscriptions of one clock are independent of each other, so each runs to the new time in
  // turn, in its own transactions (charges are made between them: docs/payments.md).
  for (const { id } of due) actions += await processSubscription(phases.db, id);
  return phases.db.transaction(async (tx) => {
    const clock = await findTestClockRow(tx, merchantId, testClockId);
    const result = { ...(await toTestClockResponse(tx, clock)), actionsRun: actions };
    await phases.answer(tx, result);
    return result;
  });
}
