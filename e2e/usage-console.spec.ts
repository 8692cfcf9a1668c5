import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { expectNoSeriousA11yViolations, expectNoSidewaysScroll, postJson } from './console-helpers';

const PASSWORD = 'a long seller password';
const DAY = 86_400_000;
const WIDTHS = [1440, 390] as const;

test('the customer page charts usage per day against the previous period; the product page lists each price’s policies', async ({ page, baseURL }) => {
  const email = `usage-ui-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const post = postJson(baseURL);
  const json = (apiPath: string, body: unknown, headers: Record<string, string> = {}) =>
    post(apiPath, body, { 'Idempotency-Key': crypto.randomUUID(), ...headers });
  const seller = await json('/api/MerchantAuth/Register', { email, password: PASSWORD, name: 'Chatty', accountType: 'Business' });
  const key = await json(
    '/api/MerchantApiKey',
    { name: 'backend', scopes: ['products:write', 'prices:write', 'payment_links:write', 'entitlements:write'] },
    { Authorization: `Bearer ${seller.accessToken}` },
  );
  const auth = { Authorization: `Bearer ${key.secret}` };
  const product = await json('/api/Product', { name: 'Chatty' }, auth);
  const pro = await json('/api/Price', { productId: product.id, type: 'Recurring', amount: 2000, currency: 'USD', interval: 'month' }, auth);
  const pack = await json('/api/Price', { productId: product.id, type: 'OneTime', amount: 500, currency: 'USD' }, auth);
  await json(`/api/Price/${pro.id}/EntitlementPolicy`, { feature: 'messages', allowed: 'Limited', limit: 100, creditGrantAmount: 20 }, auth);
  await json(`/api/Price/${pro.id}/EntitlementPolicy`, { feature: 'images', allowed: 'Limited', limitAmount: 1500 }, auth);
  await json(`/api/Price/${pro.id}/EntitlementPolicy`, { feature: 'exports', allowed: 'Unlimited' }, auth);
  await json(`/api/Price/${pro.id}/EntitlementPolicy`, { feature: 'voice', allowed: 'Denied' }, auth);
  await json(`/api/Price/${pack.id}/EntitlementPolicy`, { feature: 'messages', allowed: 'Unlimited', creditGrantAmount: 500 }, auth);

  const checkout = await json('/api/Checkout', { priceId: pro.id, customerEmail: `c-${email}`, customerName: 'Ada', tokenRef: 'tok_visa' }, auth);
  const customerId = checkout.customerId as string;
  const entitlements = await (await fetch(`${baseURL}/api/Customer/${customerId}/Entitlement`, { headers: auth })).json();
  const messages = entitlements.data.find((e: { feature: string }) => e.feature === 'messages');
  // Usage on the period's first day and now; and, before the period started, in the previous one.
  const periodStart = new Date(messages.periodStart).getTime();
  await json('/api/Usage', { customerId, feature: 'messages', quantity: 30, timestamp: new Date(periodStart).toISOString() }, auth);
  await json('/api/Usage', { customerId, feature: 'messages', quantity: 12 }, auth);
  await json('/api/Usage', { customerId, feature: 'messages', quantity: 25, timestamp: new Date(periodStart - 3 * DAY).toISOString() }, auth);

  await page.goto('/merchant/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Chatty' })).toBeVisible();

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.goto(`/merchant/customers/${customerId}`);
    const chart = page.locator('[data-feature-history="messages"]');
    await expect(chart).toContainText('42 so far · 25 in the previous period');
    await expect(chart.getByRole('img', { name: 'messages per day' })).toBeVisible();
    await expect(page.locator('[data-feature-history="exports"]')).toContainText('No usage in these two periods.');
    await chart.getByText('Show figures as a table').click();
    const table = chart.getByRole('table', { name: 'messages per day by period' });
    // A row per UTC day of the period (header row first); the first day has both of today's records.
    const periodDays = Math.floor((new Date(messages.periodEnd).getTime() - 1) / DAY) - Math.floor(periodStart / DAY) + 1;
    await expect(table.getByRole('row')).toHaveCount(1 + periodDays);
    await expect(table.getByRole('row').nth(1).getByRole('cell').first()).toHaveText('42');
    await expectNoSidewaysScroll(page);
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('heading', { name: 'Usage by day' }).scrollIntoViewIfNeeded();
    await shot(page, `63-merchant-customer-usage-chart-${width}`);

    await page.goto(`/merchant/products/${product.id}`);
    const prices = page.getByRole('table', { name: 'Prices' });
    // Each price's policies are listed under the price, in its first cell (visible without scrolling the table on a phone).
    const policiesOf = (priceId: string) => prices.getByRole('row').filter({ hasText: priceId }).getByRole('cell').first();
    const proRow = policiesOf(pro.id);
    await expect(proRow.locator('[data-policy-feature="messages"]')).toHaveText('messages · Limited: 100 units per period+20 credits each paid period');
    await expect(proRow.locator('[data-policy-feature="images"]')).toHaveText('images · Limited: $15.00 spend per period');
    await expect(proRow.locator('[data-policy-feature="exports"]')).toHaveText('exports · Unlimited');
    await expect(proRow.locator('[data-policy-feature="voice"]')).toHaveText('voice · Denied');
    await expect(policiesOf(pack.id).getByRole('list', { name: 'Entitlement policies' })).toHaveText('messages · Unlimited+500 credits per purchase');
    await expectNoSidewaysScroll(page);
    await expectNoSeriousA11yViolations(page);
    await shot(page, `64-merchant-product-policies-${width}`);
  }
});
