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
  test(`a seller finds a customer by email from the header, keyboard first (${device})`, async ({ page, request }) => {
    await page.setViewportSize({ width, height });
    const email = `findme-${device}-${crypto.randomBytes(3).toString('hex')}@example.com`;
    const created = await request.post('/api/Customer', {
      headers: { authorization: `Bearer ${demoKey()}`, 'idempotency-key': crypto.randomUUID() },
      data: { email, name: 'Katherine Johnson' },
    });
    expect(created.status()).toBe(201);

    await page.goto('/merchant/sign-in');
    await page.getByLabel('Email').fill('demo@example.com');
    await page.getByLabel('Password').fill('demo-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Welcome, Demo Store' })).toBeVisible();
    await page.locator('body').click();
    await page.keyboard.press('/');
    const box = page.getByRole('searchbox', { name: /Search customers/ });
    await expect(box).toBeFocused();
    await page.keyboard.type(email);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Search', level: 1 })).toBeVisible();
    const customers = page.getByRole('region', { name: 'Customers' });
    await expect(customers.getByRole('link', { name: email })).toBeVisible();
    await shot(page, `search-${device}`);
    await customers.getByRole('link', { name: email }).click();
    await expect(page).toHaveURL(new RegExp(`/merchant/customers/${(await created.json()).id}`));
  });
}
