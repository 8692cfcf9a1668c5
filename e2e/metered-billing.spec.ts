import crypto from 'node:crypto';
import type { Page } from '@playwright/test';
import { SCOPES } from '../lib/http/scopes';
import { expect, shot, test } from './fixtures';
import { expectNoSeriousA11yViolations, expectNoSidewaysScroll, postJson } from './console-helpers';

// Issue 31 in the browser: metered prices made and previewed on the product page, usage lines on
// billing records (console, hosted invoice in other languages), the upcoming invoice (console and
// portal) and a subscription's metered items added and removed from the console.

const PASSWORD = 'a long seller password';

async function newSeller(baseURL: string, name: string) {
  const email = `metered-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const post = postJson(baseURL);
  const json = (apiPath: string, body: unknown, headers: Record<string, string> = {}) =>
    post(apiPath, body, { 'Idempotency-Key': crypto.randomUUID(), ...headers });
  const seller = await json('/api/MerchantAuth/Register', { email, password: PASSWORD, name, accountType: 'Business' });
  const key = await json('/api/MerchantApiKey', { name: 'backend', scopes: [...SCOPES] }, { Authorization: `Bearer ${seller.accessToken}` });
  const auth = { Authorization: `Bearer ${key.secret}` };
  const get = async (apiPath: string) => {
    const response = await fetch(`${baseURL}${apiPath}`, { headers: auth });
    expect(response.status).toBe(200);
    return (await response.json()) as any;
  };
  return { email, api: (apiPath: string, body: unknown) => json(apiPath, body, auth), get };
}

async function signIn(page: Page, email: string, name: string) {
  await page.goto('/merchant/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: `Welcome, ${name}` })).toBeVisible();
}

test('the product page creates metered prices (per unit, decimal, graduated) with a preview of what N units cost', async ({ page, baseURL }) => {
  const { email, api, get } = await newSeller(baseURL, 'Meterly');
  const product = await api('/api/Product', { name: 'Meterly API' });
  await signIn(page, email, 'Meterly');
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto(`/merchant/products/${product.id}`);
  const form = page.getByRole('form', { name: 'New price' });
  await form.getByLabel('Type', { exact: true }).selectOption('Recurring');
  await form.getByLabel('Billing').selectOption('metered');
  await form.getByLabel('Feature').fill('api_calls');
  await form.getByLabel('Price per unit').fill('0.05');
  const preview = form.getByTestId('usage-preview');
  await preview.getByLabel('Units of usage in a period').fill('1234');
  // 1,234 units at 5 cents: $61.70.
  await expect(preview.getByTestId('usage-preview-total')).toHaveText('1,234 api_calls units cost $61.70');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'metered-1-per-unit-preview');
  await form.getByRole('button', { name: 'Create price' }).click();
  await expect(form.getByText('Price created.')).toBeVisible();
  const prices = page.getByRole('table', { name: 'Prices' });
  await expect(prices.getByTestId('price-terms')).toHaveText(['$0.05 per api_calls unit']);
  await expect(prices).toContainText('in arrears · sum of api_calls usage');

  // A decimal price: fractions of a cent, rounded once per line.
  await form.getByLabel('Type', { exact: true }).selectOption('Recurring');
  await form.getByLabel('Billing').selectOption('metered');
  await form.getByLabel('Feature').fill('tokens');
  await form.getByLabel('Price per unit').fill('0.0004');
  await preview.getByLabel('Units of usage in a period').fill('1234');
  await expect(preview.getByTestId('usage-preview-total')).toHaveText('1,234 tokens units cost $0.49');
  await expect(preview).toContainText('Exactly $0.4936, rounded once, half up, to the minor unit.');
  await form.getByRole('button', { name: 'Create price' }).click();
  await expect(form.getByText('Price created.')).toBeVisible();
  await expect(prices.getByTestId('price-terms').first()).toHaveText('$0.0004 per tokens unit');

  // Graduated tiers: first 1,000 free, then 2 cents → $4.68 for 1,234. A tier row is added and removed.
  await form.getByLabel('Type', { exact: true }).selectOption('Recurring');
  await form.getByLabel('Billing').selectOption('metered');
  await form.getByLabel('Feature').fill('messages');
  await form.getByLabel('Pricing model').selectOption('graduated');
  await form.getByRole('button', { name: 'Add tier' }).click();
  await expect(form.locator('[data-tier-row]')).toHaveCount(3);
  await form.getByRole('button', { name: 'Remove tier 3' }).click();
  await expect(form.locator('[data-tier-row]')).toHaveCount(2);
  // The first tier's "Up to" left empty: the API's refusal is shown on that tier's row.
  await form.getByLabel('Tier 1 unit price').fill('0');
  await form.getByLabel('Tier 2 unit price').fill('0.02');
  await form.getByRole('button', { name: 'Create price' }).click();
  await expect(form.locator('[data-tier-row="1"]')).toContainText('Tier 1: Only the last tier has upTo: null.');
  await expect(form.getByLabel('Tier 1 up to')).toHaveAttribute('aria-invalid', 'true');
  await form.getByLabel('Tier 1 up to').fill('1000');
  await preview.getByLabel('Units of usage in a period').fill('1234');
  await expect(preview.getByTestId('usage-preview-total')).toHaveText('1,234 messages units cost $4.68');
  const breakdown = preview.getByTestId('tier-breakdown');
  await expect(breakdown.getByRole('row').nth(1)).toHaveText(/^1 \(up to 1,000\)1,000\$0\.00\$0\.00$/);
  await expect(breakdown.getByRole('row').nth(2)).toHaveText(/^2 \(and above\)234\$0\.02\$4\.68$/);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'metered-2-graduated-preview');
  await form.getByRole('button', { name: 'Create price' }).click();
  await expect(form.getByText('Price created.')).toBeVisible();
  await expect(prices.getByTestId('price-terms').first()).toHaveText('Graduated: first 1,000 free, then $0.02 per messages unit');

  // What the form created is what the API would have: whole cents, an exact decimal, tiers.
  const created = (await get(`/api/Price?productId=${product.id}&orderDirection=asc`)).data;
  expect(created.map((p: any) => [p.usageType, p.feature, p.amount, p.unitAmountDecimal, p.tiersMode, p.tiers])).toEqual([
    ['metered', 'api_calls', 5, null, null, null],
    ['metered', 'tokens', 0, '0.04', null, null],
    [
      'metered',
      'messages',
      0,
      null,
      'graduated',
      [
        { upTo: 1000, unitAmount: 0, unitAmountDecimal: null, flatAmount: null },
        { upTo: null, unitAmount: 2, unitAmountDecimal: null, flatAmount: null },
      ],
    ],
  ]);
  await expectNoSidewaysScroll(page);
  await shot(page, 'metered-3-price-list');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await shot(page, 'metered-4-price-list-phone');
});

test('usage lines, the upcoming invoice and metered items: console, portal and the hosted invoice in German and Japanese', async ({
  page,
  browser,
  baseURL,
}) => {
  const { email, api, get } = await newSeller(baseURL, 'Tokenworks');
  const product = await api('/api/Product', { name: 'Tokenworks API' });
  const metered = { productId: product.id, type: 'Recurring', currency: 'USD', interval: 'month', usageType: 'metered' };
  const pro = await api('/api/Price', { productId: product.id, type: 'Recurring', amount: 2000, currency: 'USD', interval: 'month' });
  const calls = await api('/api/Price', { ...metered, feature: 'api_calls', amount: 5 });
  const messages = await api('/api/Price', {
    ...metered,
    feature: 'messages',
    tiersMode: 'graduated',
    tiers: [
      { upTo: 1000, unitAmount: 0 },
      { upTo: null, unitAmount: 2 },
    ],
  });
  const tokens = await api('/api/Price', { ...metered, feature: 'tokens', unitAmountDecimal: '0.04' });
  const customerEmail = `metered-customer-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const customer = await api('/api/Customer', { email: customerEmail, name: 'Ada Lovelace' });
  const clock = await api('/api/TestClock', { name: 'a month of usage', frozenTime: '2030-01-10T12:00:00.000Z' });
  await api(`/api/TestClock/${clock.id}/Customer`, { customerId: customer.id });
  await api(`/api/Customer/${customer.id}/PaymentMethod`, { tokenRef: 'tok_visa', makeDefault: true });
  const sub = await api('/api/Subscription', { customerId: customer.id, priceId: pro.id, items: [{ priceId: calls.id }, { priceId: messages.id }] });
  await api(`/api/Customer/${customer.id}/CreditGrant`, { feature: 'api_calls', amount: 100, reason: 'Welcome credits' });
  await api('/api/Usage', { customerId: customer.id, feature: 'api_calls', quantity: 1234 });
  await api('/api/Usage', { customerId: customer.id, feature: 'messages', quantity: 1234 });

  await signIn(page, email, 'Tokenworks');
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto(`/merchant/subscriptions/${sub.id}`);
  const items = page.getByRole('list', { name: 'Metered items' });
  await expect(items.locator('[data-item-feature="api_calls"]')).toContainText('$0.05 per api_calls unit, billed monthly in arrears');
  await expect(items.locator('[data-item-feature="messages"]')).toContainText(
    'Graduated: first 1,000 free, then $0.02 per messages unit, billed monthly in arrears',
  );
  await expect(page.getByText('$20.00 on 2030-02-10 in advance, plus the period’s usage (Upcoming invoice below)')).toBeVisible();
  // AddItem from the console, then usage of it, then (days later) RemoveItem: its usage so far is still billed.
  const add = page.getByRole('form', { name: 'Add metered item' });
  await add.getByLabel('Add a metered price').selectOption(tokens.id);
  await add.getByRole('button', { name: 'Add item' }).click();
  await expect(page.getByText(/^Item added \(version \d+\)\.$/)).toBeVisible();
  await expect(items.locator('[data-item-feature="tokens"]')).toContainText('$0.0004 per tokens unit');
  await api('/api/Usage', { customerId: customer.id, feature: 'tokens', quantity: 1234 });
  await api(`/api/TestClock/${clock.id}/Advance`, { frozenTime: '2030-01-20T12:00:00.000Z' });
  await page.reload();
  const remove = page.getByRole('form', { name: 'Remove metered item' });
  await remove.getByLabel('Remove an item').selectOption(tokens.id);
  await remove.getByRole('button', { name: 'Remove item' }).click();
  await expect(page.getByText(/^Item removed \(version \d+\)\.$/)).toBeVisible();
  await expect(items.locator('[data-item-feature="tokens"]')).toHaveCount(0);
  expect((await get(`/api/Subscription/${sub.id}`)).items.map((item: any) => item.feature)).toEqual(['api_calls', 'messages']);

  // The upcoming invoice: next period's $20.00 in advance and this period's usage so far.
  // 1,234 × $0.05 = $61.70; first 1,000 free then 234 × $0.02 = $4.68; 1,234 × $0.0004 = $0.4936 → $0.49;
  // 100 api_calls paid by credits: −$5.00. Total $81.87.
  await page.reload();
  const upcoming = page.getByTestId('upcoming-invoice');
  await expect(upcoming.getByTestId('upcoming-total')).toHaveText('$81.87');
  const lines = upcoming.getByTestId('billing-lines');
  await expect(lines.locator('[data-line-kind="usage"][data-feature="api_calls"]')).toContainText('1,234 × $0.05');
  await expect(lines.locator('[data-line-kind="usage"][data-feature="api_calls"]')).toContainText('$61.70');
  await expect(lines.locator('[data-line-kind="usage"][data-feature="messages"]').getByTestId('tier-breakdown')).toContainText('234$0.02$4.68');
  await expect(lines.locator('[data-line-kind="usage"][data-feature="tokens"]')).toContainText('1,234 × $0.0004');
  await expect(lines.locator('[data-line-kind="credit"][data-feature="api_calls"]')).toContainText('Credits applied: 100 api_calls units');
  await expect(lines.locator('[data-line-kind="credit"][data-feature="api_calls"]')).toContainText('-$5.00');
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'metered-5-subscription-upcoming');
  await page.goto(`/merchant/customers/${customer.id}`);
  await expect(page.getByTestId('upcoming-invoice').getByTestId('upcoming-total')).toHaveText('$81.87');
  await shot(page, 'metered-6-customer-upcoming');

  // The customer sees the same upcoming invoice in the portal.
  await page.goto(`/portal/${customer.id}`);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByText('a sign-in link is on its way')).toBeVisible();
  await page.goto('/dev/mailbox');
  await page.getByLabel('Recipient').fill(customerEmail);
  await page.getByRole('button', { name: 'Filter' }).click();
  await page.getByRole('link', { name: /\/portal\/cus_.*\/verify\?token=/ }).click();
  await page.waitForLoadState('networkidle');
  await page.getByLabel('Your email').fill(customerEmail);
  await page.getByRole('button', { name: 'Continue' }).click();
  const portalUpcoming = page.getByTestId('portal-upcoming-invoice');
  await expect(portalUpcoming).toContainText('Total so far$81.87');
  await expect(page.getByText('$20.00 on 10 Feb 2030, plus your usage this period')).toBeVisible();
  await expect(portalUpcoming).toContainText('Tokenworks API — api_calls usage');
  await expect(portalUpcoming).toContainText('1,234 units at $0.05 each');
  await expect(portalUpcoming).toContainText('Tier 2: 234 units at $0.02 each = $4.68');
  await expect(portalUpcoming).toContainText('Credits applied: 100 api_calls units');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'metered-7-portal-upcoming');

  // The period ends: the renewal's billing record carries the usage lines, and is paid.
  // Past the period end and its usage grace window (USAGE_GRACE_PERIOD, 1 h): the renewal is charged then.
  await api(`/api/TestClock/${clock.id}/Advance`, { frozenTime: '2030-02-10T13:00:01.000Z' });
  const records = (await get(`/api/BillingRecord?subscriptionId=${sub.id}&pageSize=100`)).data;
  const renewal = records.find((record: any) => record.periodIndex === 1);
  expect(renewal).toMatchObject({ status: 'paid', total: 8187 });
  await page.goto(`/merchant/subscriptions/${sub.id}`);
  const recordRow = page.getByRole('table', { name: 'Billing records' }).getByRole('row').filter({ hasText: 'subscription period 2' });
  await expect(recordRow.locator('[data-line-kind="usage"][data-feature="api_calls"]')).toContainText('1,234 × $0.05');
  await expect(recordRow.locator('[data-line-kind="usage"][data-feature="messages"]').getByTestId('tier-breakdown')).toContainText('1,000$0.00$0.00');
  await expect(recordRow.locator('[data-line-kind="credit"]')).toContainText('-$5.00');
  await expectNoSidewaysScroll(page);
  await shot(page, 'metered-8-subscription-record-lines');
  await page.goto(`/merchant/customers/${customer.id}`);
  await expect(page.getByRole('table', { name: 'Billing records' }).locator('[data-line-kind="usage"][data-feature="tokens"]')).toContainText('$0.49');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await shot(page, 'metered-9-customer-record-lines-phone');

  // The hosted invoice in the customer's language: every usage word translated.
  for (const [locale, expected] of [
    [
      'de-DE',
      [
        'Tokenworks API — Nutzung von api_calls',
        '1.234 Einheiten zu je 0,05\u00a0$',
        'Stufe 2: 234 Einheiten zu je 0,02\u00a0$ = 4,68\u00a0$',
        'Angerechnete Guthaben: 100 Einheiten api_calls',
      ],
    ],
    [
      'ja-JP',
      ['Tokenworks API — api_calls の利用量', '1,234 単位 × 単価 $0.05', '段階 2：234 単位 × 単価 $0.02 = $4.68', '適用済みクレジット：api_calls 100 単位'],
    ],
  ] as const) {
    const context = await browser.newContext({ locale, baseURL });
    const hosted = await context.newPage();
    await hosted.goto(renewal.hostedInvoiceUrl);
    for (const text of expected) await expect(hosted.getByRole('article')).toContainText(text);
    await expect(hosted.getByRole('article')).not.toContainText(' usage');
    await shot(hosted, `metered-10-hosted-invoice-${locale}`);
    await context.close();
  }
});

