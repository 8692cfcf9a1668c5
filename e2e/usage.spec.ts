import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { postJson } from './console-helpers';

const PASSWORD = 'a long seller password';

test('the seller sees a customer’s usage against the limit and their credits; the customer sees it in the portal', async ({ page, baseURL }) => {
  const email = `usage-seller-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const customerEmail = `usage-customer-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const json = postJson(baseURL);
  // The AI chat app of docs/usage.md: Pro with 100 messages a month, gated by Check+consume.
  const seller = await json('/api/MerchantAuth/Register', { email, password: PASSWORD, name: 'Chatty', accountType: 'Business' });
  const key = await json(
    '/api/MerchantApiKey',
    { name: 'backend', scopes: ['products:write', 'prices:write', 'payment_links:write', 'entitlements:write'] },
    { Authorization: `Bearer ${seller.accessToken}` },
  );
  const auth = { Authorization: `Bearer ${key.secret}` };
  const product = await json('/api/Product', { name: 'Chatty Pro' }, auth);
  const pro = await json('/api/Price', { productId: product.id, type: 'Recurring', amount: 2000, currency: 'USD', interval: 'month' }, auth);
  await json(`/api/Price/${pro.id}/EntitlementPolicy`, { feature: 'messages', allowed: 'Limited', limit: 100 }, auth);
  const checkout = await json(
    '/api/Checkout',
    { priceId: pro.id, customerEmail, customerName: 'Ada', tokenRef: 'tok_visa' },
    { ...auth, 'Idempotency-Key': crypto.randomUUID() },
  );
  const customerId = checkout.customerId as string;
  const gate = await json(`/api/Customer/${customerId}/Entitlement/Check`, { feature: 'messages', quantity: 80, consume: true }, auth);
  expect(gate.allowed).toBe(true);
  await json(
    `/api/Customer/${customerId}/CreditGrant`,
    { feature: 'messages', amount: 50, reason: 'Credit pack', expiresAt: '2099-01-01T00:00:00Z' },
    { ...auth, 'Idempotency-Key': crypto.randomUUID() },
  );

  await page.goto('/merchant/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Chatty' })).toBeVisible();
  await page.goto(`/merchant/customers/${customerId}`);
  const usage = page.getByRole('list', { name: 'Feature usage' });
  await expect(usage).toContainText('80 of 100 used');
  await expect(usage).toContainText('70 remaining (including 50 credits)');
  await expect(usage).toContainText('from subscription');
  await expect(page.getByRole('progressbar', { name: 'messages usage' })).toHaveAttribute('aria-valuenow', '80');
  await expect(page.getByRole('list', { name: 'Credit grants' })).toContainText('50 of 50 messages · Credit pack');
  await shot(page, '60-merchant-customer-usage');

  // The Usage page lists the record, filtered by customer.
  await page.getByRole('link', { name: 'Usage', exact: true }).click();
  await page.getByRole('search', { name: 'Filter usage' }).getByLabel('Customer id').fill(customerId);
  await page.getByRole('button', { name: 'Filter' }).click();
  const records = page.getByRole('table', { name: 'Usage records' });
  await expect(records.getByRole('row')).toHaveCount(2);
  await expect(records).toContainText('messages');
  await expect(records).toContainText('80');
  await shot(page, '62-merchant-usage');

  // The customer, signed in to the portal through the emailed link, sees the same numbers.
  await page.goto(`/portal/${customerId}`);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByText('a sign-in link is on its way')).toBeVisible();
  await page.goto('/dev/mailbox');
  await page.getByLabel('Recipient').fill(customerEmail);
  await page.getByRole('button', { name: 'Filter' }).click();
  await page
    .getByRole('article')
    .first()
    .getByRole('link', { name: /\/portal\/cus_.*\/verify\?token=/ })
    .click();
  await page.getByLabel('Your email').fill(customerEmail);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Your usage' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Feature usage' })).toContainText('80 of 100 used');
  await expect(page.getByRole('list', { name: 'Credit grants' })).toContainText('50 of 50 messages');
  await expect(page.getByRole('list', { name: 'Credit grants' })).not.toContainText('Credit pack');
  await shot(page, '61-portal-usage');
});
