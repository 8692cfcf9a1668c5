import { expect } from 'vitest';
import type { client } from './api';

type Api = ReturnType<typeof client>;

/** A metered price of `api_calls` by default (`fields` add or override), on a new product unless `productId` is given. */
export async function meteredPrice(api: Api, fields: Record<string, unknown>) {
  const productId = (fields.productId as string | undefined) ?? (await api.post('/api/Product', { name: 'API' })).body.id;
  const answer = await api.post('/api/Price', {
    type: 'Recurring',
    currency: 'USD',
    interval: 'month',
    usageType: 'metered',
    feature: 'api_calls',
    ...fields,
    productId,
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { id: string; productId: string };
}

export async function recordUsage(api: Api, body: Record<string, unknown>) {
  const answer = await api.post('/api/Usage', body);
  expect(answer.status, answer.text).toBe(201);
  return answer.body.usage as { id: string; timestamp: string; creditsUsed: number };
}

export interface RecordLine {
  kind: string;
  priceId: string | null;
  quantity: number;
  amount: number;
  feature?: string;
  periodStart?: string;
  periodEnd?: string;
  tiers?: unknown[];
}

export interface SubscriptionRecord {
  id: string;
  status: string;
  periodIndex: number | null;
  total: number;
  amountPaid: number;
  paymentId: string | null;
  description: string;
  lineItems: RecordLine[];
}

/** The subscription's billing records, oldest first, each read whole. */
export async function subscriptionRecords(api: Api, subscriptionId: string): Promise<SubscriptionRecord[]> {
  const list = await api.get(`/api/BillingRecord?subscriptionId=${subscriptionId}&pageSize=100&orderDirection=asc`);
  expect(list.status, list.text).toBe(200);
  return Promise.all(list.body.data.map(async (row: { id: string }) => (await api.get(`/api/BillingRecord/${row.id}`)).body));
}

/** The record of a period's renewal (its description names the period). */
export async function periodRecord(api: Api, subscriptionId: string, periodIndex: number) {
  const record = (await subscriptionRecords(api, subscriptionId)).find((r) => r.periodIndex === periodIndex && r.description.includes('subscription period'));
  expect(record, `period ${periodIndex} of ${subscriptionId}`).toBeDefined();
  return record!;
}

export const usageLines = (record: SubscriptionRecord) => record.lineItems.filter((line) => line.kind === 'usage');
