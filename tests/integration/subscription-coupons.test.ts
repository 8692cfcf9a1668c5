import { describe, expect, it } from 'vitest';
import { newMerchant } from '../helpers/merchants';
import { eventsOf, ik } from '../helpers/payments';
import { advance, clockFor, customerWithCard, recurringPrice } from '../helpers/subscriptions';

type Merchant = Awaited<ReturnType<typeof newMerchant>>;

async function promotion(api: Merchant['api'], code: string, coupon: Record<string, unknown>) {
  const created = await api.post('/api/Coupon', coupon);
  expect(created.status, created.text).toBe(201);
  const promo = await api.post('/api/PromotionCode', { couponId: created.body.id, code });
  expect(promo.status, promo.text).toBe(201);
  return created.body.id as string;
}

/** A customer on a test clock subscribes through POST /api/Checkout with a promotion code. */
async function subscribeWithCode(merchant: Merchant, input: { amount: number; code: string; trialDays?: number; start: string }) {
  const { api } = merchant;
  const price = await recurringPrice(api, { amount: input.amount, ...(input.trialDays ? { trialDays: input.trialDays } : {}) });
  const { customerId, paymentMethodId } = await customerWithCard(api, merchant.merchant.id);
  const clock = await clockFor(api, customerId, input.start);
  const checkout = await api.post('/api/Checkout', { priceId: price.id, customerId, paymentMethodRefId: paymentMethodId, promotionCode: input.code }, ik());
  expect(checkout.status, checkout.text).toBe(201);
  return { checkout: checkout.body, clock, customerId, priceId: price.id };
}

/** Every billing record of the merchant, oldest first, as its `billing_record.created` event told it. */
async function billingRecords(merchantId: string) {
  const created = await eventsOf(merchantId, 'billing_record.created');
  return created.map((event) => {
    const record = event.data.object as { amount: number; discountAmount: number; couponId: string | null };
    return { amount: record.amount, discountAmount: record.discountAmount, couponId: record.couponId };
  });
}

const MONTHS = ['2030-02-15T00:00:00Z', '2030-03-15T00:00:00Z', '2030-04-15T00:00:00Z', '2030-05-15T00:00:00Z', '2030-06-15T00:00:00Z'];

