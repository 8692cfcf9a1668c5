import { describe, expect, it } from 'vitest';
import { newMerchant } from '../helpers/merchants';
import { adHocLink, eventsOf, ik, oneTimePrice } from '../helpers/payments';

/** `metadata` on checkouts, their payments and refunds: the same rules as a customer's (lib/http/schemas.ts Metadata). */
describe('checkout, payment and refund metadata', () => {
  it('keeps a checkout’s metadata on the checkout and its payment, in answers, lists and events', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 1200);
    const metadata = { orderId: 'order_1042', channel: 'web' };
    const answer = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'm@example.com', tokenRef: 'tok_visa', metadata }, ik());
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.metadata).toEqual(metadata);
    expect(answer.body.payment.metadata).toEqual(metadata);

    const checkout = await api.get(`/api/Checkout/${answer.body.id}`);
    expect(checkout.body.metadata).toEqual(metadata);
    const payment = await api.get(`/api/Payment/${answer.body.payment.id}`);
    expect(payment.body.metadata).toEqual(metadata);
    const listed = await api.get('/api/Payment');
    expect(listed.body.data.map((p: { metadata: unknown }) => p.metadata)).toEqual([metadata]);

    const [succeeded] = await eventsOf(merchant.id, 'payment.succeeded');
    expect(succeeded!.data.object.metadata).toEqual(metadata);

    const declined = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'm@example.com', tokenRef: 'tok_declined', metadata }, ik());
    expect(declined.status).toBe(402);
    expect(declined.body.checkout.metadata).toEqual(metadata);
    expect(declined.body.checkout.payment.metadata).toEqual(metadata);
    const [failed] = await eventsOf(merchant.id, 'payment.failed');
    expect(failed!.data.object.metadata).toEqual(metadata);
  });

  it('answers {} without metadata', async () => {
    const { api } = await newMerchant();
    const price = await oneTimePrice(api, 500);
    const answer = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'n@example.com', tokenRef: 'tok_visa' }, ik());
    expect(answer.body.metadata).toEqual({});
    expect(answer.body.payment.metadata).toEqual({});
  });

  it('gives a payment link’s payment the link’s metadata and the Complete request’s (the request wins)', async () => {
    const { api, merchant } = await newMerchant();
    const link = await adHocLink(api, { metadata: { campaign: 'spring', orderId: 'from-link' } });
    const answer = await api.post(
      `/api/PaymentLink/${link.id}/Complete`,
      { customerEmail: 'l@example.com', tokenRef: 'tok_visa', metadata: { orderId: 'order_7' } },
      ik(),
    );
    expect(answer.status, answer.text).toBe(201);
    const expected = { campaign: 'spring', orderId: 'order_7' };
    expect(answer.body.metadata).toEqual(expected);
    expect(answer.body.payment.metadata).toEqual(expected);
    const [succeeded] = await eventsOf(merchant.id, 'payment.succeeded');
    expect(succeeded!.data.object.metadata).toEqual(expected);
  });

  it('keeps a refund’s metadata in its answer, its payment’s refunds and its events', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 1000);
    const checkout = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'r@example.com', tokenRef: 'tok_visa' }, ik());
    const paymentId = checkout.body.payment.id;
    const refund = await api.post(`/api/Payment/${paymentId}/Refund`, { amount: 300, metadata: { ticket: 'T-9' } }, ik());
    expect(refund.status, refund.text).toBe(201);
    expect(refund.body.metadata).toEqual({ ticket: 'T-9' });
    expect((await api.get(`/api/Payment/${paymentId}`)).body.refunds[0].metadata).toEqual({ ticket: 'T-9' });
    expect((await api.get(`/api/Payment/${paymentId}/Refund`)).body.data[0].metadata).toEqual({ ticket: 'T-9' });
    for (const type of ['refund.requested', 'refund.succeeded']) {
      const [event] = await eventsOf(merchant.id, type);
      expect(event!.data.object.metadata, type).toEqual({ ticket: 'T-9' });
    }
  });

  it('refuses metadata beyond the customer limits, on each operation', async () => {
    const { api } = await newMerchant();
    const price = await oneTimePrice(api, 1000);
    const link = await adHocLink(api);
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    const bad = [tooMany, { ['k'.repeat(41)]: 'v' }, { key: 'v'.repeat(501) }, { '': 'v' }, { nested: { a: 'b' } }, { count: 3 }, ['a']];
    const paid = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'b@example.com', tokenRef: 'tok_visa' }, ik());
    for (const metadata of bad) {
      const checkout = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'b@example.com', tokenRef: 'tok_visa', metadata }, ik());
      expect(checkout.status, JSON.stringify(metadata).slice(0, 60)).toBe(400);
      expect(checkout.body.errors[0].path).toMatch(/^metadata/);
      const complete = await api.post(`/api/PaymentLink/${link.id}/Complete`, { customerEmail: 'b@example.com', tokenRef: 'tok_visa', metadata }, ik());
      expect(complete.status).toBe(400);
      const refund = await api.post(`/api/Payment/${paid.body.payment.id}/Refund`, { amount: 1, metadata }, ik());
      expect(refund.status).toBe(400);
    }
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v'.repeat(500)]));
    const atLimit = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'b@example.com', tokenRef: 'tok_visa', metadata: fifty }, ik());
    expect(atLimit.status, atLimit.text).toBe(201);
    expect(atLimit.body.payment.metadata).toEqual(fifty);
  });

  it('refuses a Complete whose metadata and the link’s together exceed 50 keys', async () => {
    const { api } = await newMerchant();
    const link = await adHocLink(api, { metadata: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`link${i}`, 'v'])) });
    const metadata = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`own${i}`, 'v']));
    const answer = await api.post(`/api/PaymentLink/${link.id}/Complete`, { customerEmail: 'c@example.com', tokenRef: 'tok_visa', metadata }, ik());
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].path).toBe('metadata');
  });
});
