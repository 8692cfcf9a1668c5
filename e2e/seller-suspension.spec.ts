import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { postJson } from './console-helpers';
import { startReceiver } from '../tests/helpers/webhook-receiver';

const PASSWORD = 'a long seller password';

test('a suspended seller’s link shows the customer a clear page, the seller is told at sign-in, and secrets shown once take the focus', async ({
  page,
  baseURL,
}) => {
  const email = `suspended-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const json = postJson(baseURL);
  const seller = await json('/api/MerchantAuth/Register', { email, password: PASSWORD, name: 'Paused Pottery', accountType: 'Business' });
  const key = await json('/api/MerchantApiKey', { name: 'backend', scopes: ['payment_links:write'] }, { Authorization: `Bearer ${seller.accessToken}` });
  const link = await json('/api/PaymentLink', { name: 'Glazed bowl', unitAmount: 3200, currency: 'EUR' }, { Authorization: `Bearer ${key.secret}` });
  const admin = await json('/api/AdminAuth/Login', { name: 'admin', password: 'admin-password' });
  await json(`/api/AdminMerchant/${seller.merchant.id}/Suspend`, {}, { Authorization: `Bearer ${admin.accessToken}` });

  // The customer: a page that says why, no card form, no wallet.
  await page.goto(`/pay/${link.token}`);
  await expect(page.getByRole('heading', { name: 'This seller cannot accept payments right now' })).toBeVisible();
  await expect(page.getByText('Nothing was charged.')).toBeVisible();
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  await shot(page, 'suspended-01-hosted-page');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'suspended-02-hosted-page-phone');
  await page.setViewportSize({ width: 1440, height: 900 });

  // The seller: told the account is suspended, but only with the right password.
  await page.goto('/merchant/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('main').getByRole('alert')).toHaveText('The sign-in details are not correct.');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('main').getByRole('alert')).toContainText('This seller account is suspended');
  await shot(page, 'suspended-03-seller-sign-in');

  await json(`/api/AdminMerchant/${seller.merchant.id}/Reinstate`, {}, { Authorization: `Bearer ${admin.accessToken}` });
  await page.goto(`/pay/${link.token}`);
  await expect(page.getByLabel('Card number')).toBeVisible();

  // Reinstated, on a phone: the navigation shows every section, and a new key's secret is in view and focused.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/merchant/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Paused Pottery' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Seller console sections' });
  for (const item of await nav.getByRole('link').all()) {
    const box = (await item.boundingBox())!;
    expect(box.x + box.width, `${await item.textContent()} is on screen`).toBeLessThanOrEqual(390);
  }
  await shot(page, 'suspended-04-phone-navigation');

  await page.goto('/merchant/developers/api-keys');
  await page.getByLabel('Name').fill('Shop backend');
  await page.getByRole('checkbox', { name: /^products:read/ }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = page.getByTestId('new-api-key');
  await expect(secret).toBeFocused();
  await expect(secret).toBeInViewport();
  await shot(page, 'suspended-05-api-key-secret-phone');

  const receiver = await startReceiver(() => ({ status: 200, body: 'ok' }));
  await page.goto('/merchant/webhooks');
  await page.getByLabel('Endpoint URL').fill(`${receiver.url}/hooks`);
  await page.getByRole('checkbox', { name: /^All events/ }).check();
  await page.getByRole('button', { name: 'Create endpoint' }).click();
  const signing = page.getByTestId('new-signing-secret');
  await expect(signing).toBeFocused();
  await expect(signing).toBeInViewport();
  await shot(page, 'suspended-06-signing-secret-phone');
  await receiver.close();
});
