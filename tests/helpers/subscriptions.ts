import { expect } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { payments } from '@/lib/db/schema';
import { savePaymentMethod } from '@/lib/payments/payment-methods';
import { SandboxProcessor } from '@/lib/payments/processor/sandbox';
import type { client } from './api';
import { ik } from './payments';

type Api = ReturnType<typeof client>;

export const CARDS = { visa: '4242424242424242', declined: '4000000000000002', insufficient: '4000000000009995' } as const;

export async function recurringPrice(
  api: Api,
  input: { amount: number; currency?: string; interval?: string; intervalCount?: number; trialDays?: number; productId?: string; name?: string },
) {
  const productId = input.productId ?? (await api.post('/api/Product', { name: input.name ?? 'Pro plan' })).body.id;
  const answer = await api.post('/api/Price', {
    productId,
    type: 'Recurring',
    amount: input.amount,
    currency: input.currency ?? 'USD',
    interval: input.interval ?? 'month',
    ...(input.intervalCount ? { intervalCount: input.intervalCount } : {}),
    ...(input.trialDays ? { trialDays: input.trialDays } : {}),
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { id: string; amount: number; currency: string; productId: string };
}

/** A customer with a saved card (the sandbox card number decides every charge's outcome). */
export async function customerWithCard(
  api: Api,
  merchantId: string,
  number: string = CARDS.visa,
  email = `c-${Math.random().toString(36).slice(2)}@example.com`,
) {
  const customer = await api.post('/api/Customer', { email, name: 'Grace' });
  expect(customer.status, customer.text).toBe(201);
  const card = await new SandboxProcessor().tokenizeCard({ number, expMonth: 12, expYear: 2040, cvc: '123' });
  const method = await getDb().transaction((tx) => savePaymentMethod(tx, merchantId, customer.body.id, card));
  return { customerId: customer.body.id as string, paymentMethodId: method.id, email };
}

/** A test clock at `at` with the customer attached. */
export async function clockFor(api: Api, customerId: string, at: string) {
  const clock = await api.post('/api/TestClock', { name: 'test', frozenTime: at });
  expect(clock.status, clock.text).toBe(201);
  const attached = await api.post(`/api/TestClock/${clock.body.id}/Customer`, { customerId });
  expect(attached.status, attached.text).toBe(200);
  return clock.body.id as string;
}

export async function advance(api: Api, clockId: string, to: string) {
  const answer = await api.post(`/api/TestClock/${clockId}/Advance`, { frozenTime: to });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

export async function subscribe(api: Api, body: Record<string, unknown>) {
  return api.post('/api/Subscription', body, ik());
}

/** How many payments (any status) the merchant has: a charge that must not happen shows here. */
export async function paymentCount(merchantId: string) {
  const [row] = await getDb().select({ value: count() }).from(payments).where(eq(payments.merchantId, merchantId));
  return row!.value;
}
