import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { expectNoSeriousA11yViolations, expectNoSidewaysScroll, postJson } from './console-helpers';

/** A seller with 10 % sales tax on every sale, a 10 %-off promotion code and a $10.00 link whose buyer chooses 1–5 units. */
async function quantitySeller(baseURL: string) {
  const post = postJson(baseURL);
  const suffix = crypto.randomBytes(4).toString('hex');
  const seller = await post('/api/MerchantAuth/Register', {
    email: `quantity-${suffix}@example.com`,
    password: 'a long seller password',
    name: 'Candle Co',
    accountType: 'Business',
  });
  const key = await post(
    '/api/MerchantApiKey',
    { name: 'backend', scopes: ['prices:write', 'payment_links:write', 'payments:read'] },
    { Authorization: `Bearer ${seller.accessToken}` },
  );
  const auth = { Authorization: `Bearer ${key.secret}` };
  const salesTax = await post('/api/TaxRate', { displayName: 'Sales tax', percentage: '10', inclusive: false }, auth);
  const settings = await fetch(`${baseURL}/api/MerchantSettings`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${seller.accessToken}` },
    body: JSON.stringify({ defaultTaxRateIds: [salesTax.id] }),
  });
  expect(settings.status).toBe(200);
  const coupon = await post('/api/Coupon', { name: 'Ten off', percentOff: 10 }, auth);
  const code = `TEN${suffix}`.toUpperCase();
  await post('/api/PromotionCode', { couponId: coupon.id, code }, auth);
  const link = await post(
    '/api/PaymentLink',
    { name: 'Beeswax candle', unitAmount: 1000, currency: 'USD', quantity: 2, adjustableQuantity: { enabled: true, minimum: 1, maximum: 5 } },
    auth,
  );
  return { link: link as { token: string; id: string }, code, auth };
}

test('the buyer chooses the quantity; with a promotion code and tax the summary, the Pay button and the charge agree', async ({ page, baseURL }) => {
  const { link, code, auth } = await quantitySeller(baseURL!);
  await page.goto(`/pay/${link.token}`);
  // 2 × $10.00 + 10 % tax.
  await expect(page.getByRole('button', { name: 'Pay $22.00' })).toBeVisible();
  await page.getByRole('button', { name: 'Quantity +1' }).click();
  await expect(page.getByTestId('list-total')).toHaveText('$33.00');
  await expect(page.getByRole('button', { name: 'Pay $33.00' })).toBeVisible();

  await page.getByLabel('Promotion code').fill(code);
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('promotion-applied')).toContainText('$3.00');
  // (3 × $10.00 − $3.00) + 10 % tax = $29.70, in the summary and on the button.
  await expect(page.getByTestId('list-total')).toHaveText('$29.70');
  await expect(page.getByRole('button', { name: 'Pay $29.70' })).toBeVisible();

  // Typed beyond the bounds, the quantity stops at the most the seller allows.
  await page.getByLabel('Quantity', { exact: true }).fill('9');
  await page.getByLabel('Quantity', { exact: true }).press('Enter');
  await expect(page.getByLabel('Quantity', { exact: true })).toHaveValue('5');
  await expect(page.getByTestId('list-total')).toHaveText('$49.50');
  await expect(page.getByRole('button', { name: 'Quantity +1' })).toBeDisabled();

  await page.getByRole('button', { name: 'Quantity −1' }).click();
  await expect(page.getByTestId('list-total')).toHaveText('$39.60');
  await page.getByLabel('Email').fill(`buyer-${crypto.randomBytes(4).toString('hex')}@example.com`);
  await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'checkout-quantity-1');

  await page.getByRole('button', { name: 'Pay $39.60' }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(page.getByTestId('paid-total')).toHaveText('$39.60');
  const answer = await fetch(`${baseURL}/api/Payment`, { headers: auth });
  const payments = await answer.json();
  expect(answer.status, JSON.stringify(payments)).toBe(200);
  expect(payments.data[0]).toMatchObject({ amount: 3960, status: 'succeeded' });
});

test('a German checkout answers in German, <html lang="de"> included, quantity field and totals', async ({ browser, baseURL }) => {
  const { link } = await quantitySeller(baseURL!);
  const context = await browser.newContext({ locale: 'de' });
  const page = await context.newPage();
  await page.goto(`/pay/${link.token}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByLabel('Menge', { exact: true })).toHaveValue('2');
  await page.getByRole('button', { name: 'Menge +1' }).click();
  await expect(page.getByTestId('list-total')).toHaveText('33,00 $');
  await shot(page, 'checkout-quantity-2-de');
  await context.close();
});