test('a payment link made in the console adds metered items; the pay page says how usage is billed; the subscription carries them', async ({
  page,
  baseURL,
}) => {
  const { email, api, get } = await newSeller(baseURL, 'Linkly');
  const product = await api('/api/Product', { name: 'Linkly API' });
  const pro = await api('/api/Price', { productId: product.id, type: 'Recurring', amount: 2000, currency: 'USD', interval: 'month' });
  const calls = await api('/api/Price', {
    productId: product.id,
    type: 'Recurring',
    currency: 'USD',
    interval: 'month',
    usageType: 'metered',
    feature: 'api_calls',
    amount: 5,
  });
  await signIn(page, email, 'Linkly');
  await page.goto('/merchant/payment-links');
  const form = page.getByRole('form', { name: 'New payment link' });
  await form.getByLabel('Sell').selectOption(pro.id);
  // A metered price is not offered as the thing sold, only as an item.
  await expect(form.getByLabel('Sell').locator(`option[value="${calls.id}"]`)).toHaveCount(0);
  await form.getByRole('checkbox', { name: /\$0\.05 per api_calls unit, billed monthly in arrears/ }).check();
  await form.getByRole('button', { name: 'Create payment link' }).click();
  await expect(page.getByText('Share this URL')).toBeVisible();
  const link = (await get('/api/PaymentLink')).data[0];
  expect(link).toMatchObject({ priceId: pro.id, items: [{ priceId: calls.id }] });

  await page.goto(new URL(link.url).pathname);
  await expect(page.getByTestId('recurring-price')).toHaveText('$20.00/month');
  await expect(page.getByTestId('metered-items')).toHaveText(/Usage, billed at the end of each period\s*\$0\.05 per api_calls unit, billed in arrears/);
  await page.getByLabel('Email').fill(`linkly-${crypto.randomBytes(4).toString('hex')}@example.com`);
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'metered-11-pay-page-items');
  await page.getByRole('button', { name: /^(Subscribe|Pay)/ }).click();
  await expect(page.getByRole('heading', { name: 'Subscription started' })).toBeVisible();
  const subs = (await get('/api/Subscription')).data;
  expect(subs).toHaveLength(1);
  expect((await get(`/api/Subscription/${subs[0].id}`)).items.map((item: any) => item.priceId)).toEqual([calls.id]);
});
