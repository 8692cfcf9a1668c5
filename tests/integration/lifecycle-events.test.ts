import { describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { events } from '@/lib/db/schema';
import { newMerchant } from '../helpers/merchants';
import { adHocLink, eventsOf, ik, oneTimePrice, waitFor } from '../helpers/payments';
import { advance, clockFor, customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

type Event = { id: string; type: string; createdAt: Date; data: any };

/** The merchant's events in the order they were recorded (ids are monotonic). */
async function allEvents(merchantId: string): Promise<Event[]> {
  return (await getDb().select().from(events).where(eq(events.merchantId, merchantId)).orderBy(asc(events.id))) as Event[];
}

function typesOf(list: Event[], keep: readonly string[]) {
  return list.filter((e) => keep.includes(e.type)).map((e) => e.type);
}

const CHARGE_EVENTS = ['billing_record.created', 'payment.succeeded', 'billing_record.paid'] as const;

describe('lifecycle events', () => {
  it('PUTs, archive, disable/enable and price deactivation emit *.updated with the previous values; a no-op emits nothing', async () => {
    const { api, merchant } = await newMerchant();
    const customer = (await api.post('/api/Customer', { email: 'old@example.com', name: 'Old' })).body;
    await api.put(`/api/Customer/${customer.id}`, { name: 'New', status: 'archived' });
    await api.put(`/api/Customer/${customer.id}`, { name: 'New' });
    const customerUpdates = await eventsOf(merchant.id, 'customer.updated');
    expect(customerUpdates).toHaveLength(1);
    expect(customerUpdates[0]!.data).toMatchObject({
      object: { id: customer.id, name: 'New', status: 'archived' },
      previousAttributes: { name: 'Old', status: 'active' },
    });

    const price = await oneTimePrice(api, 500);
    await api.put(`/api/Product/${price.productId}`, { active: false });
    await api.put(`/api/Price/${price.id}`, { active: false });
    const [product] = await eventsOf(merchant.id, 'product.updated');
    expect(product!.data).toMatchObject({ object: { id: price.productId, active: false }, previousAttributes: { active: true } });
    const [priceUpdate] = await eventsOf(merchant.id, 'price.updated');
    expect(priceUpdate!.data).toMatchObject({ object: { id: price.id, active: false }, previousAttributes: { active: true } });

    const link = await adHocLink(api);
    await api.put(`/api/PaymentLink/${link.id}`, { name: 'Two hours' });
    await api.post(`/api/PaymentLink/${link.id}/Disable`);
    await api.post(`/api/PaymentLink/${link.id}/Enable`);
    await api.post(`/api/PaymentLink/${link.id}/Archive`);
    const linkUpdates = (await eventsOf(merchant.id, 'payment_link.updated')).map((e) => (e.data as any).previousAttributes);
    expect(linkUpdates).toEqual([{ name: 'Consulting hour' }, { status: 'active' }, { status: 'disabled' }, { status: 'active' }]);
  });

  it('every subscription change emits subscription.updated with what changed; events of a test clock carry its time', async () => {
    const { api, merchant } = await newMerchant();
    const basic = await recurringPrice(api, { amount: 1000 });
    const pro = await recurringPrice(api, { amount: 3000, productId: basic.productId });
    const { customerId } = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2025-03-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: basic.id })).body;
    const command = (body: Record<string, unknown>) => api.post(`/api/Subscription/${sub.id}/Command`, body, ik());

    await advance(api, clock, '2025-03-16T00:00:00.000Z');
    expect((await command({ type: 'ChangePrice', priceId: pro.id })).status).toBe(200);
    expect((await command({ type: 'Pause' })).status).toBe(200);
    expect((await command({ type: 'Resume' })).status).toBe(200);
    expect((await command({ type: 'CancelAtPeriodEnd' })).status).toBe(200);
    expect((await command({ type: 'Reactivate' })).status).toBe(200);

    const updates = await eventsOf(merchant.id, 'subscription.updated');
    const previous = updates.map((e) => (e.data as any).previousAttributes);
    expect(previous[0]).toMatchObject({ priceId: basic.id });
    expect(previous[1]).toEqual({ pausedAt: null });
    expect(previous[2]).toEqual({ pausedAt: '2025-03-16T00:00:00.000Z' });
    expect(previous[3]).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, canceledAt: null });
    expect(previous[4]).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: true });
    expect(updates.every((e) => e.createdAt.toISOString() === '2025-03-16T00:00:00.000Z')).toBe(true);

    // The proration charge tells its story in the one order, naming the subscription and period.
    const all = await allEvents(merchant.id);
    const afterCreate = all.slice(all.findIndex((e) => e.type === 'subscription.created') + 1);
    expect(typesOf(afterCreate, CHARGE_EVENTS)).toEqual([...CHARGE_EVENTS]);
    const proration = afterCreate.find((e) => e.type === 'payment.succeeded')!;
    expect(proration.data.object).toMatchObject({
      subscriptionId: sub.id,
      periodIndex: 0,
      periodStart: '2025-03-01T00:00:00.000Z',
      periodEnd: '2025-04-01T00:00:00.000Z',
    });

    // The renewal at the period end: the same order, period 1, dated at the boundary.
    await advance(api, clock, '2025-04-02T00:00:00.000Z');
    const renewal = (await allEvents(merchant.id)).filter((e) => e.data.object?.periodIndex === 1);
    expect(renewal.map((e) => e.type)).toEqual([...CHARGE_EVENTS]);
    expect(renewal.every((e) => e.createdAt.toISOString() === '2025-04-01T00:00:00.000Z')).toBe(true);
    expect(renewal[1]!.data.object).toMatchObject({ subscriptionId: sub.id, periodStart: '2025-04-01T00:00:00.000Z', periodEnd: '2025-05-01T00:00:00.000Z' });
  });

  it('a one-time checkout records billing_record.created before payment.succeeded', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 700);
    const paid = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'order@example.com', tokenRef: 'tok_visa' }, ik());
    expect(paid.status, paid.text).toBe(201);
    expect(typesOf(await allEvents(merchant.id), CHARGE_EVENTS)).toEqual([...CHARGE_EVENTS]);
  });

  it('a recurring charge of unknown outcome settles on the reconciliation delay and the subscription is active at once', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1234 });
    const { customerId } = await customerWithCard(api, merchant.id, '4000000000000259');
    const created = await subscribe(api, { customerId, priceId: price.id });
    expect(created.status, created.text).toBe(201);
    expect(created.body.status).toBe('past_due');
    // No clock moves and no cron runs: the reconciliation job (PAYMENT_RECONCILE_DELAY_MS) settles it.
    const active = await waitFor(async () => {
      const sub = (await api.get(`/api/Subscription/${created.body.id}`)).body;
      return sub.status === 'active' ? sub : undefined;
    }, 25_000);
    expect(active.latestBillingRecord).toMatchObject({ status: 'paid', attempts: 1, nextAttemptAt: null });
    const [succeeded] = await eventsOf(merchant.id, 'payment.succeeded');
    expect((succeeded!.data as any).object).toMatchObject({ subscriptionId: created.body.id, periodIndex: 0 });
    expect(await eventsOf(merchant.id, 'subscription.updated')).toHaveLength(1);
  });
});
