import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect, shot, test } from './fixtures';

function demoKey(): string {
  const { dataDir } = JSON.parse(fs.readFileSync(path.resolve('test-results', 'e2e-server.json'), 'utf8')) as { dataDir: string };
  return fs.readFileSync(path.join(dataDir, 'demo-api-key'), 'utf8').trim();
}

for (const [device, width, height] of [
  ['desktop', 1440, 900],
  ['phone', 390, 844],
] as const) {
  test(`the overview charts a payment, with its figures as a table (${device})`, async ({ page, request }) => {
    await page.setViewportSize({ width, height });
    // A payment in a currency no other test uses, so its figure is known exactly.
    const headers = { authorization: `Bearer ${demoKey()}` };
    const product = await (await request.post('/api/Product', { headers, data: { name: `Chart ${device}` } })).json();
    const price = await (await request.post('/api/Price', { headers, data: { productId: product.id, type: 'OneTime', amount: 1234, currency: 'CHF' } })).json();
    const paid = await request.post('/api/Checkout', {
      headers: { ...headers, 'idempotency-key': crypto.randomUUID() },
      data: { priceId: price.id, customerEmail: `chart-${device}@example.com`, tokenRef: 'tok_visa' },
    });
    expect(paid.status()).toBe(201);

    await page.goto('/merchant/sign-in');
    await page.getByLabel('Email').fill('demo@example.com');
    await page.getByLabel('Password').fill('demo-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome, Demo Store' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Range' }).getByRole('link', { name: '7 days' }).click();
    await expect(page.getByRole('link', { name: '7 days' })).toHaveAttribute('aria-current', 'page');

    const gross = page.getByRole('region', { name: 'Gross volume (CHF)', exact: true });
    await expect(gross.getByRole('img', { name: /Gross volume \(CHF\)/ })).toBeVisible();
    await gross.getByText('Show figures as a table').click();
    const table = gross.getByRole('table', { name: 'Gross volume (CHF) by period' });
    await expect(table).toBeVisible();
    await expect(table.getByRole('cell', { name: /CHF\s*(12\.34|24\.68)/ })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Payment success rate' })).toContainText('Succeeded');
    await expect(page.getByRole('region', { name: 'MRR movement' })).toBeVisible();
    await shot(page, `overview-${device}`);

    await page.getByRole('link', { name: '12 months' }).click();
    await expect(page.getByRole('link', { name: '12 months' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('region', { name: 'Gross volume (CHF)', exact: true })).toBeVisible();
  });
}