describe('Coupon durations on subscriptions (test clock, over HTTP)', () => {
  it('once: discounts the first period only', async () => {
    const merchant = await newMerchant();
    const couponId = await promotion(merchant.api, 'WELCOME25', { percentOff: 25, duration: 'once' });
    const { checkout, clock } = await subscribeWithCode(merchant, { amount: 1999, code: 'welcome25', start: '2030-01-15T00:00:00Z' });
    // 25% of 1999 = 499.75, rounded half up once: 500.
    expect(checkout).toMatchObject({ paid: true, subtotal: 1999, discountAmount: 500, total: 1499, promotionCode: 'WELCOME25', couponId });
    const sub = (await merchant.api.get(`/api/Subscription/${checkout.subscriptionId}`)).body;
    expect(sub.discount).toMatchObject({ couponId, duration: 'once', start: '2030-01-15T00:00:00.000Z', end: '2030-02-15T00:00:00.000Z' });
    expect(sub.upcomingRenewal).toMatchObject({ at: '2030-02-15T00:00:00.000Z', amount: 1999, discountAmount: 0, amountDue: 1999 });
    for (const month of MONTHS.slice(0, 4)) await advance(merchant.api, clock, month);
    expect(await billingRecords(merchant.merchant.id)).toEqual([
      { amount: 1499, discountAmount: 500, couponId },
      { amount: 1999, discountAmount: 0, couponId: null },
      { amount: 1999, discountAmount: 0, couponId: null },
      { amount: 1999, discountAmount: 0, couponId: null },
      { amount: 1999, discountAmount: 0, couponId: null },
    ]);
  });

  it('repeating 3: discounts three periods, then renews at the full price', async () => {
    const merchant = await newMerchant();
    const couponId = await promotion(merchant.api, 'THREEOFF', { amountOff: 500, currency: 'USD', duration: 'repeating', durationInMonths: 3 });
    const { checkout, clock } = await subscribeWithCode(merchant, { amount: 1999, code: 'THREEOFF', start: '2030-01-15T00:00:00Z' });
    expect(checkout).toMatchObject({ subtotal: 1999, discountAmount: 500, total: 1499 });
    const subscriptionPath = `/api/Subscription/${checkout.subscriptionId}`;
    expect((await merchant.api.get(subscriptionPath)).body.discount).toMatchObject({
      duration: 'repeating',
      durationInMonths: 3,
      end: '2030-04-15T00:00:00.000Z',
    });
    await advance(merchant.api, clock, MONTHS[0]!);
    await advance(merchant.api, clock, MONTHS[1]!);
    // The third period is discounted, and the preview of the next renewal says it is not.
    const third = (await merchant.api.get(subscriptionPath)).body;
    expect(third.latestBillingRecord).toMatchObject({ periodIndex: 2, amount: 1499, discountAmount: 500, couponId });
    expect(third.upcomingRenewal).toMatchObject({ at: '2030-04-15T00:00:00.000Z', discountAmount: 0, amountDue: 1999 });
    await advance(merchant.api, clock, MONTHS[2]!);
    await advance(merchant.api, clock, MONTHS[3]!);
    await advance(merchant.api, clock, MONTHS[4]!);
    expect((await billingRecords(merchant.merchant.id)).map((r) => [r.amount, r.discountAmount])).toEqual([
      [1499, 500],
      [1499, 500],
      [1499, 500],
      [1999, 0],
      [1999, 0],
      [1999, 0],
    ]);
  });

  it('forever: discounts every renewal, after a trial, and prorates a price change net of the discount', async () => {
    const merchant = await newMerchant();
    const couponId = await promotion(merchant.api, 'LOYAL10', { percentOff: 10, duration: 'forever' });
    const { checkout, clock, priceId } = await subscribeWithCode(merchant, { amount: 1999, code: 'LOYAL10', trialDays: 7, start: '2030-01-08T00:00:00Z' });
    // Nothing is due today during the trial; the first paid period (from the trial end) is discounted.
    expect(checkout).toMatchObject({ paid: true, total: 0, discountAmount: 0, couponId });
    const subscriptionPath = `/api/Subscription/${checkout.subscriptionId}`;
    const trialing = (await merchant.api.get(subscriptionPath)).body;
    expect(trialing).toMatchObject({ status: 'trialing', discount: { duration: 'forever', start: '2030-01-15T00:00:00.000Z', end: null } });
    expect(trialing.upcomingRenewal).toMatchObject({ at: '2030-01-15T00:00:00.000Z', amount: 1999, discountAmount: 200, amountDue: 1799 });
    await advance(merchant.api, clock, '2030-01-15T00:00:00Z');
    for (const month of MONTHS.slice(0, 4)) await advance(merchant.api, clock, month);
    expect(await billingRecords(merchant.merchant.id)).toEqual(Array.from({ length: 5 }, () => ({ amount: 1799, discountAmount: 200, couponId })));

    // Half way through the period an upgrade to 2999 prorates the discounted amounts: (2699 − 1799) / 2.
    const product = (await merchant.api.get(`/api/Price/${priceId}`)).body.productId;
    const bigger = await recurringPrice(merchant.api, { amount: 2999, productId: product });
    const current = (await merchant.api.get(subscriptionPath)).body;
    const start = new Date(current.currentPeriodStart).getTime();
    const middle = new Date(start + (new Date(current.currentPeriodEnd).getTime() - start) / 2).toISOString();
    await advance(merchant.api, clock, middle);
    const preview = await merchant.api.post(`${subscriptionPath}/Preview`, { priceId: bigger.id });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toMatchObject({ net: 450, amountDueNow: 450, nextRenewal: { amount: 2999, discountAmount: 300, amountDue: 2699 } });
  });

  it('says before payment that a code cannot apply, and charges nothing for it', async () => {
    const merchant = await newMerchant();
    await promotion(merchant.api, 'EUROS', { amountOff: 500, currency: 'EUR', duration: 'forever' });
    const price = await recurringPrice(merchant.api, { amount: 1999 });
    const answer = await merchant.api.post(
      '/api/Checkout',
      { priceId: price.id, customerEmail: 'e@example.com', tokenRef: 'tok_visa', promotionCode: 'EUROS' },
      ik(),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0]).toMatchObject({ path: 'promotionCode', message: expect.stringMatching(/EUR purchases only/) });
    expect((await merchant.api.get('/api/Subscription')).body.totalCount).toBe(0);
  });
});
