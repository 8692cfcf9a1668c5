import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { postJson } from './console-helpers';

const PASSWORD = 'a long seller password';

test('a customer manages their subscription in the portal; the seller sees it in the console', async ({ page, baseURL }) => {
  const email = `subs-seller-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const customerEmail = `subs-customer-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const json = postJson(baseURL);
  // The seller's backend: an account, an API key, a product with two monthly plans, and a recurring checkout.
  const seller = await json('/api/MerchantAuth/Register', { email, password: PASSWORD, name: 'Cloud Notes', accountType: 'Business' });
  const key = await json(
    '/api/MerchantApiKey',
    { name: 'backend', scopes: ['products:write', 'prices:write', 'payment_links:write', 'subscriptions:write'] },
    { Authorization: `Bearer ${seller.accessToken}` },
  );
  const auth = { Authorization: `Bearer ${key.secret}` };
  const product = await json('/api/Product', { name: 'Cloud Notes' }, auth);
  const basic = await json('/api/Price', { productId: product.id, type: 'Recurring', amount: 1000, currency: 'USD', interval: 'month' }, auth);
  await json('/api/Price', { productId: product.id, type: 'Recurring', amount: 2500, currency: 'USD', interval: 'month' }, auth);
  const checkout = await json(
    '/api/Checkout',
    { priceId: basic.id, customerEmail, customerName: 'Grace', tokenRef: 'tok_visa' },
    { ...auth, 'Idempotency-Key': crypto.randomUUID() },
  );
  expect(checkout.subscriptionId).toMatch(/^sub_/);
  const customerId = checkout.customerId as string;

  // The customer asks for a link and opens it from the dev mailbox.
  await page.goto(`/portal/${customerId}`);
  await expect(page.getByRole('heading', { name: 'Manage your subscription' })).toBeVisible();
  await shot(page, '40-portal-request-link');
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByText('a sign-in link is on its way')).toBeVisible();
  await page.goto('/dev/mailbox');
  await page.getByLabel('Recipient').fill(customerEmail);
  await page.getByRole('button', { name: 'Filter' }).click();
  const mail = page.getByRole('article', { name: 'Manage your Cloud Notes subscription' });
  await expect(mail).toHaveCount(1);
  await shot(page, '41-portal-mail');
  await mail.getByRole('link', { name: /\/portal\/cus_.*\/verify\?token=/ }).click();

  // Verification needs the customer's own email.
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  await page.getByLabel('Your email').fill('someone-else@example.com');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('That is not the email this link was sent to.')).toBeVisible();
  await shot(page, '42-portal-verify-wrong-email');
  await page.getByLabel('Your email').fill(customerEmail);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Your subscription' })).toBeVisible();
  await expect(page.getByText('$10.00/month')).toBeVisible();
  await expect(page.getByRole('cell', { name: '$10.00' })).toBeVisible();
  await shot(page, '43-portal-overview');

  // Preview first, then change the plan.
  await page.getByLabel('Change plan').selectOption({ label: '$25.00/month' });
  await page.getByRole('button', { name: 'Preview change' }).click();
  const preview = page.getByLabel('Plan change preview');
  await expect(preview).toContainText('Charged today: $15.00');
  await expect(preview).toContainText('$25.00');
  await shot(page, '44-portal-preview');
  await preview.getByRole('button', { name: 'Confirm change' }).click();
  await expect(page.getByText('Your plan was changed.')).toBeVisible();
  await expect(page.getByText('$25.00/month')).toBeVisible();

  // Cancel at the period end.
  await page.getByRole('button', { name: 'Cancel at period end' }).click();
  // The second step says what happens, and has the focus.
  const confirmCancel = page.getByRole('button', { name: 'Yes, cancel at period end' });
  await expect(confirmCancel).toBeFocused();
  await expect(page.getByRole('group', { name: /you will not be charged again/ })).toBeVisible();
  await confirmCancel.click();
  await expect(page.getByText('ends at period end')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Keep my subscription' })).toBeVisible();
  await shot(page, '45-portal-canceled');

  // The seller sees it all in the console.
  await page.goto('/merchant/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Cloud Notes' })).toBeVisible();
  await page.goto('/merchant/subscriptions');
  await expect(page.getByText('cancels at period end')).toBeVisible();
  await shot(page, '46-merchant-subscriptions');
  await page.getByRole('link', { name: checkout.subscriptionId }).click();
  await expect(page.getByRole('heading', { name: `Subscription ${checkout.subscriptionId}` })).toBeVisible();
  const timeline = page.getByRole('table', { name: 'Changes' });
  await expect(timeline.getByRole('row').filter({ hasText: 'ChangePrice' })).toContainText(`portal:${customerId}`);
  await expect(timeline.getByRole('row').filter({ hasText: 'CancelAtPeriodEnd' })).toContainText(`portal:${customerId}`);
  const records = page.getByRole('table', { name: 'Billing records' });
  await expect(records.getByRole('row')).toHaveCount(3);
  await shot(page, '47-merchant-subscription-detail');
});
