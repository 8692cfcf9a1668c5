import { describe, expect, it } from 'vitest';
import { and, count, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { customers, idempotencyKeys, payments, refunds, sandboxProcessorOperations } from '@/lib/db/schema';
import { apiRoute } from '@/lib/server/http/api-route';
import { claimIdempotencyKey, lockAttempt } from '@/lib/http/idempotency';
import { defineOperation } from '@/lib/http/operation';
import { newMerchant } from '../helpers/merchants';
import { baseUrl } from '../helpers/api';
import { oneTimePrice } from '../helpers/payments';

async function customerCount(merchantId: string) {
  const [row] = await getDb().select({ value: count() }).from(customers).where(eq(customers.merchantId, merchantId));
  return row!.value;
}

async function storedKeys(merchantId: string) {
  return getDb().select().from(idempotencyKeys).where(eq(idempotencyKeys.merchantId, merchantId));
}

describe('Idempotency-Key', () => {
  it('replays the first answer byte for byte with Idempotent-Replayed: true', async () => {
    const { api, merchant } = await newMerchant();
    const body = { email: 'ada@example.com', name: 'Ada' };
    const first = await api.post('/api/Customer', body, { 'Idempotency-Key': 'create-ada' });
    const second = await api.post('/api/Customer', body, { 'Idempotency-Key': 'create-ada' });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.text).toBe(first.text);
    expect(await customerCount(merchant.id)).toBe(1);
  });

  it('answers 422 when the key comes back with a different body or endpoint', async () => {
    const { api } = await newMerchant();
    await api.post('/api/Customer', { name: 'One' }, { 'Idempotency-Key': 'k1' });
    const otherBody = await api.post('/api/Customer', { name: 'Two' }, { 'Idempotency-Key': 'k1' });
    expect(otherBody.status).toBe(422);
    expect(otherBody.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const otherEndpoint = await api.post('/api/Product', { name: 'One' }, { 'Idempotency-Key': 'k1' });
    expect(otherEndpoint.status).toBe(422);
  });

  it('scopes keys per merchant', async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    expect((await a.api.post('/api/Customer', { name: 'A' }, { 'Idempotency-Key': 'shared' })).status).toBe(201);
    const other = await b.api.post('/api/Customer', { name: 'B' }, { 'Idempotency-Key': 'shared' });
    expect(other.status).toBe(201);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const { api, merchant } = await newMerchant();
    const rawBody = JSON.stringify({ name: 'Slow' });
    // The row a request holds while it executes (see claimIdempotencyKey).
    const started = new Date();
    await getDb()
      .insert(idempotencyKeys)
      .values({
        merchantId: merchant.id,
        key: 'running',
        method: 'POST',
        path: '/api/Customer',
        bodyHash: (await import('@/lib/secrets')).sha256Hex(rawBody),
        state: 'in_progress',
        lockedAt: started,
        createdAt: started,
        expiresAt: new Date(started.getTime() + 86_400_000),
      });
    const duplicate = await api.post('/api/Customer', { name: 'Slow' }, { 'Idempotency-Key': 'running' });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(await customerCount(merchant.id)).toBe(0);
  });

  it('executes 50 concurrent identical requests exactly once', async () => {
    const { api, merchant } = await newMerchant();
    const answers = await Promise.all(Array.from({ length: 50 }, () => api.post('/api/Customer', { name: 'Once' }, { 'Idempotency-Key': 'fifty' })));
    expect(await customerCount(merchant.id)).toBe(1);
    const statuses = new Set(answers.map((a) => a.status));
    expect([...statuses].every((s) => s === 201 || s === 409)).toBe(true);
    const created = answers.filter((a) => a.status === 201);
    expect(new Set(created.map((a) => a.body.id)).size).toBe(1);
    expect(created.filter((a) => a.headers.get('idempotent-replayed') === null)).toHaveLength(1);
  });

  it('stores nothing for requests rejected before executing', async () => {
    const { api, merchant } = await newMerchant();
    const invalid = await api.post('/api/Customer', { email: 'not-an-email' }, { 'Idempotency-Key': 'bad-input' });
    expect(invalid.status).toBe(400);
    const unauthenticated = await fetch(`${baseUrl()}/api/Customer`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_wrong', 'Idempotency-Key': 'bad-auth' },
      body: '{}',
    });
    expect(unauthenticated.status).toBe(401);
    expect(await storedKeys(merchant.id)).toHaveLength(0);
    // The same key may then be used for a valid request.
    expect((await api.post('/api/Customer', { email: 'ok@example.com' }, { 'Idempotency-Key': 'bad-input' })).status).toBe(201);
  });

  it('leaves the key free when the handler refuses the input (400), in one transaction or in phases', async () => {
    const { api, merchant } = await newMerchant();
    const past = new Date(Date.now() - 60_000).toISOString();
    const link = { name: 'Ticket', unitAmount: 500, currency: 'USD' };
    const refused = await api.post('/api/PaymentLink', { ...link, expiresAt: past }, { 'Idempotency-Key': 'link-1' });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.errors[0].path).toBe('expiresAt');
    expect(await storedKeys(merchant.id)).toHaveLength(0);
    expect((await api.post('/api/PaymentLink', link, { 'Idempotency-Key': 'link-1' })).status).toBe(201);

    const price = (
      await api.post('/api/Price', { productId: (await api.post('/api/Product', { name: 'P' })).body.id, type: 'OneTime', amount: 900, currency: 'USD' })
    ).body;
    const checkout = { priceId: price.id, customerEmail: 'ik@example.com' };
    const unknownToken = await api.post('/api/Checkout', { ...checkout, tokenRef: 'tok_nope' }, { 'Idempotency-Key': 'pay-1' });
    expect(unknownToken.status, unknownToken.text).toBe(400);
    expect(unknownToken.body.errors[0].path).toBe('tokenRef');
    const paid = await api.post('/api/Checkout', { ...checkout, tokenRef: 'tok_visa' }, { 'Idempotency-Key': 'pay-1' });
    expect(paid.status, paid.text).toBe(201);
  });

  it('keeps storing outcomes: a decline (402) is replayed, not run again', async () => {
    const { api } = await newMerchant();
    const price = (
      await api.post('/api/Price', { productId: (await api.post('/api/Product', { name: 'P' })).body.id, type: 'OneTime', amount: 900, currency: 'USD' })
    ).body;
    const body = { priceId: price.id, customerEmail: 'declined@example.com', tokenRef: 'tok_declined' };
    const declined = await api.post('/api/Checkout', body, { 'Idempotency-Key': 'decline-1' });
    expect(declined.status, declined.text).toBe(402);
    const again = await api.post('/api/Checkout', body, { 'Idempotency-Key': 'decline-1' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(declined.text);
  });

  it('replays an executed failure too', async () => {
    const { api } = await newMerchant();
    await api.post('/api/Customer', { externalId: 'ext-1' });
    const first = await api.post('/api/Customer', { externalId: 'ext-1' }, { 'Idempotency-Key': 'dup' });
    expect(first.status).toBe(409);
    const again = await api.post('/api/Customer', { externalId: 'ext-1' }, { 'Idempotency-Key': 'dup' });
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
  });

  it('forgets a key after 24 hours', async () => {
    const { api, merchant } = await newMerchant();
    await api.post('/api/Customer', { name: 'Day one' }, { 'Idempotency-Key': 'daily' });
    await getDb()
      .update(idempotencyKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(and(eq(idempotencyKeys.merchantId, merchant.id), eq(idempotencyKeys.key, 'daily')));
    const later = await api.post('/api/Customer', { name: 'Day one' }, { 'Idempotency-Key': 'daily' });
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(await customerCount(merchant.id)).toBe(2);
  });

  it('rejects keys longer than 255 characters', async () => {
    const { api } = await newMerchant();
    const answer = await api.post('/api/Customer', { name: 'X' }, { 'Idempotency-Key': 'k'.repeat(256) });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_FAILED');
  });

  it('requires the header on endpoints marked IK', async () => {
    const { key } = await newMerchant();
    let executions = 0;
    const operation = defineOperation({
      id: 'testRequiredKey',
      method: 'POST',
      path: '/api/Test',
      tag: 'Test',
      summary: 'test',
      scope: 'customers:write',
      body: z.strictObject({ value: z.int() }),
      response: z.object({ value: z.int() }),
      idempotency: 'required',
    });
    const route = apiRoute(operation, async ({ body }) => {
      executions++;
      return { value: body.value };
    });
    const request = (headers: Record<string, string>) =>
      route(
        new Request('http://localhost/api/Test', {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ value: 7 }),
        }),
        { params: Promise.resolve({}) },
      );
    const missing = await request({});
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { code: string }).code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    expect(executions).toBe(0);
    expect((await request({ 'Idempotency-Key': 'required-1' })).status).toBe(200);
    const replay = await request({ 'Idempotency-Key': 'required-1' });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await replay.json()).toEqual({ value: 7 });
    expect(executions).toBe(1);
  });
});

