import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { now } from '@/lib/clock';
import { loadPlatformOverview } from '@/lib/operator/platform-overview';
import { loadSellerProfile } from '@/lib/operator/seller-profile';
import { newMerchant } from '../helpers/merchants';
import { ik, oneTimePrice } from '../helpers/payments';
import { eventually, startReceiver } from '../helpers/webhook-receiver';
import { call } from '../helpers/api';
import { freshIp, newAdmin } from '../helpers/sessions';

// No other test pays in rials of Oman, so the platform's OMR figures are exactly this file's.
const CURRENCY = 'OMR';
type Seller = Awaited<ReturnType<typeof newMerchant>>;

async function pay(seller: Seller, amount: number, tokenRef = 'tok_visa') {
  const price = await oneTimePrice(seller.api, amount, CURRENCY);
  const answer = await seller.api.post('/api/Checkout', { priceId: price.id, customerEmail: 'buyer@example.com', tokenRef }, ik());
  expect([201, 402]).toContain(answer.status);
  return answer;
}

describe('platform overview', () => {
  it('sums volume per currency and day across sellers and ranks sellers by volume', async () => {
    const big = await newMerchant();
    const small = await newMerchant();
    await pay(big, 1500);
    await pay(big, 2250);
    await pay(big, 999, 'tok_declined');
    await pay(small, 250);
    const refunded = await pay(small, 100);
    await small.api.post(`/api/Payment/${refunded.body.payment.id}/Refund`, {}, ik());

    const overview = await loadPlatformOverview(getDb(), { range: '7d', at: now() });
    const volume = overview.volume[CURRENCY]!;
    // Succeeded payments count by the day they were made, refunded ones included: 1.500 + 2.250 + 0.250 + 0.100.
    expect(volume.current.at(-1)).toBe(4100);
    expect(volume.current.slice(0, -1).every((value) => value === 0)).toBe(true);
    expect(volume.previous.every((value) => value === 0)).toBe(true);
    expect(overview.keys).toHaveLength(7);
    expect(overview.keys.at(-1)).toBe(now().toISOString().slice(0, 10));
    expect(overview.topSellers[CURRENCY]).toEqual([
      { merchantId: big.merchant.id, name: big.merchant.name, status: 'active', currency: CURRENCY, volume: 3750, payments: 2 },
      { merchantId: small.merchant.id, name: small.merchant.name, status: 'active', currency: CURRENCY, volume: 350, payments: 2 },
    ]);
    // Payments of every outcome and currency: at least this test's five today.
    expect(overview.payments.current.at(-1)).toBeGreaterThanOrEqual(5);

    const profile = await loadSellerProfile(getDb(), big.merchant.id, now());
    expect(profile.overview.grossVolume[CURRENCY]!.current.at(-1)).toBe(3750);
    expect(profile.overview.payments.current).toEqual({ succeeded: 2, failed: 1, unknown: 0 });
  });

  it('counts the reconciliation backlog and the job queue by task, with the oldest due job age', async () => {
    const seller = await newMerchant();
    const unknown = await pay(seller, 700, 'tok_unknown');
    expect(unknown.body.payment?.status ?? unknown.body.checkout?.payment?.status).toBe('unknown');
    const jobKey = `overview-probe-${Date.now()}`;
    // A job of a task no worker runs, due ten minutes ago: it waits in the queue until removed.
    await getDb().execute(
      sql`select graphile_worker.add_job('operator-overview-probe', '{}'::json, run_at := now() - interval '10 minutes', job_key := ${jobKey})`,
    );
    try {
      const overview = await loadPlatformOverview(getDb(), { range: '7d', at: now() });
      expect(overview.reconciliation.unknown).toBeGreaterThanOrEqual(1);
      expect(overview.jobQueue.byTask.find((task) => task.task === 'operator-overview-probe')).toEqual({
        task: 'operator-overview-probe',
        due: 1,
        running: 0,
        failed: 0,
      });
      expect(overview.jobQueue.oldestDueSeconds).toBeGreaterThanOrEqual(590);
    } finally {
      await getDb().execute(sql`select graphile_worker.remove_job(${jobKey})`);
    }
  });

  it('shows a failing endpoint and its dead deliveries across sellers and on the seller page', async () => {
    const receiver = await startReceiver(() => ({ status: 500 }));
    try {
      const seller = await newMerchant();
      const { body: endpoint } = await seller.api.post('/api/WebhookEndpoint', { url: `${receiver.url}/hook`, events: ['product.created'] });
      await seller.api.post('/api/Product', { name: 'Probe' });
      // The test server's compressed schedule kills a delivery after eight attempts in a few seconds.
      const profile = await eventually(
        async () => {
          const current = await loadSellerProfile(getDb(), seller.merchant.id, now());
          return current.endpoints[0]?.dead === 1 ? current : undefined;
        },
        30_000,
        'the delivery to die',
      );
      expect(profile.endpoints[0]).toMatchObject({ id: endpoint.id, enabled: true, delivered: 0, dead: 1, retrying: 0 });
      expect(profile.endpoints[0]!.failingSince).toBeInstanceOf(Date);

      const overview = await loadPlatformOverview(getDb(), { range: '7d', at: now() });
      expect(overview.deadDeliveries.current).toBeGreaterThanOrEqual(1);
      expect(overview.unhealthyEndpoints.total).toBeGreaterThanOrEqual(1);
    } finally {
      await receiver.close();
    }
  });

  it('lists the seller page parts: keys by prefix, recent requests and failures, suspension history', async () => {
    const seller = await newMerchant();
    await seller.api.get('/api/Product');
    await seller.api.get('/api/Product/prod_missing');
    const admin = await newAdmin();
    await call('POST', `/api/AdminMerchant/${seller.merchant.id}/Suspend`, { key: admin.tokens.accessToken, body: { reason: 'Review' }, headers: freshIp() });
    await call('POST', `/api/AdminMerchant/${seller.merchant.id}/Reinstate`, {
      key: admin.tokens.accessToken,
      body: { reason: 'Cleared' },
      headers: freshIp(),
    });
    const profile = await eventually(
      async () => {
        const current = await loadSellerProfile(getDb(), seller.merchant.id, now());
        return current.recentRequests.length >= 2 ? current : undefined;
      },
      10_000,
      'request logs to be written',
    );
    expect(profile.apiKeys).toEqual([expect.objectContaining({ id: seller.keyId, prefix: seller.key.slice(0, 11) })]);
    expect(JSON.stringify(profile.apiKeys)).not.toContain(seller.key);
    expect(profile.recentFailures.map((r) => [r.path, r.status])).toEqual([['/api/Product/prod_missing', 404]]);
    expect(profile.suspensions.map((e) => [e.action, e.actorLabel, e.metadata.reason])).toEqual([
      ['merchant.reinstated', admin.name, 'Cleared'],
      ['merchant.suspended', admin.name, 'Review'],
    ]);
  });
});
