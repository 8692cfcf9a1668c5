import { describe, expect, it } from 'vitest';
import { discountAmount } from '@/lib/promotions/discount';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { expectAuthFailures } from '../helpers/auth-matrix';
import { adHocLink, ik, oneTimePrice } from '../helpers/payments';

describe('discount rounding', () => {
  it('rounds a percent discount half up, once, on the subtotal', () => {
    expect(discountAmount({ percentOff: 15, amountOff: null }, 999)).toBe(150); // 149.85 → 150
    expect(discountAmount({ percentOff: 10, amountOff: null }, 1005)).toBe(101); // 100.5 → 101 (half up)
    expect(discountAmount({ percentOff: 10, amountOff: null }, 1004)).toBe(100); // 100.4 → 100
    expect(discountAmount({ percentOff: 33, amountOff: null }, 1)).toBe(0); // 0.33 → 0
    expect(discountAmount({ percentOff: 50, amountOff: null }, 1)).toBe(1); // 0.5 → 1
    expect(discountAmount({ percentOff: 100, amountOff: null }, 2_147_483_647)).toBe(2_147_483_647);
    expect(discountAmount({ percentOff: 99, amountOff: null }, 2_147_483_647)).toBe(2_126_008_811); // 2126008810.53 → …811
    expect(discountAmount({ percentOff: null, amountOff: 500 }, 300)).toBe(300); // capped at the subtotal
  });
});

