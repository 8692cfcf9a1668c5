import crypto from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../setup/server';
import { call as callApi } from '../helpers/api';
import { eventually } from '../helpers/webhook-receiver';

/**
 * Issue 31's metered renewals against a server whose sandbox processor takes 300 ms a call, as a
 * network would: the renewal's charge (the advance and the ended period's usage), an ended
 * subscription's last usage and a usage threshold are each charged once, for what was pinned.
 */
const ENV = { SANDBOX_PROCESSOR_LATENCY_MS: '300' };

let server: RunningServer | undefined;

afterAll(async () => {
  await server?.stop();
});

async function call(key: string, method: string, path: string, body?: unknown) {
  const answer = await callApi(method, path, { key, body, headers: { 'idempotency-key': crypto.randomUUID() }, baseUrl: server!.baseUrl });
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
  return answer.body;
}

async function records(key: string, subscriptionId: string) {
  const list = await call(key, 'GET', `/api/BillingRecord?subscriptionId=${subscriptionId}&pageSize=100&orderDirection=asc`);
  return Promise.all(list.data.map((row: { id: string }) => call(key, 'GET', `/api/BillingRecord/${row.id}`)));
}

describe('metered renewals with a slow processor', () => {
  it('bills each subscription’s usage once: the renewal, the last usage of a canceled one, a threshold', async () => {
    server = await startServer({ env: ENV });
    const key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
    const product = await call(key, 'POST', '/api/Product', { name: 'API' });
    const price = await call(key, 'POST', '/api/Price', {
      productId: product.id,
      type: 'Recurring',
      currency: 'USD',
      interval: 'month',
      usageType: 'metered',
      feature: 'api_calls',
      amount: 5,
    });
    const clock = await call(key, 'POST', '/api/TestClock', { name: 'slow', frozenTime: '2026-01-10T12:00:00.000Z' });
    const subscriber = async (email: string, extra: Record<string, unknown> = {}) => {
      const customer = await call(key, 'POST', '/api/Customer', { email, name: 'Grace' });
      await call(key, 'POST', `/api/TestClock/${clock.id}/Customer`, { customerId: customer.id });
      const card = await call(key, 'POST', `/api/Customer/${customer.id}/PaymentMethod`, { tokenRef: 'tok_visa' });
      const sub = await call(key, 'POST', '/api/Subscription', { customerId: customer.id, priceId: price.id, paymentMethodId: card.id, ...extra });
      return { customerId: customer.id as string, subscriptionId: sub.id as string };
    };
    const renewing = await subscriber('renewing@example.com');
    const canceled = await subscriber('canceled@example.com');
    const thresholded = await subscriber('threshold@example.com', { usageThresholdAmount: 1000 });

    await call(key, 'POST', '/api/Usage', { customerId: renewing.customerId, feature: 'api_calls', quantity: 1234 });
    await call(key, 'POST', '/api/Usage', { customerId: canceled.customerId, feature: 'api_calls', quantity: 100 });
    await call(key, 'POST', `/api/Subscription/${canceled.subscriptionId}/Cancel`, { immediate: false });
    await call(key, 'POST', '/api/Usage', { customerId: thresholded.customerId, feature: 'api_calls', quantity: 300 });
    // 300 units (1,500) reach the threshold: the worker bills them on a record of their own.
    await eventually(async () =>
      (await records(key, thresholded.subscriptionId)).some((r: { status: string; total: number }) => r.total === 1500 && r.status === 'paid')
        ? true
        : undefined,
    );

    await call(key, 'POST', `/api/TestClock/${clock.id}/Advance`, { frozenTime: '2026-02-10T13:00:00.000Z' });

    const [, renewal] = await records(key, renewing.subscriptionId);
    expect(renewal).toMatchObject({ status: 'paid', periodIndex: 1, total: 6170, amountPaid: 6170 });
    expect(renewal.lineItems[1]).toMatchObject({ kind: 'usage', quantity: 1234, amount: 6170 });
    expect(await call(key, 'GET', `/api/Payment/${renewal.paymentId}`)).toMatchObject({ status: 'succeeded', amount: 6170 });

    const canceledRecords = await records(key, canceled.subscriptionId);
    expect(canceledRecords).toHaveLength(2);
    expect(canceledRecords[1]).toMatchObject({ status: 'paid', total: 500, lineItems: [{ kind: 'usage', quantity: 100, amount: 500 }] });

    // Billed once at the threshold, so the renewal has no usage left to bill.
    const thresholdRecords = await records(key, thresholded.subscriptionId);
    expect(thresholdRecords.map((r: { total: number }) => r.total)).toEqual([0, 1500, 0]);
    expect(thresholdRecords.every((r: { status: string }) => r.status === 'paid')).toBe(true);
  }, 240_000);
});
