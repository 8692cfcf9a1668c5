import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { subscriptions, testClocks } from '@/lib/db/schema';
import { newMerchant } from '../helpers/merchants';
import { clockFor, customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

/**
 * A test clock's `advancing` status (docs/subscriptions.md, "Advancing, and an advance cut off by a
 * crash"), without a crash: the clock is left as a crashed Advance leaves it — moved and
 * `advancing`, its renewals not run — and the next Advance finishes it. The SIGKILL version is
 * tests/integration/test-clock-crash.test.ts.
 */
const START = '2025-01-01T00:00:00.000Z';
const MONTH_LATER = '2025-02-01T12:00:00.000Z';
const TWO_MONTHS_LATER = '2025-03-01T12:00:00.000Z';

async function subscribedClock() {
  const { api, merchant } = await newMerchant();
  const price = await recurringPrice(api, { amount: 1500 });
  const { customerId } = await customerWithCard(api, merchant.id);
  const clockId = await clockFor(api, customerId, START);
  const subscription = await subscribe(api, { customerId, priceId: price.id });
  expect(subscription.status, subscription.text).toBe(201);
  return { api, clockId, subscriptionId: subscription.body.id as string };
}

/** What a crash right after the Advance's first transaction leaves: the new time, `advancing`, the lease `leaseMs` away. */
async function leaveAdvancing(clockId: string, to: string, leaseMs: number) {
  await getDb()
    .update(testClocks)
    .set({ frozenTime: new Date(to), status: 'advancing', advanceLeaseUntil: new Date(Date.now() + leaseMs) })
    .where(eq(testClocks.id, clockId));
}

async function periodIndex(subscriptionId: string) {
  const [row] = await getDb().select({ index: subscriptions.currentPeriodIndex }).from(subscriptions).where(eq(subscriptions.id, subscriptionId));
  return row!.index;
}

describe('a test clock left advancing', () => {
  it('is ready after an Advance and answers its status', async () => {
    const { api, clockId } = await subscribedClock();
    expect((await api.get(`/api/TestClock/${clockId}`)).body.status).toBe('ready');
    const advanced = await api.post(`/api/TestClock/${clockId}/Advance`, { frozenTime: MONTH_LATER });
    expect(advanced.status, advanced.text).toBe(200);
    expect(advanced.body).toMatchObject({ frozenTime: MONTH_LATER, status: 'ready', actionsRun: 1 });
    // Moving a ready clock to where it already is stays a mistake.
    const again = await api.post(`/api/TestClock/${clockId}/Advance`, { frozenTime: MONTH_LATER });
    expect(again.status).toBe(400);
  });

  it('is finished by the same Advance retried without an Idempotency-Key', async () => {
    const { api, clockId, subscriptionId } = await subscribedClock();
    await leaveAdvancing(clockId, MONTH_LATER, -1_000);
    expect((await api.get(`/api/TestClock/${clockId}`)).body.status).toBe('advancing');
    const retried = await api.post(`/api/TestClock/${clockId}/Advance`, { frozenTime: MONTH_LATER });
    expect(retried.status, retried.text).toBe(200);
    expect(retried.body).toMatchObject({ frozenTime: MONTH_LATER, status: 'ready', actionsRun: 1 });
    expect(await periodIndex(subscriptionId)).toBe(1);
  });

  it('refuses another time while its runner holds the lease (409), and takes over once the lease lapsed', async () => {
    const { api, clockId, subscriptionId } = await subscribedClock();
    await leaveAdvancing(clockId, MONTH_LATER, 60_000);
    const refused = await api.post(`/api/TestClock/${clockId}/Advance`, { frozenTime: TWO_MONTHS_LATER });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({ code: 'INVALID_STATE', state: 'advancing' });
    expect(await periodIndex(subscriptionId)).toBe(0);

    await leaveAdvancing(clockId, MONTH_LATER, -1_000);
    const takenOver = await api.post(`/api/TestClock/${clockId}/Advance`, { frozenTime: TWO_MONTHS_LATER });
    expect(takenOver.status, takenOver.text).toBe(200);
    // The abandoned month and the new one: two renewals, in time order.
    expect(takenOver.body).toMatchObject({ frozenTime: TWO_MONTHS_LATER, status: 'ready', actionsRun: 2 });
    expect(await periodIndex(subscriptionId)).toBe(2);
  });
});
