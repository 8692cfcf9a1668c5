import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';

const PASSWORD = 'a long seller password';

test('a seller signs up, signs in, builds a catalog, and manages an API key used against the developer API', async ({ page, baseURL, context }) => {
  const email = `e2e-${crypto.randomBytes(4).toString('hex')}@example.com`;

  await page.goto('/merchant/sign-up');
  await shot(page, '01-merchant-sign-up');
  await page.getByLabel('Business or your name').fill('Ada’s Apparel');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('At least 10 characters.').first()).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Ada’s Apparel' })).toBeVisible();

  // Sign out, then sign in again (a wrong password first, shown in words).
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/merchant\/sign-in$/);
  await page.goto('/merchant');
  await expect(page).toHaveURL(/\/merchant\/sign-in$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('main').getByRole('alert')).toHaveText('The sign-in details are not correct.');
  await shot(page, '02-merchant-sign-in-error');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Ada’s Apparel' })).toBeVisible();
  await shot(page, '03-merchant-overview');

  // Catalog: a product and a price, then deactivate the price.
  await page.getByRole('link', { name: 'Products' }).first().click();
  await expect(page.getByText('No products yet')).toBeVisible();
  await shot(page, '04a-merchant-products-empty');
  await page.getByLabel('Name').fill('Linen shirt');
  await page.getByLabel('Description').fill('Breathable summer shirt');
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByRole('heading', { name: 'Linen shirt' })).toBeVisible();
  await page.getByLabel('Amount').fill('12.345');
  await page.getByRole('button', { name: 'Create price' }).click();
  await expect(page.getByText('Enter an amount in USD, such as 12.00.')).toBeVisible();
  await page.getByLabel('Amount').fill('49.50');
  await page.getByRole('button', { name: 'Create price' }).click();
  await expect(page.getByRole('cell', { name: '$49.50' })).toBeVisible();
  await page.getByLabel('Amount').fill('9');
  await page.getByLabel('Type').selectOption('Recurring');
  await page.getByRole('button', { name: 'Create price' }).click();
  await expect(page.getByRole('cell', { name: 'Every month' })).toBeVisible();
  await shot(page, '04-merchant-product-detail');
  const oneTimeRow = page.getByRole('row').filter({ hasText: '$49.50' });
  await oneTimeRow.getByRole('button', { name: 'Deactivate' }).click();
  await oneTimeRow.getByRole('button', { name: 'Deactivate', exact: true }).click();
  await expect(oneTimeRow.getByText('Inactive')).toBeVisible();
  await page.getByRole('link', { name: '← Products' }).click();
  await expect(page.getByRole('link', { name: 'Linen shirt' })).toBeVisible();
  await shot(page, '05-merchant-products');

  // Developers → API keys: create with two scopes; the secret is shown once.
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();
  await page.getByLabel('Name').fill('Shop backend');
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.locator('main').getByRole('alert')).toContainText('Please correct');
  await expect(page.getByText('Choose at least one scope.')).toBeVisible();
  await page.getByLabel('Name').fill('Shop backend');
  await page.getByRole('checkbox', { name: /^products:read/ }).check();
  await page.getByRole('checkbox', { name: /^customers:write/ }).check();
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = (await page.getByTestId('api-key-secret').textContent())!.trim();
  expect(secret).toMatch(/^sk_/);
  await expect(page.getByRole('button', { name: 'Copy' })).toBeVisible();
  await shot(page, '06-merchant-api-key-created');

  // The key works from a backend (plain fetch, no cookies) with exactly its scopes.
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${baseURL}${path}`, { ...init, headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...init.headers } });
  const products = await api('/api/Product');
  expect(products.status).toBe(200);
  expect(((await products.json()) as { data: { name: string }[] }).data.map((p) => p.name)).toEqual(['Linen shirt']);
  const customer = await api('/api/Customer', { method: 'POST', body: JSON.stringify({ email: 'grace@example.com', name: 'Grace Hopper' }) });
  expect(customer.status).toBe(201);
  const customerId = ((await customer.json()) as { id: string }).id;
  expect((await api(`/api/Customer/${customerId}/CustomValue`, { method: 'POST', body: JSON.stringify({ key: 'tier', value: 'gold' }) })).status).toBe(201);
  expect((await api('/api/Price')).status).toBe(403);

  // Customers list and detail show what the backend made.
  await page.getByRole('link', { name: 'Customers' }).click();
  await page.getByRole('link', { name: 'Grace Hopper' }).click();
  await expect(page.getByRole('cell', { name: 'tier' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'gold' })).toBeVisible();
  await expect(page.getByText('No saved payment methods')).toBeVisible();
  await shot(page, '07-merchant-customer-detail');
  await page.getByRole('link', { name: '← Customers' }).click();
  await expect(page.getByRole('heading', { name: 'Customers', exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Grace Hopper' })).toBeVisible();
  await shot(page, '08-merchant-customers');

  // A reload no longer shows the secret; revoking (with confirmation) stops the next call.
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByTestId('api-key-secret')).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: 'Shop backend' });
  await row.getByRole('button', { name: 'Revoke' }).click();
  await expect(row.getByText('Revoke? Calls with it fail at once.')).toBeVisible();
  await row.getByRole('button', { name: 'Revoke key' }).click();
  await expect(row.getByText('Revoked')).toBeVisible();
  await shot(page, '09-merchant-api-keys-revoked');
  const afterRevoke = await api('/api/Product');
  expect(afterRevoke.status).toBe(401);

  // The sections later issues fill in are already in the navigation.
  for (const section of ['Payments', 'Payment links', 'Subscriptions', 'Webhooks']) {
    await expect(page.getByRole('navigation', { name: 'Seller console sections' }).getByRole('link', { name: new RegExp(`^${section}`) })).toBeVisible();
  }
  await page.getByRole('link', { name: /^Webhooks/ }).click();
  await expect(page.getByText('No webhook endpoints yet')).toBeVisible();

  // Transparent refresh: without an access-token cookie, the refresh cookie renews the pair.
  const before = (await context.cookies()).find((c) => c.name === 'pb_merchant_rt')!;
  expect(before.httpOnly).toBe(true);
  expect(before.sameSite).toBe('Lax');
  await context.clearCookies({ name: 'pb_merchant_at' });
  await page.goto('/merchant/products');
  await expect(page.getByRole('heading', { name: 'Products' })).toBeVisible();
  const after = await context.cookies();
  expect(after.find((c) => c.name === 'pb_merchant_at')).toBeTruthy();
  expect(after.find((c) => c.name === 'pb_merchant_rt')!.value).not.toBe(before.value);

  // Phone-sized screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/merchant');
  await shot(page, '10-merchant-overview-phone');
});
