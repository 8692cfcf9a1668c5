import crypto from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { getDb } from '@/lib/db/client';
import { events } from '@/lib/db/schema';
import type { client } from './api';

type Api = ReturnType<typeof client>;

export const ik = () => ({ 'Idempotency-Key': crypto.randomUUID() });

export async function oneTimePrice(api: Api, amount: number, currency = 'USD', name = 'T-shirt') {
  const product = await api.post('/api/Product', { name, description: `${name} description` });
  const price = await api.post('/api/Price', { productId: product.body.id, type: 'OneTime', amount, currency });
  expect(price.status).toBe(201);
  return price.body as { id: string; amount: number; currency: string; productId: string };
}

export async function adHocLink(api: Api, overrides: Record<string, unknown> = {}) {
  const answer = await api.post('/api/PaymentLink', { name: 'Consulting hour', unitAmount: 5000, currency: 'USD', ...overrides });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

export async function eventsOf(merchantId: string, type: string) {
  return getDb()
    .select()
    .from(events)
    .where(and(eq(events.merchantId, merchantId), eq(events.type, type)))
    .orderBy(events.createdAt, events.id);
}

export async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