/**
 * A database that refuses one write of one seller's money moves, as a lost connection or a
 * failing disk would: a trigger on the table, for as long as the test keeps it.
 */
async function refuseWrites(merchantId: string, table: 'payments' | 'checkouts' | 'refunds', event: 'insert' | 'update', when: string) {
  if (!/^[a-z0-9_]+$/i.test(merchantId)) throw new Error(`unexpected id ${merchantId}`);
  const name = `refuse_${event}_${merchantId}`;
  await getDb().execute(
    sql.raw(`create or replace function refuse_a_write() returns trigger language plpgsql as $$
    begin raise exception 'the database refused this write (a test fault)'; end $$`),
  );
  await getDb().execute(
    sql.raw(`create trigger ${name} before ${event} on ${table} for each row
      when (new.merchant_id = '${merchantId}' ${when ? `and ${when}` : ''}) execute function refuse_a_write()`),
  );
  return () => getDb().execute(sql.raw(`drop trigger ${name} on ${table}`));
}

describe('Idempotency-Key of a money move whose phase 1 committed', () => {
  it('never stores a failure of phase 3 as the answer: the retry gets the settled outcome, paid or declined', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 1234);
    const recordingFails = await refuseWrites(merchant.id, 'payments', 'update', `old.status = 'pending' and new.status <> 'pending'`);
    const checkout = (tokenRef: string) =>
      api.post('/api/Checkout', { priceId: price.id, customerEmail: `${tokenRef}@example.com`, tokenRef }, { 'Idempotency-Key': `pay-${tokenRef}` });
    // Charged (or declined) by the processor, then phase 3 cannot write: a 500, the payment pending.
    const failed = [await checkout('tok_visa'), await checkout('tok_declined')];
    expect(failed.map((answer) => answer.status)).toEqual([500, 500]);
    const pending = await getDb().select().from(payments).where(eq(payments.merchantId, merchant.id));
    expect(pending.map((payment) => payment.status)).toEqual(['pending', 'pending']);
    await recordingFails();

    const paid = await checkout('tok_visa');
    expect(paid.status, paid.text).toBe(201);
    expect(paid.headers.get('idempotent-replayed')).toBeNull();
    expect(paid.body).toMatchObject({ status: 'paid', paid: true, total: 1234 });
    const declined = await checkout('tok_declined');
    expect(declined.status, declined.text).toBe(402);
    expect(declined.body).toMatchObject({ code: 'PAYMENT_DECLINED' });
    // The retries finished the first attempts' payments: one charge each at the processor.
    const settled = await getDb().select().from(payments).where(eq(payments.merchantId, merchant.id));
    expect(settled.map((payment) => [payment.id, payment.status]).sort()).toEqual(
      pending.map((payment) => [payment.id, payment.id === paid.body.payment.id ? 'succeeded' : 'failed']).sort(),
    );
    for (const payment of pending) {
      expect(await getDb().select().from(sandboxProcessorOperations).where(eq(sandboxProcessorOperations.idempotencyKey, payment.id))).toHaveLength(1);
    }
    const replay = await checkout('tok_visa');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(paid.text);
  });

  it('a refund retried after its phase 3 failed is the same refund: refunded once', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 5000);
    const paid = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'r@example.com', tokenRef: 'tok_visa' }, { 'Idempotency-Key': 'buy' });
    expect(paid.status, paid.text).toBe(201);
    const paymentId = paid.body.payment.id as string;
    const recordingFails = await refuseWrites(merchant.id, 'refunds', 'update', `old.status = 'requested'`);
    const refund = () => api.post(`/api/Payment/${paymentId}/Refund`, { amount: 2000 }, { 'Idempotency-Key': 'give-back' });
    const failed = await refund();
    expect(failed.status).toBe(500);
    await recordingFails();

    const retried = await refund();
    expect(retried.status, retried.text).toBe(201);
    expect(retried.body).toMatchObject({ status: 'succeeded', amount: 2000 });
    const rows = await getDb().select().from(refunds).where(eq(refunds.paymentId, paymentId));
    expect(rows.map((row) => [row.id, row.status])).toEqual([[retried.body.id, 'succeeded']]);
    expect(await getDb().select().from(sandboxProcessorOperations).where(eq(sandboxProcessorOperations.idempotencyKey, retried.body.id))).toHaveLength(1);
    expect((await api.get(`/api/Payment/${paymentId}`)).body).toMatchObject({ status: 'partially_refunded', amountRefunded: 2000 });
  });

  it('still stores a failure when nothing committed before it', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 1234);
    const preparingFails = await refuseWrites(merchant.id, 'checkouts', 'insert', '');
    const checkout = () =>
      api.post('/api/Checkout', { priceId: price.id, customerEmail: 'a@example.com', tokenRef: 'tok_visa' }, { 'Idempotency-Key': 'never-began' });
    const failed = await checkout();
    await preparingFails();
    expect(failed.status).toBe(500);
    expect(await getDb().select().from(payments).where(eq(payments.merchantId, merchant.id))).toEqual([]);
    const replay = await checkout();
    expect(replay.status).toBe(500);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('lockAttempt', () => {
  it('makes executions of one attempt take turns, and stops one whose key was taken over', async () => {
    const { merchant } = await newMerchant();
    const request = { merchantId: merchant.id, key: 'twins', method: 'POST', path: '/api/Checkout', body: { priceId: 'price_x' } };
    const first = await claimIdempotencyKey(getDb(), request);
    if (first.kind !== 'execute') throw new Error('expected an execution');
    expect(first.attempt.isNew).toBe(true);

    // The first execution holds the lock in its phase 1; a twin (a hosted form's second submit,
    // by the attempt's key alone) waits for that transaction to end.
    const order: string[] = [];
    let twin: Promise<void> | undefined;
    await getDb().transaction(async (tx) => {
      await lockAttempt(tx, merchant.id, first.attempt);
      twin = getDb().transaction(async (other) => {
        await lockAttempt(other, merchant.id, { key: first.attempt.key });
        order.push('twin locked');
      });
      const lockKey = sql`hashtextextended(${`attempt:${merchant.id}:${first.attempt.key}`}, 0)`;
      const waiting = async () => {
        const locks = await getDb().execute<{ n: number }>(
          sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and ((classid::bigint << 32) | objid::bigint) = ${lockKey}`,
        );
        return locks.rows[0]!.n > 0;
      };
      for (let tries = 0; !(await waiting()) && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
      order.push('first committing');
    });
    await twin;
    expect(order).toEqual(['first committing', 'twin locked']);

    // The first execution stalls past its lease and a retry takes the key over: from then on the
    // first one may not prepare anything (the takeover finishes the attempt), the takeover may.
    await getDb()
      .update(idempotencyKeys)
      .set({ lockedAt: new Date(0) })
      .where(and(eq(idempotencyKeys.merchantId, merchant.id), eq(idempotencyKeys.key, 'twins')));
    const takeover = await claimIdempotencyKey(getDb(), request);
    if (takeover.kind !== 'execute') throw new Error('expected a takeover');
    expect(takeover.attempt).toMatchObject({ key: first.attempt.key, isNew: false });
    await expect(getDb().transaction((tx) => lockAttempt(tx, merchant.id, first.attempt))).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
    await expect(getDb().transaction((tx) => lockAttempt(tx, merchant.id, takeover.attempt))).resolves.toBeUndefined();
  });
});
