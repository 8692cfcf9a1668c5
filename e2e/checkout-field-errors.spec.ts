import { expect, test } from './fixtures';
import { demoApi } from './console-helpers';

// A refused field on the hosted checkout takes the focus, says it is invalid, is described by its
// message, and the message is announced (an alert).

test('a card expiry or number the checkout refuses takes the focus and is announced', async ({ page, request }) => {
  const link = await demoApi<{ token: string }>(request, '/api/PaymentLink', { name: 'Field errors', unitAmount: 900, currency: 'USD' });
  await page.goto(`/pay/${link.token}`);
  await page.getByLabel('Email').fill('field-errors@example.com');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('1234');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay/ }).click();

  const expiry = page.getByLabel('Expiry');
  await expect(expiry).toBeFocused();
  await expect(expiry).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert').filter({ hasText: 'Enter the expiry as MM / YY.' })).toBeVisible();
  await expect(expiry).toHaveAccessibleDescription('Enter the expiry as MM / YY.');

  await expiry.fill('12 / 34');
  await page.getByLabel('Card number').fill('4242 4242 4242 4241');
  await page.getByRole('button', { name: /^Pay/ }).click();
  const number = page.getByLabel('Card number');
  await expect(number).toBeFocused();
  await expect(number).toHaveAttribute('aria-invalid', 'true');
  await expect(expiry).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('alert').filter({ hasText: 'Your card number is invalid.' })).toBeVisible();
});
