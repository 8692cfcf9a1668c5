import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { expectNoSeriousA11yViolations, expectNoSidewaysScroll, postJson } from './console-helpers';

const PASSWORD = 'a long seller password';

test('a seller reads its own audit log; the admin sees the platform overview, the seller page and the suspension in the audit log', async ({
  page,
  baseURL,
}) => {
  const suffix = crypto.randomBytes(4).toString('hex');
  const email = `audited-${suffix}@example.com`;
  const json = postJson(baseURL);
  const seller = await json('/api/MerchantAuth/Register', { email, password: PASSWORD, name: `Audited Atelier ${suffix}`, accountType: 'Business' });
  const merchantId = seller.merchant.id as string;
  const key = await json(
    '/api/MerchantApiKey',
    { name: 'backend', scopes: ['products:write', 'prices:write', 'payment_links:write'] },
    { Authorization: `Bearer ${seller.accessToken}` },
  );
  const auth = { Authorization: `Bearer ${key.secret}` };
  const product = await json('/api/Product', { name: 'Linen apron' }, auth);
  const price = await json('/api/Price', { productId: product.id, type: 'OneTime', amount: 4200, currency: 'EUR' }, auth);
  const paid = await json(
    '/api/Checkout',
    { priceId: price.id, customerEmail: `buyer-${suffix}@example.com`, tokenRef: 'tok_visa' },
    { ...auth, 'Idempotency-Key': crypto.randomUUID() },
  );

  // The seller: a wrong password, then a sign-in, both through the console form.
  await page.goto('/merchant/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not the right password');
  const refused = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().includes('/merchant/sign-in'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  const refusedRequestId = (await refused).headers()['x-request-id'];
  expect(refusedRequestId).toMatch(/^req_/);
  await expect(page.locator('main').getByRole('alert')).toHaveText('The sign-in details are not correct.');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

  // A refund from the console, confirmed in words.
  await page.goto(`/merchant/payments/${paid.payment.id}`);
  await page.getByLabel('Amount (EUR)').fill('10.00');
  await page.getByLabel('Reason').fill('Loose stitching');
  await page.getByRole('button', { name: 'Review refund' }).click();
  await page.getByRole('button', { name: 'Refund €10.00' }).click();
  await expect(page.getByText('Refunded €10.00.')).toBeVisible();

  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
  const failedRow = page.getByTestId('audit-seller.sign_in_failed');
  await expect(failedRow).toHaveCount(1);
  await expect(failedRow).toContainText(refusedRequestId!);
  await expect(failedRow).toContainText('reason: wrong_password');
  await expect(page.getByTestId('audit-seller.sign_in')).toHaveCount(1);
  await expect(page.getByTestId('audit-api_key.created')).toContainText('name: backend');
  const refundRow = page.getByTestId('audit-refund.created');
  await expect(refundRow).toContainText(email);
  for (const detail of ['amount: 1000', 'currency: EUR', 'reason: Loose stitching', `paymentId: ${paid.payment.id}`])
    await expect(refundRow).toContainText(detail);
  await expect(page.locator('main')).not.toContainText('not the right password');
  await expect(page.locator('main')).not.toContainText(key.secret);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'operator-01-seller-audit-log');
  await page.getByLabel('Action').selectOption('api_key.created');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByTestId('audit-seller.sign_in')).toHaveCount(0);
  await expect(page.getByTestId('audit-api_key.created')).toHaveCount(1);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await shot(page, 'operator-02-seller-audit-log-phone');
  await page.setViewportSize({ width: 1440, height: 900 });

  // The platform admin: the overview across sellers.
  await page.goto('/admin/sign-in');
  await page.getByLabel('Name').fill('admin');
  await page.getByLabel('Password').fill('admin-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Sellers' })).toBeVisible();
  await page.getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByRole('heading', { name: 'Platform overview' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Volume (EUR)' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Job queue' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Webhook delivery queue' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Reconciliation backlog' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Sellers by EUR volume' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'operator-03-platform-overview');

  // The seller page: volume, keys by prefix only, requests, and a suspension with its reason.
  await page.goto(`/admin/sellers/${merchantId}`);
  await expect(page.getByRole('heading', { name: `Audited Atelier ${suffix}` })).toBeVisible();
  await expect(page.getByRole('table', { name: 'API keys' })).toContainText(`${key.secret.slice(0, 11)}…`);
  await expect(page.locator('main')).not.toContainText(key.secret);
  await expect(page.getByRole('table', { name: 'Recent requests' })).toContainText('POST /api/Checkout');
  await expect(page.getByText('Never suspended')).toBeVisible();
  await page.getByLabel('Reason (kept in the audit log)').fill('Unusual refund pattern');
  await page.getByRole('button', { name: 'Suspend…' }).click();
  await page.getByRole('button', { name: 'Suspend seller' }).click();
  const history = page.getByRole('table', { name: 'Suspension history' });
  await expect(history).toContainText('Unusual refund pattern');
  await expect(history).toContainText('admin');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'operator-04-seller-page');

  // The audit log across sellers, filtered to this seller.
  await page.goto(`/admin/audit-log?seller=${merchantId}`);
  await expect(page.getByTestId('audit-merchant.suspended')).toContainText('reason: Unusual refund pattern');
  await expect(page.getByTestId('audit-merchant.suspended')).toContainText('Platform admin');
  await expect(page.getByTestId('audit-seller.sign_in_failed')).toHaveCount(1);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'operator-05-admin-audit-log');
});
