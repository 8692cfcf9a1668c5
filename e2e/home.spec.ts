import fs from 'node:fs';
import path from 'node:path';
import { expect, shot, test } from './fixtures';

test('the home page and the API reference open in Chromium', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Paybase' })).toBeVisible();
  await shot(page, 'home');

  await page.getByRole('link', { name: 'API reference' }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.getByRole('heading', { name: 'Prices', exact: true })).toBeVisible();
  await expect(page.locator('#createPrice')).toContainText('/api/Price');
  await shot(page, 'api-reference');
});

test('the demo API key printed at start works against the developer API', async ({ request, baseURL }) => {
  const { dataDir } = JSON.parse(fs.readFileSync(path.resolve('test-results', 'e2e-server.json'), 'utf8')) as { dataDir: string };
  const key = fs.readFileSync(path.join(dataDir, 'demo-api-key'), 'utf8').trim();
  const created = await request.post(`${baseURL}/api/Product`, { headers: { authorization: `Bearer ${key}` }, data: { name: 'From the browser suite' } });
  expect(created.status()).toBe(201);
});
