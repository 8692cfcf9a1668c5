import { describe, expect, it } from 'vitest';
import { newMerchant } from '../helpers/merchants';
import { expectAuthFailures } from '../helpers/auth-matrix';
import { eventsOf, ik, oneTimePrice } from '../helpers/payments';

async function paidPayment(api: Awaited<ReturnType<typeof newMerchant>>['api'], amount = 1000, tokenRef = 'tok_visa', currency = 'USD') {
  const price = await oneTimePrice(api, amount, currency);
  const checkout = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'r@example.com', tokenRef }, ik());
  expect(checkout.status).toBe(201);
  return checkout.body.payment as { id: string; amount: number };
}

describe('payments and refunds', () => {
  it('lists and reads payments with filters', async () => {
    const { api } = await newMerchant();
    const paid = await paidPayment(api, 1000);
    const price = await oneTimePrice(api, 50);
    const failed = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'f@example.com', tokenRef: 'tok_declined' }, ik());
    const all = await api.get('/api/Payment');
    expect(all.body.totalCount).toBe(2);
    expect((await api.get('/api/Payment?status=failed')).body.data.map((p: { id: string }) => p.id)).toEqual([failed.body.checkout.payment.id]);
    expect((await api.get('/api/Payment?orderBy=amount&orderDirection=asc')).body.data.map((p: { amount: number }) => p.amount)).toEqual([50, 1000]);
    const one = await api.get(`/api/Payment/${paid.id}`);
    expect(one.body).toMatchObject({ id: paid.id, status: 'succeeded', amount: 1000, amountRefunded: 0, refunds: [] });
    expect((await api.get(`/api/Payment?customerId=${one.body.customerId}`)).body.totalCount).toBe(1);
    expect((await api.get('/api/Payment?status=bogus')).status).toBe(400);
  });

  it('refunds partially up to the amount not yet refunded', async () => {
    const { api, merchant } = await newMerchant();
    const payment = await paidPayment(api, 1000);
    const first = await api.post(`/api/Payment/${payment.id}/Refund`, { amount: 400, reason: 'damaged' }, ik());
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ status: 'succeeded', amount: 400, currency: 'USD', reason: 'damaged', paymentId: payment.id });
    expect(first.body.id).toMatch(/^re_/);
    expect((await api.get(`/api/Payment/${payment.id}`)).body).toMatchObject({ status: 'partially_refunded', amountRefunded: 400 });
    const tooMuch = await api.post(`/api/Payment/${payment.id}/Refund`, { amount: 601 }, ik());
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.errors[0].path).toBe('amount');
    expect(tooMuch.body.detail).toContain('600');
    const rest = await api.post(`/api/Payment/${payment.id}/Refund`, {}, ik());
    expect(rest.body).toMatchObject({ status: 'succeeded', amount: 600 });
    expect((await api.get(`/api/Payment/${payment.id}`)).body).toMatchObject({ status: 'refunded', amountRefunded: 1000 });
    const more = await api.post(`/api/Payment/${payment.id}/Refund`, { amount: 1 }, ik());
    expect(more.status).toBe(409);
    expect(more.body.code).toBe('INVALID_STATE');
    expect((await api.get(`/api/Payment/${payment.id}/Refund`)).body.data).toHaveLength(2);
    expect(await eventsOf(merchant.id, 'refund.requested')).toHaveLength(2);
    expect(await eventsOf(merchant.id, 'refund.succeeded')).toHaveLength(2);
    // A refunded payment did succeed: its checkout stays paid.
    const checkouts = await api.get(`/api/Payment/${payment.id}`);
    expect((await api.get(`/api/Checkout/${checkouts.body.checkoutId}`)).body.paid).toBe(true);
  });

  it('never refunds more than was paid under 20 concurrent refunds', async () => {
    const { api } = await newMerchant();
    const payment = await paidPayment(api, 1000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => api.post(`/api/Payment/${payment.id}/Refund`, { amount: 300 }, ik())));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect((await api.get(`/api/Payment/${payment.id}`)).body).toMatchObject({ amountRefunded: 900, status: 'partially_refunded' });
  });

  it('records a refund the processor refuses as failed', async () => {
    const { api, merchant } = await newMerchant();
    const payment = await paidPayment(api, 1000, 'tok_refund_fails');
    const answer = await api.post(`/api/Payment/${payment.id}/Refund`, { amount: 500 }, ik());
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ status: 'failed', failureMessage: expect.stringMatching(/refused/) });
    expect((await api.get(`/api/Payment/${payment.id}`)).body).toMatchObject({ status: 'succeeded', amountRefunded: 0 });
    expect(await eventsOf(merchant.id, 'refund.failed')).toHaveLength(1);
  });

  it('refuses refunds of failed payments and bad amounts; replays with the same key', async () => {
    const { api } = await newMerchant();
    const price = await oneTimePrice(api, 100, 'JPY');
    const failed = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'f@example.com', tokenRef: 'tok_declined' }, ik());
    const refundFailed = await api.post(`/api/Payment/${failed.body.checkout.payment.id}/Refund`, {}, ik());
    expect(refundFailed.status).toBe(409);
    const payment = await paidPayment(api, 100, 'tok_visa', 'JPY');
    for (const body of [{ amount: 0 }, { amount: 1.5 }, { amount: -3 }, { amount: '5' }, { currency: 'USD' }]) {
      const answer = await api.post(`/api/Payment/${payment.id}/Refund`, body, ik());
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    const headers = ik();
    const once = await api.post(`/api/Payment/${payment.id}/Refund`, { amount: 30 }, headers);
    const twice = await api.post(`/api/Payment/${payment.id}/Refund`, { amount: 30 }, headers);
    expect(twice.text).toBe(once.text);
    expect(twice.headers.get('idempotent-replayed')).toBe('true');
    expect((await api.get(`/api/Payment/${payment.id}`)).body.amountRefunded).toBe(30);
    expect((await api.post(`/api/Payment/${payment.id}/Refund`, { amount: 30 })).body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
  });

  it("answers 404 for another merchant's payment and enforces scopes", async () => {
    const owner = await newMerchant();
    const stranger = await newMerchant();
    const payment = await paidPayment(owner.api);
    expect((await stranger.api.get(`/api/Payment/${payment.id}`)).status).toBe(404);
    expect((await stranger.api.post(`/api/Payment/${payment.id}/Refund`, {}, ik())).status).toBe(404);
    expect((await stranger.api.get(`/api/Payment/${payment.id}/Refund`)).status).toBe(404);
    const id = owner.merchant.id;
    await expectAuthFailures(id, 'GET', '/api/Payment', 'payments:read');
    await expectAuthFailures(id, 'GET', `/api/Payment/${payment.id}`, 'payments:read');
    await expectAuthFailures(id, 'GET', `/api/Payment/${payment.id}/Refund`, 'payments:read');
    await expectAuthFailures(id, 'POST', `/api/Payment/${payment.id}/Refund`, 'refunds:write', { amount: 1 });
  });
});
