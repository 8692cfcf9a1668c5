import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { customerIdsByEmail, customersByIds } from '@/lib/customers/customers';
import { listPayments } from '@/lib/payments/payments';
import { refundPayment } from '@/lib/payments/refunds';
import { runConsoleOnce } from '@/lib/server/web/console-once';
import { newMerchant } from '../helpers/merchants';
import { eventsOf, ik, oneTimePrice } from '../helpers/payments';

async function paid(api: Awaited<ReturnType<typeof newMerchant>>['api'], amount: number, email: string) {
  const price = await oneTimePrice(api, amount);
  const checkout = await api.post('/api/Checkout', { priceId: price.id, customerEmail: email, tokenRef: 'tok_visa' }, ik());
  expect(checkout.status, checkout.text).toBe(201);
  return checkout.body.payment as { id: string; customerId: string };
}

const consoleKey = () => crypto.randomBytes(16).toString('base64url');

describe('console refunds run once per form key', () => {
  it('refunds once under 10 concurrent submits of the same form, and replays the answer', async () => {
    const { api, merchant } = await newMerchant();
    const payment = await paid(api, 1000, 'twice@example.com');
    const key = consoleKey();
    const submit = () =>
      runConsoleOnce(getDb(), { merchantId: merchant.id, key, action: `refund:${payment.id}`, body: { amount: 500 } }, (tx) =>
        refundPayment(tx, merchant.id, payment.id, { amount: 500 }),
      );
    const answers = await Promise.all(Array.from({ length: 10 }, submit));
    expect(new Set(answers.map((a) => a.result.id)).size).toBe(1);
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    expect((await api.get(`/api/Payment/${payment.id}`)).body).toMatchObject({ status: 'partially_refunded', amountRefunded: 500 });
    expect(await eventsOf(merchant.id, 'refund.succeeded')).toHaveLength(1);
    // Later, the same form again: the stored answer, still one refund.
    const again = await submit();
    expect(again).toMatchObject({ replayed: true, result: { id: answers[0]!.result.id, amount: 500 } });
    expect((await api.get(`/api/Payment/${payment.id}/Refund`)).body.data).toHaveLength(1);
  });

  it('frees the key after a failure so the corrected form can be sent, and refuses other values for a used key', async () => {
    const { api, merchant } = await newMerchant();
    const payment = await paid(api, 1000, 'fix@example.com');
    const key = consoleKey();
    const run = (amount: number) =>
      runConsoleOnce(getDb(), { merchantId: merchant.id, key, action: `refund:${payment.id}`, body: { amount } }, (tx) =>
        refundPayment(tx, merchant.id, payment.id, { amount }),
      );
    await expect(run(1001)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await api.get(`/api/Payment/${payment.id}`)).body.amountRefunded).toBe(0);
    expect((await run(1000)).result).toMatchObject({ status: 'succeeded', amount: 1000 });
    await expect(run(999)).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect((await api.get(`/api/Payment/${payment.id}`)).body).toMatchObject({ status: 'refunded', amountRefunded: 1000 });
  });

  it('rejects a malformed key and never shares keys with the API', async () => {
    const { merchant } = await newMerchant();
    const error = await runConsoleOnce(getDb(), { merchantId: merchant.id, key: 'short', action: 'x', body: {} }, async () => 1).catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('VALIDATION_FAILED');
    const key = consoleKey();
    expect(await runConsoleOnce(getDb(), { merchantId: merchant.id, key, action: 'x', body: {} }, async () => ({ n: 1 }))).toEqual({
      result: { n: 1 },
      replayed: false,
    });
  });
});

describe('console payment list helpers', () => {
  it('filters payments by every customer record with an email, and labels customers', async () => {
    const { api, merchant } = await newMerchant();
    const a = await paid(api, 100, 'Alice@Example.com');
    await paid(api, 200, 'bob@example.com');
    const db = getDb();
    const ids = await customerIdsByEmail(db, merchant.id, 'alice@example.com');
    expect(ids).toEqual([a.customerId]);
    const base = { page: 1, pageSize: 20, orderBy: 'createdAt' as const, orderDirection: 'desc' as const };
    expect((await listPayments(db, merchant.id, { ...base, customerIds: ids })).data.map((p) => p.id)).toEqual([a.id]);
    expect((await listPayments(db, merchant.id, { ...base, customerIds: [] })).totalCount).toBe(0);
    expect((await listPayments(db, merchant.id, base)).totalCount).toBe(2);
    const future = new Date(Date.now() + 60_000);
    expect((await listPayments(db, merchant.id, { ...base, createdFrom: future })).totalCount).toBe(0);
    const labels = await customersByIds(db, merchant.id, [a.customerId, a.customerId, 'cus_missing']);
    expect([...labels.keys()]).toEqual([a.customerId]);
    expect(labels.get(a.customerId)?.email).toBe('Alice@Example.com');
    // Another seller's customer is never labelled.
    const other = await newMerchant();
    expect((await customersByIds(db, other.merchant.id, [a.customerId])).size).toBe(0);
  });
});
