import crypto from 'node:crypto';
import { shot } from './fixtures';
import { expectNoSeriousA11yViolations } from './console-helpers';
import { expect, stripeModeApi, test } from './stripe-fixtures';
import { saveAuthenticatedStripeCard } from '../tests/helpers/stripe-saved-cards';

/**
 * A renewal that needs 3-D Secure, in Stripe mode (docs/processors.md, "Renewals that need
 * authentication"): the customer follows the "confirm your payment" email to the hosted invoice
 * page, presses Pay now, completes 3-D Secure on Stripe's page (the emulator's) and is back on the
 * invoice, paid. The same over HTTP, and in sandbox mode: tests/integration/*renewal-authentication.test.ts.
 */

test('the email’s link → the invoice page → Pay now → 3-D Secure on Stripe’s page → paid', async ({ page, request, stripeMode, baseURL }) => {
  const email = `renewal-3ds-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const customer = await stripeModeApi<{ id: string }>(request, stripeMode, '/api/Customer', { email, name: 'Noor Haddad' });
  await saveAuthenticatedStripeCard({ emulator: stripeMode.emulator, databaseUrl: stripeMode.server.databaseUrl }, customer.id);
  const product = await stripeModeApi<{ id: string }>(request, stripeMode, '/api/Product', { name: 'Atelier membership' });
  const price = await stripeModeApi<{ id: string }>(request, stripeMode, '/api/Price', {
    productId: product.id,
    type: 'Recurring',
    amount: 2400,
    currency: 'EUR',
    interval: 'month',
    trialDays: 14,
  });
  const clock = await stripeModeApi<{ id: string }>(request, stripeMode, '/api/TestClock', { name: 'renewal', frozenTime: '2030-01-10T10:00:00.000Z' });
  await stripeModeApi(request, stripeMode, `/api/TestClock/${clock.id}/Customer`, { customerId: customer.id });
  const subscription = await stripeModeApi<{ id: string }>(request, stripeMode, '/api/Subscription', { customerId: customer.id, priceId: price.id });
  // The trial ends and Stripe declines the off-session renewal: authentication required.
  await stripeModeApi(request, stripeMode, `/api/TestClock/${clock.id}/Advance`, { frozenTime: '2030-01-24T11:00:00.000Z' });

  const mailbox = (await (await fetch(`${baseURL}/dev/mailbox?format=json&to=${encodeURIComponent(email)}`)).json()) as {
    data: { category: string; subject: string; links: string[] }[];
  };
  const mail = mailbox.data.find((m) => m.category === 'payment.authentication')!;
  expect(mail.subject).toMatch(/^Confirm your payment to /);
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(mail.links[0]!);
  await expect(page.getByRole('heading', { name: 'Pay this invoice' })).toBeVisible();
  await expect(page.getByText('Pay €24.00 with Visa •••• 3184. Your bank may ask you to confirm the payment.')).toBeVisible();
  await expect(page.getByTestId('invoice-status')).toHaveText('open');
  await shot(page, 'renewal-auth-1-invoice');
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Pay now' }).click();
  await page.waitForURL(new RegExp(`^${stripeMode.emulator.baseUrl}/emulator/authenticate/pi_`));
  await expect(page.getByRole('heading', { name: '3D Secure test payment' })).toBeVisible();
  await shot(page, 'renewal-auth-2-3ds');
  await page.getByRole('button', { name: 'Complete authentication' }).click();

  await page.waitForURL(/\/invoice\/[0-9a-f]{64}\?payment=pay_/);
  await expect(page.getByText('Thank you: your payment was received.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Receipt' })).toBeVisible();
  await expect(page.getByTestId('invoice-status')).toHaveText('paid');
  await expect(page.getByRole('button', { name: 'Pay now' })).toHaveCount(0);
  await shot(page, 'renewal-auth-3-paid');
  expect(violations).toEqual([]);

  const after = await request.get(`/api/Subscription/${subscription.id}`, { headers: { authorization: `Bearer ${stripeMode.demoKey}` } });
  expect(await after.json()).toMatchObject({ status: 'active', latestBillingRecord: { status: 'paid' } });
});