describe('/api/Coupon and /api/PromotionCode', () => {
  it('creates coupons and codes, and validates them', async () => {
    const { api } = await newMerchant();
    const coupon = await api.post('/api/Coupon', { name: 'Launch', percentOff: 20, duration: 'repeating', durationInMonths: 3, maxRedemptions: 10 });
    expect(coupon.status).toBe(201);
    expect(coupon.body).toMatchObject({
      percentOff: 20,
      amountOff: null,
      currency: null,
      duration: 'repeating',
      durationInMonths: 3,
      valid: true,
      timesRedeemed: 0,
    });
    expect(coupon.body.id).toMatch(/^coupon_/);
    expect((await api.get(`/api/Coupon/${coupon.body.id}`)).body).toEqual(coupon.body);
    const cases: [unknown, string][] = [
      [{}, 'percentOff'],
      [{ percentOff: 10, amountOff: 100, currency: 'USD' }, 'percentOff'],
      [{ percentOff: 101 }, 'percentOff'],
      [{ percentOff: 12.5 }, 'percentOff'],
      [{ amountOff: 100 }, 'currency'],
      [{ percentOff: 10, currency: 'USD' }, 'currency'],
      [{ percentOff: 10, duration: 'repeating' }, 'durationInMonths'],
      [{ percentOff: 10, duration: 'weekly' }, 'duration'],
      [{ percentOff: 10, redeemBy: '2000-01-01T00:00:00Z' }, 'redeemBy'],
    ];
    for (const [body, path] of cases) {
      const answer = await api.post('/api/Coupon', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(
        answer.body.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }

    const code = await api.post('/api/PromotionCode', { couponId: coupon.body.id, code: 'SPRING20', maxRedemptions: 5 });
    expect(code.status).toBe(201);
    expect(code.body).toMatchObject({ code: 'SPRING20', active: true, couponId: coupon.body.id, coupon: { percentOff: 20 } });
    expect(code.body.id).toMatch(/^promo_/);
    const duplicate = await api.post('/api/PromotionCode', { couponId: coupon.body.id, code: 'spring20' });
    expect(duplicate.status).toBe(409);
    expect((await api.post('/api/PromotionCode', { couponId: 'coupon_nope', code: 'OTHER' })).status).toBe(404);
    expect((await api.post('/api/PromotionCode', { couponId: coupon.body.id, code: 'a b' })).status).toBe(400);
    const off = await api.put(`/api/PromotionCode/${code.body.id}`, { active: false });
    expect(off.body.active).toBe(false);
    expect((await api.put(`/api/PromotionCode/${code.body.id}`, { code: 'X' })).status).toBe(400);
    const list = await api.get('/api/PromotionCode?code=spring20');
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([code.body.id]);
    expect((await api.get('/api/PromotionCode?active=true')).body.totalCount).toBe(0);
    expect((await api.get('/api/Coupon')).body.totalCount).toBe(1);
  });

  it('applies percent and fixed codes to checkout totals, in JPY too', async () => {
    const { api } = await newMerchant();
    const percent = await api.post('/api/Coupon', { percentOff: 15 });
    await api.post('/api/PromotionCode', { couponId: percent.body.id, code: 'FIFTEEN' });
    const price = await oneTimePrice(api, 333, 'USD');
    const answer = await api.post(
      '/api/Checkout',
      { priceId: price.id, quantity: 3, customerEmail: 'p@example.com', tokenRef: 'tok_visa', promotionCode: 'fifteen' },
      ik(),
    );
    // 999 × 15% = 149.85 → 150 off the whole subtotal (per unit it would have been 3 × 50 = 150 too, but rounding is once).
    expect(answer.body).toMatchObject({ subtotal: 999, discountAmount: 150, total: 849, promotionCode: 'FIFTEEN', couponId: percent.body.id });
    expect(answer.body.payment.amount).toBe(849);

    const yenOff = await api.post('/api/Coupon', { amountOff: 500, currency: 'JPY' });
    await api.post('/api/PromotionCode', { couponId: yenOff.body.id, code: 'YEN500' });
    const yen = await oneTimePrice(api, 1980, 'JPY');
    const jpy = await api.post('/api/Checkout', { priceId: yen.id, customerEmail: 'p@example.com', tokenRef: 'tok_visa', promotionCode: 'YEN500' }, ik());
    expect(jpy.body).toMatchObject({ subtotal: 1980, discountAmount: 500, total: 1480, currency: 'JPY' });
    const wrongCurrency = await api.post(
      '/api/Checkout',
      { priceId: price.id, customerEmail: 'p@example.com', tokenRef: 'tok_visa', promotionCode: 'YEN500' },
      ik(),
    );
    expect(wrongCurrency.status).toBe(400);
    expect(wrongCurrency.body.detail).toMatch(/JPY/);

    const jpyPercent = await api.post(
      '/api/Checkout',
      { priceId: yen.id, customerEmail: 'p@example.com', tokenRef: 'tok_visa', promotionCode: 'FIFTEEN' },
      ik(),
    );
    expect(jpyPercent.body).toMatchObject({ discountAmount: 297, total: 1683 }); // 1980 × 15% = 297 exactly

    const full = await api.post('/api/Coupon', { percentOff: 100 });
    await api.post('/api/PromotionCode', { couponId: full.body.id, code: 'FREE' });
    const free = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'p@example.com', tokenRef: 'tok_declined', promotionCode: 'FREE' }, ik());
    expect(free.body).toMatchObject({ total: 0, paid: true, payment: { amount: 0, status: 'succeeded' } });
  });

  it('enforces redemption limits and expiry, and gives a redemption back when the payment fails', async () => {
    const { api } = await newMerchant();
    const price = await oneTimePrice(api, 1000);
    const coupon = await api.post('/api/Coupon', { amountOff: 100, currency: 'USD', maxRedemptions: 2 });
    const code = await api.post('/api/PromotionCode', { couponId: coupon.body.id, code: 'TWICE' });
    const pay = (token = 'tok_visa') =>
      api.post('/api/Checkout', { priceId: price.id, customerEmail: 'r@example.com', tokenRef: token, promotionCode: 'TWICE' }, ik());
    expect((await pay('tok_declined')).status).toBe(402);
    expect((await api.get(`/api/PromotionCode/${code.body.id}`)).body.timesRedeemed).toBe(0);
    expect((await pay()).status).toBe(201);
    expect((await pay()).status).toBe(201);
    const third = await pay();
    expect(third.status).toBe(400);
    expect(third.body.errors[0].path).toBe('promotionCode');
    expect((await api.get(`/api/Coupon/${coupon.body.id}`)).body).toMatchObject({ timesRedeemed: 2, valid: false });

    const limited = await api.post('/api/Coupon', { percentOff: 5 });
    await api.post('/api/PromotionCode', { couponId: limited.body.id, code: 'ONCE', maxRedemptions: 1 });
    const link = await adHocLink(api);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        api.post(`/api/PaymentLink/${link.id}/Complete`, { customerEmail: `c${i}@example.com`, tokenRef: 'tok_visa', promotionCode: 'ONCE' }, ik()),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 400)).toHaveLength(9);
  });

  it('answers PUT with {} or no body with the code unchanged', async () => {
    const { api, key } = await newMerchant();
    const coupon = await api.post('/api/Coupon', { percentOff: 10 });
    const code = await api.post('/api/PromotionCode', { couponId: coupon.body.id, code: 'SAME', metadata: { team: 'a' } });
    const empty = await api.put(`/api/PromotionCode/${code.body.id}`, {});
    expect(empty.status, empty.text).toBe(200);
    expect(empty.body).toEqual(code.body);
    const bodiless = await call('PUT', `/api/PromotionCode/${code.body.id}`, { key });
    expect(bodiless.status, bodiless.text).toBe(200);
    expect(bodiless.body).toEqual(code.body);
    expect((await api.put('/api/PromotionCode/promo_none', {})).status).toBe(404);
    const changed = await api.put(`/api/PromotionCode/${code.body.id}`, { active: false });
    expect(changed.body).toMatchObject({ active: false, metadata: { team: 'a' } });
  });

  it('enforces scopes and tenancy', async () => {
    const owner = await newMerchant();
    const stranger = await newMerchant();
    const coupon = await owner.api.post('/api/Coupon', { percentOff: 10 });
    const code = await owner.api.post('/api/PromotionCode', { couponId: coupon.body.id, code: 'MINE' });
    expect((await stranger.api.get(`/api/Coupon/${coupon.body.id}`)).status).toBe(404);
    expect((await stranger.api.get(`/api/PromotionCode/${code.body.id}`)).status).toBe(404);
    expect((await stranger.api.post('/api/PromotionCode', { couponId: coupon.body.id, code: 'THEIRS' })).status).toBe(404);
    const price = await oneTimePrice(stranger.api, 100);
    const foreign = await stranger.api.post(
      '/api/Checkout',
      { priceId: price.id, customerEmail: 'a@example.com', tokenRef: 'tok_visa', promotionCode: 'MINE' },
      ik(),
    );
    expect(foreign.status).toBe(400);
    const id = owner.merchant.id;
    await expectAuthFailures(id, 'GET', '/api/Coupon', 'payment_links:read');
    await expectAuthFailures(id, 'POST', '/api/Coupon', 'payment_links:write', { percentOff: 5 });
    await expectAuthFailures(id, 'GET', `/api/Coupon/${coupon.body.id}`, 'payment_links:read');
    await expectAuthFailures(id, 'GET', '/api/PromotionCode', 'payment_links:read');
    await expectAuthFailures(id, 'POST', '/api/PromotionCode', 'payment_links:write', { couponId: coupon.body.id, code: 'ABC' });
    await expectAuthFailures(id, 'GET', `/api/PromotionCode/${code.body.id}`, 'payment_links:read');
    await expectAuthFailures(id, 'PUT', `/api/PromotionCode/${code.body.id}`, 'payment_links:write', { active: false });
  });
});
