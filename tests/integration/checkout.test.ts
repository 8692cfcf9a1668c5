import { describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { billingRecords, checkouts, customers, paymentMethods, payments, sandboxProcessorOperations } from '@/lib/db/schema';
import { failCheckout, markCheckoutPaid } from '@/lib/checkout/checkout-status';
import { recordChargeOutcome } from '@/lib/payments/payments';
import { reconcilePayment } from '@/lib/payments/recovery';
// Recovery finds each payment's kind of money move in the engine's registry: every kind is loaded.
import '@/lib/server/jobs/money-move-kinds';
import { loadHostedCheckout, payHostedCheckout } from '@/lib/checkout/hosted';
import { savePaymentMethod } from '@/lib/payments/payment-methods';
import { SandboxProcessor } from '@/lib/payments/processor/sandbox';
import { newMerchant } from '../helpers/merchants';
import { expectAuthFailures } from '../helpers/auth-matrix';
import { adHocLink, eventsOf, ik, oneTimePrice, waitFor } from '../helpers/payments';

async function paymentCount(merchantId: string) {
  const [row] = await getDb().select({ value: count() }).from(payments).where(eq(payments.merchantId, merchantId));
  return row!.value;
}

describe('POST /api/Checkout', () => {
  it('sells a price to a new customer by email and records every event', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 2500);
    const answer = await api.post(
      '/api/Checkout',
      { priceId: price.id, quantity: 3, customerEmail: 'Ada@Example.com', customerName: 'Ada', tokenRef: 'tok_visa' },
      ik(),
    );
    expect(answer.status, answer.text).toBe(201);
    const checkout = answer.body;
    expect(checkout).toMatchObject({
      status: 'paid',
      paid: true,
      priceId: price.id,
      paymentLinkId: null,
      unitAmount: 2500,
      quantity: 3,
      subtotal: 7500,
      discountAmount: 0,
      total: 7500,
      currency: 'USD',
      description: 'T-shirt',
    });
    expect(checkout.id).toMatch(/^cs_/);
    expect(checkout.billingRecordId).toMatch(/^br_/);
    expect(checkout.payment).toMatchObject({ status: 'succeeded', amount: 7500, card: { brand: 'visa', last4: '4242' } });
    expect(checkout.payment.id).toMatch(/^pay_/);
    expect((await api.get(`/api/Checkout/${checkout.id}`)).body).toEqual(checkout);

    const [customerEvent] = await eventsOf(merchant.id, 'customer.created');
    expect(customerEvent!.data.object).toMatchObject({ id: checkout.customerId, email: 'Ada@Example.com', name: 'Ada' });
    expect((await eventsOf(merchant.id, 'payment.succeeded'))[0]!.data.object).toMatchObject({ id: checkout.payment.id, amount: 7500 });
    expect((await eventsOf(merchant.id, 'billing_record.created'))[0]!.data.object).toMatchObject({ id: checkout.billingRecordId, status: 'open' });
    expect((await eventsOf(merchant.id, 'billing_record.paid'))[0]!.data.object).toMatchObject({ id: checkout.billingRecordId, status: 'paid' });

    // A returning customer (any letter case) is found, not created again.
    const again = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'ada@example.com', tokenRef: 'tok_visa' }, ik());
    expect(again.body.customerId).toBe(checkout.customerId);
    expect(await eventsOf(merchant.id, 'customer.created')).toHaveLength(1);
  });

  it('totals zero-decimal (JPY) and three-decimal (KWD) currencies in their own units', async () => {
    const { api } = await newMerchant();
    const yen = await oneTimePrice(api, 1200, 'JPY');
    const jpy = await api.post('/api/Checkout', { priceId: yen.id, quantity: 3, customerEmail: 'jp@example.com', tokenRef: 'tok_visa' }, ik());
    expect(jpy.body).toMatchObject({ currency: 'JPY', subtotal: 3600, total: 3600, payment: { amount: 3600, currency: 'JPY' } });
    const dinar = await oneTimePrice(api, 1250, 'KWD');
    const kwd = await api.post('/api/Checkout', { priceId: dinar.id, quantity: 2, customerEmail: 'kw@example.com', tokenRef: 'tok_visa' }, ik());
    expect(kwd.body).toMatchObject({ currency: 'KWD', total: 2500 });
  });

  it('answers 402 for declines, records payment.failed and no billing record', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 500);
    for (const [token, code] of [
      ['tok_declined', 'card_declined'],
      ['tok_insufficient_funds', 'insufficient_funds'],
    ]) {
      const answer = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'b@example.com', tokenRef: token }, ik());
      expect(answer.status).toBe(402);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(answer.body).toMatchObject({ code: 'PAYMENT_DECLINED', declineCode: code, checkout: { status: 'failed', paid: false, billingRecordId: null } });
      expect(answer.body.checkout.payment).toMatchObject({ status: 'failed', failureCode: code });
      const read = await api.get(`/api/Checkout/${answer.body.checkout.id}`);
      expect(read.body).toMatchObject({ status: 'failed', paid: false });
    }
    expect(await eventsOf(merchant.id, 'payment.failed')).toHaveLength(2);
    expect(await eventsOf(merchant.id, 'billing_record.created')).toHaveLength(0);
  });

  it('leaves an unknown payment open and the reconciliation job settles it', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 900);
    const answer = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'u@example.com', tokenRef: 'tok_unknown' }, ik());
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ status: 'open', paid: false, payment: { status: 'unknown' } });
    expect(await eventsOf(merchant.id, 'payment.unknown')).toHaveLength(1);
    const settled = await waitFor(async () => {
      const read = await api.get(`/api/Checkout/${answer.body.id}`);
      return read.body.paid ? read.body : undefined;
    });
    expect(settled).toMatchObject({ status: 'paid', payment: { status: 'succeeded' } });
    expect(await eventsOf(merchant.id, 'payment.succeeded')).toHaveLength(1);
    expect(await eventsOf(merchant.id, 'billing_record.paid')).toHaveLength(1);
  });

  it("pays with a customer's saved payment method, listed without card numbers", async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 1000);
    const customer = await api.post('/api/Customer', { email: 'saved@example.com' });
    const card = await new SandboxProcessor().tokenizeCard({ number: '4242 4242 4242 4242', expMonth: 4, expYear: 2031, cvc: '123' });
    const method = await getDb().transaction((tx) => savePaymentMethod(tx, merchant.id, customer.body.id, card));
    const list = await api.get(`/api/Customer/${customer.body.id}/PaymentMethod`);
    expect(list.body.data).toEqual([expect.objectContaining({ id: method.id, brand: 'visa', last4: '4242', expMonth: 4, expYear: 2031, isDefault: true })]);
    expect(list.text).not.toContain('4242424242424242');
    const answer = await api.post('/api/Checkout', { priceId: price.id, customerId: customer.body.id, paymentMethodRefId: method.id }, ik());
    expect(answer.status).toBe(201);
    expect(answer.body.payment).toMatchObject({ status: 'succeeded', paymentMethodId: method.id });
    const other = await api.post('/api/Customer', { email: 'other@example.com' });
    const foreign = await api.post('/api/Checkout', { priceId: price.id, customerId: other.body.id, paymentMethodRefId: method.id }, ik());
    expect(foreign.status).toBe(404);
    expect(foreign.body.errors[0].path).toBe('paymentMethodRefId');
    const rows = await getDb().select().from(paymentMethods).where(eq(paymentMethods.merchantId, merchant.id));
    expect(JSON.stringify(rows)).not.toMatch(/4242424242424242/);
  });

  it('validates the body and changes nothing on bad input', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 100);
    const cases: [unknown, string, number][] = [
      [{ customerEmail: 'a@example.com', tokenRef: 'tok_visa' }, 'priceId', 400],
      [{ priceId: price.id, paymentLinkToken: 'abc', customerEmail: 'a@example.com', tokenRef: 'tok_visa' }, 'priceId', 400],
      [{ priceId: price.id, tokenRef: 'tok_visa' }, 'customerEmail', 400],
      [{ priceId: price.id, customerEmail: 'not-an-email', tokenRef: 'tok_visa' }, 'customerEmail', 400],
      [{ priceId: price.id, customerEmail: 'a@example.com' }, 'tokenRef', 400],
      [{ priceId: price.id, customerEmail: 'a@example.com', tokenRef: 'tok_nope' }, 'tokenRef', 400],
      [{ priceId: price.id, customerEmail: 'a@example.com', tokenRef: 'tok_visa', quantity: 0 }, 'quantity', 400],
      [{ priceId: price.id, customerEmail: 'a@example.com', tokenRef: 'tok_visa', amount: 1 }, 'amount', 400],
      [{ priceId: 'price_missing', customerEmail: 'a@example.com', tokenRef: 'tok_visa' }, 'priceId', 404],
      [{ priceId: price.id, customerId: 'cus_missing', tokenRef: 'tok_visa' }, 'customerId', 404],
      [{ priceId: price.id, customerEmail: 'a@example.com', tokenRef: 'tok_visa', promotionCode: 'NOPE' }, 'promotionCode', 400],
    ];
    for (const [body, path, status] of cases) {
      const answer = await api.post('/api/Checkout', body, ik());
      expect(answer.status, JSON.stringify(body)).toBe(status);
      expect(
        answer.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect(await paymentCount(merchant.id)).toBe(0);
    const [customerRows] = await getDb().select({ value: count() }).from(customers).where(eq(customers.merchantId, merchant.id));
    expect(customerRows!.value).toBe(0);
    const noKey = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'a@example.com', tokenRef: 'tok_visa' });
    expect(noKey.status).toBe(400);
    expect(noKey.body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
  });

  it('refuses inactive prices with 409, charging nothing', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 100);
    const linkBefore = await api.post('/api/PaymentLink', { priceId: price.id });
    await api.put(`/api/Price/${price.id}`, { active: false });
    const inactive = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'a@example.com', tokenRef: 'tok_visa' }, ik());
    expect(inactive.status).toBe(409);
    const inactiveViaLink = await api.post(`/api/PaymentLink/${linkBefore.body.id}/Complete`, { customerEmail: 'a@example.com', tokenRef: 'tok_visa' }, ik());
    expect(inactiveViaLink.status).toBe(409);
    expect(inactiveViaLink.body.detail).toMatch(/inactive/);
    expect(await paymentCount(merchant.id)).toBe(0);
    expect(await eventsOf(merchant.id, 'customer.created')).toHaveLength(0);
  });

  it('a Recurring price starts a subscription: checkout, link, decline, trial', async () => {
    const { api, merchant } = await newMerchant();
    const product = (await api.post('/api/Product', { name: 'Club' })).body.id;
    const recurring = await api.post('/api/Price', { productId: product, type: 'Recurring', amount: 900, currency: 'USD', interval: 'month' });
    const answer = await api.post('/api/Checkout', { priceId: recurring.body.id, customerEmail: 'a@example.com', tokenRef: 'tok_visa' }, ik());
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({
      paid: true,
      status: 'paid',
      total: 900,
      subscriptionId: expect.stringMatching(/^sub_/),
      billingRecordId: expect.stringMatching(/^br_/),
    });
    const sub = (await api.get(`/api/Subscription/${answer.body.subscriptionId}`)).body;
    expect(sub).toMatchObject({ status: 'active', customerId: answer.body.customerId, paymentMethodId: expect.stringMatching(/^pm_/) });
    expect((await api.get(`/api/Checkout/${answer.body.id}`)).body.paid).toBe(true);

    const link = await api.post('/api/PaymentLink', { priceId: recurring.body.id, maxCompletions: 1 });
    const declined = await api.post(`/api/PaymentLink/${link.body.id}/Complete`, { customerEmail: 'b@example.com', tokenRef: 'tok_declined' }, ik());
    expect(declined.status, declined.text).toBe(402);
    expect((await api.get(`/api/PaymentLink/${link.body.id}`)).body).toMatchObject({ status: 'active', completionCount: 0 });
    const viaLink = await api.post(`/api/PaymentLink/${link.body.id}/Complete`, { customerEmail: 'b@example.com', tokenRef: 'tok_visa' }, ik());
    expect(viaLink.status, viaLink.text).toBe(201);
    expect((await api.get(`/api/PaymentLink/${link.body.id}`)).body).toMatchObject({ completionCount: 1 });
    expect((await api.get('/api/Subscription?status=active')).body.totalCount).toBe(2);
    expect(await eventsOf(merchant.id, 'payment_link.completed')).toHaveLength(1);

    const quantity = await api.post('/api/Checkout', { priceId: recurring.body.id, quantity: 2, customerEmail: 'c@example.com', tokenRef: 'tok_visa' }, ik());
    expect(quantity.status).toBe(400);
    expect(quantity.body.errors[0].path).toBe('quantity');

    const trial = await api.post('/api/Price', { productId: product, type: 'Recurring', amount: 900, currency: 'USD', interval: 'month', trialDays: 30 });
    const trialCheckout = await api.post('/api/Checkout', { priceId: trial.body.id, customerEmail: 'd@example.com', tokenRef: 'tok_visa' }, ik());
    expect(trialCheckout.status, trialCheckout.text).toBe(201);
    // Nothing is due during a trial: the checkout completes without a payment.
    expect(trialCheckout.body).toMatchObject({ status: 'paid', paid: true, total: 0, payment: null });
    expect((await api.get(`/api/Subscription/${trialCheckout.body.subscriptionId}`)).body.status).toBe('trialing');
  });

  it('moves money once for 50 concurrent identical requests', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 4200);
    const body = { priceId: price.id, customerEmail: 'race@example.com', tokenRef: 'tok_visa' };
    const headers = ik();
    const answers = await Promise.all(Array.from({ length: 50 }, () => api.post('/api/Checkout', body, headers)));
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((s) => s === 201 || s === 409),
      statuses.join(','),
    ).toBe(true);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.code === 'IDEMPOTENCY_KEY_IN_USE')).toBe(true);
    const replay = await api.post('/api/Checkout', body, headers);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await paymentCount(merchant.id)).toBe(1);
    const successes = answers.filter((a) => a.status === 201).map((a) => a.body.id);
    expect(new Set([...successes, replay.body.id]).size).toBe(1);
  });

  it("answers 404 for another merchant's checkout and enforces scopes", async () => {
    const owner = await newMerchant();
    const stranger = await newMerchant();
    const price = await oneTimePrice(owner.api, 100);
    const checkout = await owner.api.post('/api/Checkout', { priceId: price.id, customerEmail: 'a@example.com', tokenRef: 'tok_visa' }, ik());
    expect((await stranger.api.get(`/api/Checkout/${checkout.body.id}`)).status).toBe(404);
    const foreignPrice = await stranger.api.post('/api/Checkout', { priceId: price.id, customerEmail: 'a@example.com', tokenRef: 'tok_visa' }, ik());
    expect(foreignPrice.status).toBe(404);
    await expectAuthFailures(owner.merchant.id, 'POST', '/api/Checkout', 'payment_links:write', { priceId: price.id });
    await expectAuthFailures(owner.merchant.id, 'GET', `/api/Checkout/${checkout.body.id}`, 'payment_links:read');
  });
});

