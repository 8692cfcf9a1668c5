import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, shot, test } from './fixtures';

function demoKey(): string {
  const { dataDir } = JSON.parse(fs.readFileSync(path.resolve('test-results', 'e2e-server.json'), 'utf8')) as { dataDir: string };
  return fs.readFileSync(path.join(dataDir, 'demo-api-key'), 'utf8').trim();
}

test.beforeEach(async ({ page }) => {
  await page.goto('/merchant/sign-in');
  await page.getByLabel('Email').fill('demo@example.com');
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Demo Store' })).toBeVisible();
});

test('a seller creates, copies, disables, enables, duplicates and archives payment links', async ({ page, context, request }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const suffix = crypto.randomBytes(3).toString('hex');
  const name = `Workshop ${suffix}`;
  // A catalog price to sell, made through the API.
  const headers = { authorization: `Bearer ${demoKey()}` };
  const product = await (await request.post('/api/Product', { headers, data: { name: `Tote bag ${suffix}` } })).json();
  await request.post('/api/Price', { headers, data: { productId: product.id, type: 'OneTime', amount: 2450, currency: 'EUR' } });

  await page.getByRole('link', { name: 'Payment links' }).first().click();
  await expect(page.getByRole('heading', { name: 'Payment links', level: 1 })).toBeVisible();
  const form = page.getByRole('form', { name: 'New payment link' });
  // An amount with too many decimals is refused in words.
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Unit amount').fill('25.005');
  await form.getByLabel('Currency').fill('EUR');
  await form.getByRole('button', { name: 'Create payment link' }).click();
  await expect(form.getByText('Enter an amount in EUR, such as 12.00.')).toBeVisible();
  await shot(page, 'links-1-amount-error');
  await form.getByLabel('Unit amount').fill('25.00');
  await form.getByLabel('Quantity', { exact: true }).fill('2');
  await form.getByLabel('Maximum payments').fill('5');
  await form.getByRole('button', { name: 'Create payment link' }).click();
  await expect(page.getByText(`Payment link “${name}” created.`)).toBeVisible();
  const url = await page.locator('p.font-mono').filter({ hasText: '/pay/' }).first().textContent();
  expect(url).toMatch(/\/pay\/[A-Za-z0-9_-]+$/);
  await page.getByText('Share this URL').locator('..').getByRole('button', { name: 'Copy URL' }).click();
  await expect(page.getByText('Share this URL').locator('..').getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

  const row = page.getByTestId('payment-link').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('€50.00');
  await expect(row).toContainText('2 × €25.00');
  await expect(row).toContainText('0 of 5');
  await shot(page, 'links-2-created');

  // The same from a catalog price.
  await form.getByLabel('Sell').selectOption({ label: `Tote bag ${suffix} — €24.50 one time` });
  await form.getByRole('button', { name: 'Create payment link' }).click();
  await expect(page.getByText(`Payment link “Tote bag ${suffix}” created.`)).toBeVisible();

  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row.getByText('Disabled', { exact: true })).toBeVisible();
  await page.goto(new URL(url!).pathname);
  await expect(page.getByTestId('unavailable-reason')).toHaveText('This payment link has been turned off by the seller.');
  await page.goBack();
  await row.getByRole('button', { name: 'Enable' }).click();
  await expect(row.getByText('Active', { exact: true })).toBeVisible();
  await row.getByRole('button', { name: 'Duplicate' }).click();
  await expect(page.getByTestId('payment-link').filter({ hasText: name })).toHaveCount(2);

  const original = page
    .getByTestId('payment-link')
    .filter({ hasText: name })
    .filter({ hasText: new URL(url!).pathname });
  await original.getByRole('button', { name: 'Archive' }).click();
  await expect(original.getByRole('group', { name: 'Archive for good? It can never be paid again.' })).toBeVisible();
  await shot(page, 'links-3-archive-confirm');
  await original.getByRole('button', { name: 'Archive', exact: true }).click();
  await expect(original.getByText('Archived', { exact: true })).toBeVisible();
  await expect(original.getByRole('button', { name: 'Disable' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Archived' }).click();
  await expect(page.getByTestId('payment-link').filter({ hasText: name })).toHaveCount(1);
  await shot(page, 'links-4-archived-filter');
});

test('a seller creates a coupon and a promotion code, then deactivates the code', async ({ page }) => {
  const code = `SPRING${crypto.randomBytes(3).toString('hex').toUpperCase()}`;
  await page.getByRole('link', { name: 'Promotion codes' }).first().click();
  await expect(page.getByRole('heading', { name: 'Promotion codes', level: 1 })).toBeVisible();
  const coupon = page.getByRole('form', { name: 'New coupon' });
  await coupon.getByLabel('Coupon name').fill(`Spring ${code}`);
  await coupon.getByLabel('Percent off').fill('20');
  await coupon.getByRole('button', { name: 'Create coupon' }).click();
  await expect(page.getByText(`Coupon “Spring ${code}” created.`)).toBeVisible();

  const fixed = page.getByRole('form', { name: 'New coupon' });
  await fixed.getByLabel('Discount').selectOption('amount');
  await fixed.getByLabel('Amount off').fill('500');
  await fixed.getByLabel('Currency').fill('JPY');
  await fixed.getByRole('button', { name: 'Create coupon' }).click();
  await expect(page.getByRole('table', { name: 'Coupons' })).toContainText('¥500 off once');

  const form = page.getByRole('form', { name: 'New promotion code' });
  await form.getByLabel('Coupon').selectOption({ label: `Spring ${code} · 20% off once` });
  await form.getByLabel('Code').fill(code);
  await form.getByLabel('Maximum redemptions').fill('100');
  await form.getByRole('button', { name: 'Create code' }).click();
  await expect(page.getByText(`Promotion code ${code} created.`)).toBeVisible();
  // Codes are unique regardless of case: the same code again is refused on its field.
  await form.getByLabel('Coupon').selectOption({ label: `Spring ${code} · 20% off once` });
  await form.getByLabel('Code').fill(code.toLowerCase());
  await form.getByRole('button', { name: 'Create code' }).click();
  await expect(form.getByText('Already used by another promotion code (codes are case-insensitive).')).toBeVisible();
  const row = page.getByRole('table', { name: 'Promotion codes' }).locator('tbody tr').filter({ hasText: code });
  await expect(row).toContainText('0 of 100');
  await expect(row.getByText('Active', { exact: true })).toBeVisible();
  await shot(page, 'promo-1-created');

  await row.getByRole('button', { name: 'Deactivate' }).click();
  await row.getByRole('button', { name: 'Deactivate', exact: true }).click();
  await expect(row.getByText('Inactive', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'Activate' })).toBeVisible();
  await shot(page, 'promo-2-deactivated');
});
