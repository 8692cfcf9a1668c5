import crypto from 'node:crypto';
import type { Page } from '@playwright/test';
import { shot } from './fixtures';
import { expectNoSeriousA11yViolations } from './console-helpers';
import { expect, signInToPortal, stripeModeApi, test, typeCard } from './stripe-fixtures';

/**
 * Saving a card that asks for 3-D Secure, the customer present, in Stripe mode (docs/processors.md,
 * "Saved cards and 3-D Secure"): the server makes the SetupIntent, Stripe.js's `confirmCardSetup`
 * (the emulator's stand-in) shows the issuer's challenge over the page, and the card is saved once
 * Stripe says it was authenticated. The HTTP side is tests/integration/stripe-card-authentication.test.ts.
 */

const someone = (what: string) => `stripe-3ds-${what}-${crypto.randomBytes(4).toString('hex')}@example.com`;

/** The challenge Stripe.js shows over the page: the issuer's page (the emulator's) in a frame. */
function challenge(page: Page) {
  return page.getByRole('dialog', { name: '3D Secure authentication' }).locator('iframe').contentFrame();
}

test('the portal saves a card that needs 3-D Secure once the customer passes the challenge; a failed challenge saves nothing', async ({
  page,
  request,
  stripeMode,
  baseURL,
}) => {
  const email = someone('portal');
  const customer = await stripeModeApi<{ id: string }>(request, stripeMode, '/api/Customer', { email, name: 'Hedy' });
  await signInToPortal(page, baseURL, customer.id, email);

  const form = page.getByRole('form', { name: 'Add a card' });
  await typeCard(form, '4000 0027 6000 3184', '11 / 33');
  await form.getByRole('button', { name: 'Add card' }).click();
  const frame = challenge(page);
  await expect(frame.getByRole('heading', { name: '3D Secure test card setup' })).toBeVisible();
  await expect(frame.getByText('visa ending in 3184')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Adding…' })).toBeDisabled();
  await shot(page, 'stripe-3ds-1-portal-challenge');
  await frame.getByRole('button', { name: 'Complete authentication' }).click();

  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByText('Card ending in 3184 added and set as default.')).toBeVisible();
  await expect(page.getByText('11/2033')).toBeVisible();
  await shot(page, 'stripe-3ds-2-portal-card-saved');
  await expectNoSeriousA11yViolations(page);
  const saved = await request.get(`/api/Customer/${customer.id}/PaymentMethod`, { headers: { authorization: `Bearer ${stripeMode.demoKey}` } });
  expect((await saved.json()).data).toEqual([expect.objectContaining({ brand: 'visa', last4: '3184', expMonth: 11, expYear: 2033, isDefault: true })]);

  // Failed: the reason, in the customer's words, and nothing saved.
  await typeCard(form, '4000 0025 0000 3155', '10 / 31');
  await form.getByRole('button', { name: 'Add card' }).click();
  await challenge(page).getByRole('button', { name: 'Fail authentication' }).click();
  await expect(form.getByTestId('form-error')).toHaveText(
    "Card ending in 3155 not saved: Your card's authentication was not completed. Try again, or use another card. Your default card is unchanged.",
  );
  await shot(page, 'stripe-3ds-3-portal-challenge-failed');
  const after = await request.get(`/api/Customer/${customer.id}/PaymentMethod`, { headers: { authorization: `Bearer ${stripeMode.demoKey}` } });
  expect((await after.json()).data).toHaveLength(1);
});

test('a trial’s hosted checkout has the customer authenticate the card it keeps, then starts the trial', async ({ page, request, stripeMode }) => {
  const product = await stripeModeApi<{ id: string }>(request, stripeMode, '/api/Product', { name: 'Reading club' });
  const price = await stripeModeApi<{ id: string }>(request, stripeMode, '/api/Price', {
    productId: product.id,
    type: 'Recurring',
    amount: 1200,
    currency: 'EUR',
    interval: 'month',
    trialDays: 7,
  });
  const link = await stripeModeApi<{ token: string }>(request, stripeMode, '/api/PaymentLink', { priceId: price.id });
  await page.goto(`/pay/${link.token}`);
  await page.getByLabel('Email').fill(someone('trial'));
  await page.getByLabel('Name').fill('Rosalind');
  await typeCard(page, '4000 0027 6000 3184');
  await page.getByRole('button', { name: 'Start trial' }).click();
  await expect(challenge(page).getByRole('heading', { name: '3D Secure test card setup' })).toBeVisible();
  await shot(page, 'stripe-3ds-4-trial-challenge');
  await challenge(page).getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page.getByRole('heading', { name: 'Your free trial has started' })).toBeVisible();
  await shot(page, 'stripe-3ds-5-trial-started');
});
