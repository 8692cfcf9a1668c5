import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { getCustomerUsageHistory } from '@/lib/usage/usage-history';
import { newMerchant } from '../helpers/merchants';
import { ik } from '../helpers/payments';
import { advance, clockFor, customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

type Api = Awaited<ReturnType<typeof newMerchant>>['api'];

async function record(api: Api, customerId: string, feature: string, quantity: number, timestamp: string) {
  const answer = await api.post('/api/Usage', { customerId, feature, quantity, timestamp });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.usage as { id: string };
}

describe('The customer page’s usage chart: units per day over the current and the previous period', () => {
  it('lines the two periods up day by day, stops at the customer’s today, leaves out reversed records and other customers', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1000 });
    expect((await api.post(`/api/Price/${price.id}/EntitlementPolicy`, { feature: 'messages', allowed: 'Limited', limit: 100 })).status).toBe(201);
    const { customerId } = await customerWithCard(api, merchant.id);
    const other = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customerId, '2030-01-01T00:00:00.000Z');
    expect((await subscribe(api, { customerId, priceId: price.id })).status).toBe(201);

    // Period 0 (January): Jan 3 falls before the 28 days charted as "previous" for February.
    await record(api, customerId, 'messages', 9, '2030-01-03T10:00:00Z');
    await record(api, customerId, 'messages', 5, '2030-01-10T08:00:00Z');
    await record(api, customerId, 'messages', 2, '2030-01-10T23:59:59Z');
    await record(api, customerId, 'messages', 4, '2030-01-31T12:00:00Z');
    // Period 1 (February, 28 days), the customer's clock at Feb 5.
    await advance(api, clock, '2030-02-05T09:00:00.000Z');
    await record(api, customerId, 'messages', 3, '2030-02-01T00:00:00Z');
    await record(api, customerId, 'messages', 1, '2030-02-03T15:00:00Z');
    const reversed = await record(api, customerId, 'messages', 7, '2030-02-03T16:00:00Z');
    expect((await api.post(`/api/Usage/${reversed.id}/Reverse`, {}, ik())).status).toBe(200);
    await record(api, other.customerId, 'messages', 50, '2030-02-02T00:00:00Z');

    const history = await getCustomerUsageHistory(getDb(), merchant.id, customerId);
    expect(history.data).toHaveLength(1);
    const messages = history.data[0]!;
    expect(messages).toMatchObject({
      feature: 'messages',
      resets: true,
      start: '2030-02-01T00:00:00.000Z',
      end: '2030-03-01T00:00:00.000Z',
      previousStart: '2030-01-04T00:00:00.000Z',
    });
    expect(messages.days).toHaveLength(28);
    expect([messages.days[0], messages.days.at(-1)]).toEqual(['2030-02-01', '2030-02-28']);
    expect([messages.previousDays[0], messages.previousDays.at(-1)]).toEqual(['2030-01-04', '2030-01-31']);
    expect(messages.current).toEqual([3, 0, 1, 0, 0]);
    const previous = new Array(28).fill(0);
    previous[6] = 7; // Jan 10: 5 + 2
    previous[27] = 4; // Jan 31
    expect(messages.previous).toEqual(previous);

    // Another merchant sees nothing of this customer.
    const stranger = await newMerchant();
    await expect(getCustomerUsageHistory(getDb(), stranger.merchant.id, customerId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('charts a feature that never resets over its last 30 days against the 30 before', async () => {
    const { api, merchant } = await newMerchant();
    const { customerId } = await customerWithCard(api, merchant.id);
    await clockFor(api, customerId, '2030-06-30T12:00:00.000Z');
    const grant = await api.post(`/api/Customer/${customerId}/CreditGrant`, { feature: 'exports', amount: 100, reason: 'pack' }, ik());
    expect(grant.status, grant.text).toBe(201);
    await record(api, customerId, 'exports', 2, '2030-06-30T08:00:00Z');
    await record(api, customerId, 'exports', 6, '2030-05-31T08:00:00Z');
    await record(api, customerId, 'exports', 1, '2030-05-01T08:00:00Z');

    const [exports] = (await getCustomerUsageHistory(getDb(), merchant.id, customerId)).data;
    expect(exports).toMatchObject({
      feature: 'exports',
      resets: false,
      start: '2030-06-01T00:00:00.000Z',
      end: '2030-07-01T00:00:00.000Z',
      previousStart: '2030-05-02T00:00:00.000Z',
    });
    expect(exports!.current).toHaveLength(30);
    expect(exports!.current.at(-1)).toBe(2);
    expect(exports!.previous.reduce((a, b) => a + b, 0)).toBe(6);
    expect(exports!.previous.at(-1)).toBe(6);
  });
});
