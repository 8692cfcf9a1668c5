import crypto from 'node:crypto';
import type { Page } from '@playwright/test';
import { expect, shot, test } from './fixtures';
import { appCode, previousStepCode } from './authenticator';

const PASSWORD = 'a long seller password';

/** The two-factor card says one state only: its badge, and the one action that state offers. */
async function expectTwoFactorState(page: Page, state: 'Off' | 'Setting up' | 'On') {
  const card = page.getByRole('region', { name: 'Two-factor sign-in' });
  for (const badge of ['Off', 'Setting up', 'On']) await expect(card.getByText(badge, { exact: true })).toHaveCount(badge === state ? 1 : 0);
  await expect(card.getByRole('button', { name: 'Set up two-factor' })).toHaveCount(state === 'Off' ? 1 : 0);
  await expect(card.getByRole('button', { name: 'Turn on two-factor' })).toHaveCount(state === 'Setting up' ? 1 : 0);
  await expect(card.getByRole('button', { name: 'Turn off' })).toHaveCount(state === 'On' ? 1 : 0);
}

test('the Security page says one two-factor state at a time: off, setting up, on, and off again', async ({ page, baseURL }) => {
  const email = `security-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const registered = await fetch(`${baseURL}/api/MerchantAuth/Register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, name: 'Security Shop', accountType: 'Business' }),
  });
  expect(registered.ok).toBe(true);
  await page.goto('/merchant/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: /Welcome/ })).toBeVisible();

  await page.goto('/merchant/security');
  await expectTwoFactorState(page, 'Off');

  await page.getByRole('button', { name: 'Set up two-factor' }).click();
  await expectTwoFactorState(page, 'Setting up');
  const secret = (await page.getByTestId('totp-secret').textContent())!;

  await page
    .getByRole('form', { name: 'Confirm two-factor' })
    .getByLabel('Code from your app')
    .fill(await previousStepCode(secret));
  await page.getByRole('button', { name: 'Turn on two-factor' }).click();
  // The first recovery codes are shown once, in a card that already says "on".
  await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await expectTwoFactorState(page, 'On');
  await shot(page, 'security-on-with-codes');
  await page.getByRole('button', { name: 'I saved them' }).click();
  await expect(page.getByTestId('recovery-codes')).toHaveCount(0);
  await page.reload();
  await expectTwoFactorState(page, 'On');

  // A code counts once: turning off takes the current step's code, newer than the one that turned it on.
  const turnOff = page.getByRole('form', { name: 'Turn off two-factor' });
  await turnOff.getByLabel('Code from your app').fill(appCode(secret));
  await turnOff.getByRole('button', { name: 'Turn off' }).click();
  await expectTwoFactorState(page, 'Off');
  await shot(page, 'security-off-again');
});
