import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';

test('the platform admin suspends and reinstates a seller', async ({ page, baseURL }) => {
  const email = `suspend-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const registered = await fetch(`${baseURL}/api/MerchantAuth/Register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'a long seller password', name: 'Suspendable Shop', accountType: 'Individual' }),
  });
  expect(registered.status).toBe(201);
  const { accessToken } = (await registered.json()) as { accessToken: string };
  const identity = () => fetch(`${baseURL}/api/Auth/Identity`, { headers: { authorization: `Bearer ${accessToken}` } });

  await page.goto('/admin');
  await expect(page).toHaveURL(/\/admin\/sign-in$/);
  await shot(page, '20-admin-sign-in');
  await page.getByLabel('Name').fill('admin');
  await page.getByLabel('Password').fill('admin-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Sellers' })).toBeVisible();
  await shot(page, '21-admin-sellers');

  await page.getByLabel('Email contains').fill(email);
  await page.getByRole('button', { name: 'Search' }).click();
  const row = page.getByRole('row').filter({ hasText: email });
  await row.getByRole('button', { name: 'Suspend' }).click();
  await row.getByRole('button', { name: 'Suspend seller' }).click();
  await expect(row.getByText('Suspended', { exact: true })).toBeVisible();
  expect((await identity()).status).toBe(401);
  await shot(page, '22-admin-seller-suspended');
  await row.getByRole('button', { name: 'Reinstate' }).click();
  await expect(row.getByText('Active', { exact: true })).toBeVisible();
});

test('a wallet member signs in through the dev mailbox link', async ({ page }) => {
  const email = `wallet-${crypto.randomBytes(4).toString('hex')}@example.com`;
  await page.goto('/member');
  await expect(page).toHaveURL(/\/member\/sign-in$/);
  await shot(page, '30-member-sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByText(`If ${email} can receive mail, a sign-in link is on its way.`, { exact: false })).toBeVisible();

  await page.getByRole('link', { name: 'dev mailbox' }).click();
  await page.getByLabel('Recipient').fill(email);
  await page.getByRole('button', { name: 'Filter' }).click();
  const mail = page.getByRole('article', { name: 'Your Paybase wallet sign-in link' });
  await expect(mail).toHaveCount(1);
  await shot(page, '31-dev-mailbox');
  await mail.getByRole('link', { name: /\/member\/verify\?token=/ }).click();

  await expect(page.getByRole('heading', { name: 'Sign in to your wallet' })).toBeVisible();
  await shot(page, '32-member-verify');
  await page.getByRole('button', { name: 'Sign in to my wallet' }).click();
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible();
  await expect(page.getByText(email).first()).toBeVisible();
  await expect(page.getByText('No saved payment methods')).toBeVisible();
  await expect(page.getByText('No subscriptions')).toBeVisible();
  await shot(page, '33-member-wallet');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/member\/sign-in$/);
  await page.goBack();
  await page.goto('/member');
  await expect(page).toHaveURL(/\/member\/sign-in$/);
});