describe('POST /api/PaymentLink/{id}/Complete', () => {
  it('completes a link, emits payment_link.completed and uses up a single-use link', async () => {
    const { api, merchant } = await newMerchant();
    const link = await adHocLink(api, { singleUse: true, unitAmount: 3000, quantity: 2 });
    const answer = await api.post(`/api/PaymentLink/${link.id}/Complete`, { customerEmail: 'c@example.com', tokenRef: 'tok_visa' }, ik());
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({ paid: true, paymentLinkId: link.id, total: 6000, quantity: 2 });
    const [completed] = await eventsOf(merchant.id, 'payment_link.completed');
    expect(completed!.data.object).toMatchObject({ id: link.id, status: 'completed', completionCount: 1, checkoutId: answer.body.id });
    expect((await api.get(`/api/PaymentLink/${link.id}`)).body.status).toBe('completed');
    const second = await api.post(`/api/PaymentLink/${link.id}/Complete`, { customerEmail: 'd@example.com', tokenRef: 'tok_visa' }, ik());
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('INVALID_STATE');
    expect(second.body.detail).toMatch(/already been paid/);
    // A single-use link keeps its limit of one, so it stays used up.
    const reopened = await api.put(`/api/PaymentLink/${link.id}`, { maxCompletions: 1 });
    expect(reopened.body.status).toBe('completed');
  });

  it('tells other payers a single-use link is being paid while a payment in progress holds it, then that it was paid', async () => {
    const { api } = await newMerchant();
    const link = await adHocLink(api, { singleUse: true, unitAmount: 700 });
    const complete = (email: string, tokenRef: string) => api.post(`/api/PaymentLink/${link.id}/Complete`, { customerEmail: email, tokenRef }, ik());
    // The processor does not answer: the payment stays unknown, holding the only slot, until reconciliation settles it.
    const first = await complete('first@example.com', 'tok_unknown');
    expect(first.body).toMatchObject({ status: 'open', payment: { status: 'unknown' } });
    const meanwhile = await complete('second@example.com', 'tok_visa');
    expect(meanwhile.status, meanwhile.text).toBe(409);
    expect(meanwhile.body).toMatchObject({
      code: 'CONFLICT',
      reason: 'payment_link_being_paid',
      detail: expect.stringMatching(/being paid by someone else.*try again in a moment/),
    });
    expect(meanwhile.headers.get('retry-after')).toBe('1');
    const beingPaid = 'Someone else is paying this link right now. Try again in a moment.';
    expect((await loadHostedCheckout(getDb(), link.token))?.unavailableReason).toBe(beingPaid);
    const card = { cardNumber: '4242 4242 4242 4242', expiry: '12 / 34', cvc: '123', promotionCode: '', saveCard: false };
    const hosted = await payHostedCheckout(getDb(), { token: link.token, attemptKey: `held-${Date.now()}`, email: 'h@example.com', name: '', ...card });
    expect(hosted).toEqual({ kind: 'unavailable', message: beingPaid });

    await waitFor(async () => ((await api.get(`/api/Checkout/${first.body.id}`)).body.paid ? true : undefined));
    const after = await complete('third@example.com', 'tok_visa');
    expect(after.status).toBe(409);
    expect(after.body).toMatchObject({ code: 'INVALID_STATE', detail: expect.stringMatching(/already been paid/) });
    expect((await loadHostedCheckout(getDb(), link.token))?.unavailableReason).toMatch(/already been paid/);
  });

  it('does not count a declined attempt as a completion', async () => {
    const { api } = await newMerchant();
    const link = await adHocLink(api, { maxCompletions: 1 });
    const declined = await api.post(`/api/PaymentLink/${link.id}/Complete`, { customerEmail: 'c@example.com', tokenRef: 'tok_declined' }, ik());
    expect(declined.status).toBe(402);
    expect((await api.get(`/api/PaymentLink/${link.id}`)).body).toMatchObject({ status: 'active', completionCount: 0 });
    const paid = await api.post(`/api/PaymentLink/${link.id}/Complete`, { customerEmail: 'c@example.com', tokenRef: 'tok_visa' }, ik());
    expect(paid.status).toBe(201);
  });

  it('refuses disabled, archived and expired links saying why', async () => {
    const { api } = await newMerchant();
    const body = { customerEmail: 'c@example.com', tokenRef: 'tok_visa' };
    const disabled = await adHocLink(api);
    await api.post(`/api/PaymentLink/${disabled.id}/Disable`);
    const a = await api.post(`/api/PaymentLink/${disabled.id}/Complete`, body, ik());
    expect(a.status).toBe(409);
    expect(a.body.detail).toMatch(/turned off/);
    const archived = await adHocLink(api);
    await api.post(`/api/PaymentLink/${archived.id}/Archive`);
    expect((await api.post(`/api/PaymentLink/${archived.id}/Complete`, body, ik())).body.detail).toMatch(/archived/);
    const price = await oneTimePrice(api, 100);
    const wrongPrice = await api.post(`/api/PaymentLink/${disabled.id}/Duplicate`);
    const mismatch = await api.post(`/api/PaymentLink/${wrongPrice.body.id}/Complete`, { ...body, priceId: price.id }, ik());
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors[0].path).toBe('priceId');
  });

  it('never exceeds maxCompletions under 30 concurrent completions with different keys', async () => {
    const { api, merchant } = await newMerchant();
    const link = await adHocLink(api, { maxCompletions: 3 });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        api.post(`/api/PaymentLink/${link.id}/Complete`, { customerEmail: `buyer${i}@example.com`, tokenRef: 'tok_visa' }, ik()),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(27);
    const succeeded = await getDb()
      .select({ value: count() })
      .from(payments)
      .where(and(eq(payments.merchantId, merchant.id), eq(payments.status, 'succeeded')));
    expect(succeeded[0]!.value).toBe(3);
    expect((await api.get(`/api/PaymentLink/${link.id}`)).body).toMatchObject({ status: 'completed', completionCount: 3 });
  });

  it('produces one payment for 50 concurrent identical Complete calls', async () => {
    const { api, merchant } = await newMerchant();
    const link = await adHocLink(api);
    const headers = ik();
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => api.post(`/api/PaymentLink/${link.id}/Complete`, { customerEmail: 'x@example.com', tokenRef: 'tok_visa' }, headers)),
    );
    expect(answers.every((a) => a.status === 201 || a.body.code === 'IDEMPOTENCY_KEY_IN_USE')).toBe(true);
    expect(await paymentCount(merchant.id)).toBe(1);
    expect((await api.get(`/api/PaymentLink/${link.id}`)).body.completionCount).toBe(1);
  });

  it('enforces auth, 404s and the Idempotency-Key', async () => {
    const owner = await newMerchant();
    const stranger = await newMerchant();
    const link = await adHocLink(owner.api);
    const body = { customerEmail: 'c@example.com', tokenRef: 'tok_visa' };
    expect((await stranger.api.post(`/api/PaymentLink/${link.id}/Complete`, body, ik())).status).toBe(404);
    expect((await owner.api.post(`/api/PaymentLink/${link.id}/Complete`, body)).body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const extra = await owner.api.post(`/api/PaymentLink/${link.id}/Complete`, { ...body, quantity: 2 }, ik());
    expect(extra.status).toBe(400);
    expect(extra.body.errors[0].path).toBe('quantity');
    await expectAuthFailures(owner.merchant.id, 'POST', `/api/PaymentLink/${link.id}/Complete`, 'payment_links:write', body);
  });
});

