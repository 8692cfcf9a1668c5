import crypto from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, shot, test } from './fixtures';
import { expectNoSidewaysScroll } from './console-helpers';

const DAY_MS = 86_400_000;
const shortDate = (at: Date) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(at);
const longDate = (at: Date) => new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(at);

/** A fresh seller's backend: an API key and a JSON POST helper with it. */
async function sellerBackend(baseURL: string) {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${baseURL}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    const parsed = (await response.json()) as any;
    expect(response.status, `${path}: ${JSON.stringify(parsed)}`).toBeLessThan(300);
    return parsed;
  };
  const email = `sub-checkout-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const seller = await post('/api/MerchantAuth/Register', { email, password: 'a long seller password', name: 'Cloud Notes', accountType: 'Business' });
  const key = await post(
    '/api/MerchantApiKey',
    { name: 'backend', scopes: ['products:write', 'prices:write', 'payment_links:write', 'subscriptions:write'] },
    { Authorization: `Bearer ${seller.accessToken}` },
  );
  const auth = { Authorization: `Bearer ${key.secret}` };
  const product = await post('/api/Product', { name: 'Cloud Notes Pro' }, auth);
  return {
    /** A payment link selling a new monthly price of `amount` cents. */
    async subscriptionLink(amount: number, trialDays?: number) {
      const price = await post(
        '/api/Price',
        { productId: product.id, type: 'Recurring', amount, currency: 'USD', interval: 'month', ...(trialDays ? { trialDays } : {}) },
        auth,
      );
      return (await post('/api/PaymentLink', { priceId: price.id }, auth)) as { token: string };
    },
    async promotionCode(code: string, coupon: Record<string, unknown>) {
      const created = await post('/api/Coupon', coupon, auth);
      await post('/api/PromotionCode', { couponId: created.id, code }, auth);
    },
  };
}

async function fillCustomer(page: Page, cardNumber: string) {
  await page.getByLabel('Email').fill(`customer-${crypto.randomBytes(4).toString('hex')}@example.com`);
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
}

for (const [device, viewport] of [
  ['desktop', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test.describe(`subscription checkout (${device} ${viewport.width}px)`, () => {
    test.use({ viewport });

    test('a trial says what it is, starts with nothing charged, and the success page tells what happens next', async ({ page, baseURL }) => {
      const seller = await sellerBackend(baseURL);
      const link = await seller.subscriptionLink(1999, 7);
      const trialEnd = new Date(Date.now() + 7 * DAY_MS);

      await page.goto(`/pay/${link.token}`);
      await expect(page.getByTestId('recurring-price')).toHaveText('$19.99/month');
      await expect(page.getByText('Free trial')).toBeVisible();
      await expect(page.getByTestId('list-total')).toHaveText('$0.00');
      await expect(page.getByTestId('subscription-terms')).toContainText(`7 days free, then $19.99/month from ${shortDate(trialEnd)}`);
      await expect(page.getByRole('button', { name: /^Pay / })).toHaveCount(0);
      await fillCustomer(page, '4242 4242 4242 4242');
      await expectNoSidewaysScroll(page);
      await shot(page, `sub-checkout-${device}-1-trial-form`);

      await page.getByRole('button', { name: 'Start trial' }).click();
      await expect(page.getByRole('heading', { name: 'Your free trial has started' })).toBeVisible();
      await expect(page.getByText('Payment successful')).toHaveCount(0);
      await expect(page.getByTestId('paid-total')).toHaveText('$0.00');
      await expect(page.getByTestId('next-charge')).toHaveText(`$19.99 on ${longDate(trialEnd)}`);
      await expect(page.getByRole('link', { name: 'Manage your subscription' })).toHaveAttribute('href', /^\/portal\/cus_/);
      await expectNoSidewaysScroll(page);
      await shot(page, `sub-checkout-${device}-2-trial-started`);
    });

    test('a code that cannot apply is refused at Apply; a repeating code shows its months and is charged', async ({ page, baseURL }) => {
      const seller = await sellerBackend(baseURL);
      await seller.promotionCode('EUROS5', { amountOff: 500, currency: 'EUR', duration: 'forever' });
      await seller.promotionCode('THREEOFF', { amountOff: 500, currency: 'USD', duration: 'repeating', durationInMonths: 3 });
      const link = await seller.subscriptionLink(1999);
      const today = new Date();

      await page.goto(`/pay/${link.token}`);
      await expect(page.getByTestId('subscription-terms')).toContainText(
        `$19.99 today, then $19.99/month from ${shortDate(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, today.getUTCDate())))}`,
      );
      await page.getByLabel('Promotion code').fill('euros5');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect(page.getByTestId('promotion-refused')).toHaveText("Promotion code 'EUROS5' applies to EUR purchases only.");
      await expect(page.getByTestId('promotion-applied')).toHaveCount(0);
      await shot(page, `sub-checkout-${device}-3-code-refused`);

      await page.getByLabel('Promotion code').fill('threeoff');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect(page.getByTestId('promotion-applied')).toHaveText('THREEOFF: −$5.00 for 3 months');
      await expect(page.getByTestId('promotion-refused')).toHaveCount(0);
      await expect(page.getByTestId('subscription-terms')).toContainText('$14.99 today, then $14.99/month from');
      await expect(page.getByTestId('subscription-terms')).toContainText(', then $19.99/month from');
      await fillCustomer(page, '4242 4242 4242 4242');
      await shot(page, `sub-checkout-${device}-4-code-applied`);

      await page.getByRole('button', { name: 'Subscribe' }).click();
      await expect(page.getByRole('heading', { name: 'Subscription started' })).toBeVisible();
      await expect(page.getByTestId('paid-total')).toHaveText('$14.99');
      await expect(page.getByTestId('next-charge')).toContainText('$14.99 on');
      await expect(page.getByTestId('next-steps')).toContainText('THREEOFF');
      await expectNoSidewaysScroll(page);
      await shot(page, `sub-checkout-${device}-5-subscribed`);
    });

    test('after a decline, focus moves to the message', async ({ page, baseURL }) => {
      const seller = await sellerBackend(baseURL);
      const link = await seller.subscriptionLink(990);
      await page.goto(`/pay/${link.token}`);
      await fillCustomer(page, '4000 0000 0000 0002');
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await expect(page.getByTestId('decline')).toContainText('Payment declined.');
      await expect(page.getByTestId('decline')).toBeFocused();
      await shot(page, `sub-checkout-${device}-6-declined`);
    });
  });
}
