import { describe, expect, it } from 'vitest';
import { and, eq, ne } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { webhookAttempts, webhookDeliveries } from '@/lib/db/schema';
import { now } from '@/lib/clock';
import { loadOverview } from '@/lib/reports/overview';
import { seedSampleData } from '@/lib/server/sample-data/sample-data';
import { newMerchant } from '../helpers/merchants';
import { ik, oneTimePrice } from '../helpers/payments';
import { clockFor, customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const DAY = 86_400_000;

describe('overview figures', () => {
  it('sums known payments and refunds per currency, with outcomes and new customers', async () => {
    const { api, merchant } = await newMerchant();
    const usd = await oneTimePrice(api, 1000, 'USD');
    const eur = await oneTimePrice(api, 2550, 'EUR');
    const jpy = await oneTimePrice(api, 500, 'JPY');
    const pay = async (priceId: string, email: string, tokenRef = 'tok_visa', status = 201) => {
      const answer = await api.post('/api/Checkout', { priceId, customerEmail: email, tokenRef }, ik());
      expect(answer.status, answer.text).toBe(status);
      return answer.body;
    };
    const first = await pay(usd.id, 'a@example.com');
    await pay(usd.id, 'b@example.com');
    await pay(eur.id, 'a@example.com');
    await pay(jpy.id, 'c@example.com');
    await pay(usd.id, 'd@example.com', 'tok_declined', 402);
    const refund = await api.post(`/api/Payment/${first.payment.id}/Refund`, { amount: 300 }, ik());
    expect(refund.status, refund.text).toBe(201);

    const overview = await loadOverview(getDb(), merchant.id, { range: '7d', timeZone: 'UTC', at: now() });
    expect(overview.keys).toHaveLength(7);
    expect(overview.previousKeys).toHaveLength(7);
    expect(overview.keys.at(-1)).toBe(now().toISOString().slice(0, 10));
    expect(Object.keys(overview.grossVolume)).toEqual(['EUR', 'JPY', 'USD']);
    expect(sum(overview.grossVolume.USD!.current)).toBe(2000);
    expect(overview.grossVolume.USD!.current.at(-1)).toBe(2000);
    expect(sum(overview.netVolume.USD!.current)).toBe(1700);
    expect(sum(overview.grossVolume.EUR!.current)).toBe(2550);
    expect(sum(overview.grossVolume.JPY!.current)).toBe(500);
    expect(sum(overview.grossVolume.USD!.previous)).toBe(0);
    expect(overview.payments.current).toEqual({ succeeded: 4, failed: 1, unknown: 0 });
    expect(overview.payments.previous).toEqual({ succeeded: 0, failed: 0, unknown: 0 });
    const customers = await api.get('/api/Customer');
    expect(sum(overview.newCustomers.current)).toBe(customers.body.totalCount);
    expect(sum(overview.newCustomers.current)).toBe(4);
  });

  it('the 12-month range buckets by month and carries the same totals', async () => {
    const { api, merchant } = await newMerchant();
    const usd = await oneTimePrice(api, 4200, 'USD');
    expect((await api.post('/api/Checkout', { priceId: usd.id, customerEmail: 'm@example.com', tokenRef: 'tok_visa' }, ik())).status).toBe(201);
    const overview = await loadOverview(getDb(), merchant.id, { range: '12m', timeZone: 'Pacific/Auckland', at: now() });
    expect(overview.keys).toHaveLength(12);
    expect(overview.keys.every((key) => /^\d{4}-\d{2}$/.test(key))).toBe(true);
    expect(overview.grossVolume.USD!.current.at(-1)).toBe(4200);
  });

  it('MRR moves with starts, upgrades, yearly plans and churn; active subscriptions follow the clock', async () => {
    const { api, merchant } = await newMerchant();
    const basic = await recurringPrice(api, { amount: 1000, name: 'Basic' });
    const pro = await recurringPrice(api, { amount: 3000, productId: basic.productId });
    const yearly = await recurringPrice(api, { amount: 120_000, interval: 'year', name: 'Yearly' });

    // On a test clock three days ago: the start lands on that day.
    const early = await customerWithCard(api, merchant.id);
    const threeDaysAgo = new Date(now().getTime() - 3 * DAY).toISOString();
    await clockFor(api, early.customerId, threeDaysAgo);
    expect((await subscribe(api, { customerId: early.customerId, priceId: basic.id })).status).toBe(201);

    const upgrader = await customerWithCard(api, merchant.id);
    const upgraded = (await subscribe(api, { customerId: upgrader.customerId, priceId: basic.id })).body;
    const change = await api.post(`/api/Subscription/${upgraded.id}/Command`, { type: 'ChangePrice', priceId: pro.id }, ik());
    expect(change.status, change.text).toBe(200);

    const annual = await customerWithCard(api, merchant.id);
    expect((await subscribe(api, { customerId: annual.customerId, priceId: yearly.id })).status).toBe(201);

    const churner = await customerWithCard(api, merchant.id);
    const churned = (await subscribe(api, { customerId: churner.customerId, priceId: pro.id })).body;
    const cancel = await api.post(`/api/Subscription/${churned.id}/Cancel`, { immediate: true }, ik());
    expect(cancel.status, cancel.text).toBe(200);

    const overview = await loadOverview(getDb(), merchant.id, { range: '30d', timeZone: 'UTC', at: now() });
    // basic 1000 + pro 3000 (upgraded) + yearly 120000/12; the canceled pro is gone.
    expect(overview.mrr.USD!.current.at(-1)).toBe(1000 + 3000 + 10_000);
    expect(overview.mrrMovement.USD!.current).toEqual({ new: 1000 + 1000 + 10_000 + 3000, expansion: 2000, contraction: 0, churn: -3000 });
    expect(overview.activeSubscriptions.current.at(-1)).toBe(3);
    const threeDaysAgoIndex = overview.keys.indexOf(threeDaysAgo.slice(0, 10));
    expect(overview.activeSubscriptions.current[threeDaysAgoIndex]).toBe(1);
    expect(overview.activeSubscriptions.current[threeDaysAgoIndex - 1]).toBe(0);
    expect(overview.mrr.USD!.current[threeDaysAgoIndex]).toBe(1000);
    expect(overview.activeSubscriptions.previous.every((value) => value === 0)).toBe(true);
  });
});

describe('sample data', () => {
  it('fills a seller through the domain functions, once, and the overview sums what the API lists', async () => {
    const { api, merchant } = await newMerchant();
    expect(await seedSampleData(getDb(), merchant.id, 12)).toBe(true);
    expect(await seedSampleData(getDb(), merchant.id, 12)).toBe(false);
    const listed = (await api.get('/api/Payment?pageSize=100')).body as {
      totalCount: number;
      data: { status: string; amount: number; currency: string; createdAt: string }[];
    };
    expect(listed.totalCount).toBeGreaterThan(20);
    expect(listed.totalCount).toBeLessThanOrEqual(100);
    const days = new Set(listed.data.map((p) => p.createdAt.slice(0, 10)));
    expect(days.size).toBeGreaterThan(8);
    const overview = await loadOverview(getDb(), merchant.id, { range: '30d', timeZone: 'UTC', at: now() });
    for (const currency of ['USD', 'EUR']) {
      const gross = listed.data
        .filter((p) => p.currency === currency && ['succeeded', 'partially_refunded', 'refunded'].includes(p.status))
        .reduce((a, p) => a + p.amount, 0);
      expect(sum(overview.grossVolume[currency]!.current)).toBe(gross);
    }
    expect(overview.payments.current.failed).toBe(listed.data.filter((p) => p.status === 'failed').length);
    const subscriptions = (await api.get('/api/Subscription?pageSize=100')).body as { data: { status: string }[] };
    expect(overview.activeSubscriptions.current.at(-1)).toBe(subscriptions.data.filter((s) => s.status !== 'ended').length);
    // Webhook deliveries to the sample receiver: most delivered, failures retried, some dead; the endpoint is left disabled.
    const endpoints = (await api.get('/api/WebhookEndpoint')).body as { data: { id: string; enabled: boolean }[] };
    expect(endpoints.data).toHaveLength(1);
    expect(endpoints.data[0]!.enabled).toBe(false);
    const deliveries = await getDb()
      .select({ status: webhookDeliveries.status, attempts: webhookDeliveries.attemptCount })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.merchantId, merchant.id));
    const delivered = deliveries.filter((d) => d.status === 'delivered');
    expect(delivered.length).toBeGreaterThan(deliveries.length / 2);
    expect(delivered.some((d) => d.attempts > 1)).toBe(true);
    const failedStatuses = await getDb()
      .selectDistinct({ status: webhookAttempts.responseStatus })
      .from(webhookAttempts)
      .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
      .where(and(eq(webhookDeliveries.merchantId, merchant.id), ne(webhookAttempts.responseStatus, 200)));
    expect(failedStatuses.map((a) => a.status)).toContain(500);
    expect(overview.webhookDeliveries.current.delivered).toBe(delivered.length);
  });
});