describe('reconciliation of unknown payments', () => {
  it('settles a timed-out charge that did not go through as failed and gives back what it held', async () => {
    const { api, merchant } = await newMerchant();
    const coupon = await api.post('/api/Coupon', { percentOff: 10, maxRedemptions: 1 });
    await api.post('/api/PromotionCode', { couponId: coupon.body.id, code: 'HELD' });
    const link = await adHocLink(api, { maxCompletions: 1 });
    const answer = await api.post(
      `/api/PaymentLink/${link.id}/Complete`,
      { customerEmail: 'u@example.com', tokenRef: 'tok_unknown', promotionCode: 'HELD' },
      ik(),
    );
    expect(answer.body).toMatchObject({ status: 'open', paid: false, total: 4500, payment: { status: 'unknown' } });
    // While unknown, the payment holds the link's only slot and the coupon's only redemption.
    expect((await api.get(`/api/PaymentLink/${link.id}`)).body).toMatchObject({ status: 'completed', completionCount: 1 });
    expect((await api.get(`/api/Coupon/${coupon.body.id}`)).body.timesRedeemed).toBe(1);

    // The processor's answer for this charge: it was declined after all.
    const paymentId = answer.body.payment.id;
    await getDb()
      .update(sandboxProcessorOperations)
      .set({ status: 'failed', declineCode: 'card_declined', message: 'Your card was declined.' })
      .where(eq(sandboxProcessorOperations.idempotencyKey, paymentId));
    expect(await reconcilePayment(getDb(), paymentId)).toBe('failed');
    expect(await reconcilePayment(getDb(), paymentId)).toBe('not_unknown');

    const checkout = (await api.get(`/api/Checkout/${answer.body.id}`)).body;
    expect(checkout).toMatchObject({ status: 'failed', paid: false, payment: { status: 'failed', failureCode: 'card_declined' } });
    const [record] = await getDb().select().from(billingRecords).where(eq(billingRecords.paymentId, paymentId));
    expect(record!.status).toBe('void');
    expect((await api.get(`/api/PaymentLink/${link.id}`)).body).toMatchObject({ status: 'active', completionCount: 0 });
    expect((await api.get(`/api/Coupon/${coupon.body.id}`)).body.timesRedeemed).toBe(0);
    expect(await eventsOf(merchant.id, 'payment.failed')).toHaveLength(1);
    expect(await eventsOf(merchant.id, 'billing_record.paid')).toHaveLength(0);
    expect(await eventsOf(merchant.id, 'payment_link.completed')).toHaveLength(0);
  });

  it('ends a checkout once: a second finisher gives nothing back again and announces nothing', async () => {
    const { api, merchant } = await newMerchant();
    const coupon = await api.post('/api/Coupon', { percentOff: 10, maxRedemptions: 2 });
    await api.post('/api/PromotionCode', { couponId: coupon.body.id, code: 'TWICE' });
    const link = await adHocLink(api, { maxCompletions: 2 });
    const open = async () => {
      const answer = await api.post(
        `/api/PaymentLink/${link.id}/Complete`,
        { customerEmail: 'u@example.com', tokenRef: 'tok_unknown', promotionCode: 'TWICE' },
        ik(),
      );
      expect(answer.body).toMatchObject({ status: 'open', payment: { status: 'unknown' } });
      const [row] = await getDb().select().from(checkouts).where(eq(checkouts.id, answer.body.id));
      return row!;
    };
    const [declined, paid] = [await open(), await open()];
    expect((await api.get(`/api/PaymentLink/${link.id}`)).body).toMatchObject({ status: 'completed', completionCount: 2 });

    // Two finishers (a recovery and a late request) read the open checkout before either wrote.
    await getDb().transaction((tx) => failCheckout(tx, declined));
    expect(await getDb().transaction((tx) => failCheckout(tx, declined))).toBeUndefined();
    expect((await api.get(`/api/PaymentLink/${link.id}`)).body).toMatchObject({ status: 'active', completionCount: 1 });
    expect((await api.get(`/api/Coupon/${coupon.body.id}`)).body.timesRedeemed).toBe(1);

    await getDb().transaction((tx) => markCheckoutPaid(tx, paid));
    expect(await getDb().transaction((tx) => markCheckoutPaid(tx, paid))).toBeUndefined();
    expect(await getDb().transaction((tx) => markCheckoutPaid(tx, declined))).toBeUndefined();
    const completed = await eventsOf(merchant.id, 'payment_link.completed');
    expect(completed.map((event) => (event.data.object as { checkoutId: string }).checkoutId)).toEqual([paid.id]);
    expect((await api.get(`/api/Checkout/${declined.id}`)).body.status).toBe('failed');

    // Phase 3's outcome is written only over a pending payment: this one is unknown (left to
    // reconciliation), so a finisher that read it pending records and announces nothing.
    const [unknown] = await getDb().select().from(payments).where(eq(payments.id, paid.paymentId!));
    const outcome = { status: 'failed', reference: 'ref', card: null, declineCode: 'card_declined', message: 'Declined.' } as const;
    await expect(getDb().transaction((tx) => recordChargeOutcome(tx, { ...unknown!, status: 'pending' }, outcome))).rejects.toThrow(/pending/);
    expect((await getDb().select().from(payments).where(eq(payments.id, unknown!.id)))[0]!.status).toBe('unknown');
    expect(await eventsOf(merchant.id, 'payment.failed')).toHaveLength(0);
  });
});
