import fs from 'node:fs';
import { expect, test } from '@playwright/test';

test('the home page and the API reference open in Chromium', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Paybase' })).toBeVisible();
  await page.screenshot({ path: 'test-results/screens/home.png', fullPage: true });

  await page.getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.getByRole('heading', { name: 'Prices' })).toBeVisible();
  await expect(page.locator('#createPrice')).toContainText('/api/Price');
  await page.screenshot({ path: 'test-results/screens/api-reference.png' });
});

test('the demo API key printed at start works against the developer API', async ({ request }) => {
  const key = fs.readFileSync('.data-test/e2e/demo-api-key', 'utf8').trim();
  const created = await request.post('/api/Product', { headers: { authorization: `Bearer ${key}` }, data: { name: 'From the browser suite' } });
  expect(created.status()).toBe(201);
});
