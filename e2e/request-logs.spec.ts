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
  test(`a developer finds a failed API request by its X-Request-Id (${device})`, async ({ page, request }) => {
    await page.setViewportSize({ width, height });
    const failed = await request.post('/api/Checkout', {
      headers: { authorization: `Bearer ${demoKey()}`, 'idempotency-key': crypto.randomUUID() },
      data: { priceId: 'price_missing', customerEmail: `logs-${device}@example.com`, cvc: '999' },
    });
    expect(failed.status()).toBeGreaterThanOrEqual(400);
    const requestId = failed.headers()['x-request-id']!;

    await page.goto('/merchant/sign-in');
    await page.getByLabel('Email').fill('demo@example.com');
    await page.getByLabel('Password').fill('demo-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome, Demo Store' })).toBeVisible();
    await page.goto('/merchant/developers/logs');
    await expect(page.getByRole('heading', { name: 'Logs', level: 1 })).toBeVisible();
    const search = page.getByRole('search', { name: 'Filter requests' });
    await search.getByLabel('Request id').fill(requestId);
    await search.getByRole('button', { name: 'Filter' }).click();
    // Written off the request's path: it may take a moment to appear.
    await expect(async () => {
      await page.reload();
      await expect(page.getByRole('table', { name: 'API requests' }).getByText(requestId)).toBeVisible({ timeout: 1000 });
    }).toPass();
    await shot(page, `logs-list-${device}`);
    await page.getByRole('link', { name: 'POST /api/Checkout' }).click();
    await expect(page.getByRole('heading', { name: 'POST /api/Checkout' })).toBeVisible();
    const body = page.getByRole('region', { name: 'Request body' });
    await expect(body).toContainText(`logs-${device}@example.com`);
    await expect(body).not.toContainText('999');
    await expect(page.getByRole('region', { name: 'Response body' })).toContainText(requestId);
    await shot(page, `logs-detail-${device}`);
  });
}
