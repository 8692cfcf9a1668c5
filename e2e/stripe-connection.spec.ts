import crypto from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { shot } from './fixtures';
import { expectNoSeriousA11yViolations, signInAsDemoSeller } from './console-helpers';
import { expect, stripeModeApi, test, type StripeMode } from './stripe-fixtures';
import { accountOfKey } from '../tests/stripe-emulator/server';

/**
 * A seller connects their own Stripe account in Settings → Payments (docs/processors.md,
 * "Connecting a seller's Stripe account"): the key is checked with one call, its webhook endpoint
 * registered at their account, and from then on their payments, refunds and Stripe.js go to that
 * account, not the platform's; disconnecting deletes the endpoint, and what was paid through the
 * account can then only be refunded in Stripe's dashboard.
 */
const SELLER_SECRET_KEY = 'sk_test_sellerownaccount';
const SELLER_PUBLISHABLE_KEY = 'pk_test_sellerownaccount';
const sellerAccount = accountOfKey(SELLER_SECRET_KEY);

async function refund(request: APIRequestContext, stripeMode: StripeMode, paymentId: string) {
  return request.post(`/api/Payment/${paymentId}/Refund`, {
    headers: { authorization: `Bearer ${stripeMode.demoKey}`, 'idempotency-key': crypto.randomUUID() },
    data: {},
  });
}

async function payWithVisa(request: APIRequestContext, stripeMode: StripeMode, email: string) {
  const product = await stripeModeApi(request, stripeMode, '/api/Product', { name: 'Print' });
  const price = await stripeModeApi(request, stripeMode, '/api/Price', { productId: product.id, type: 'OneTime', amount: 3100, currency: 'USD' });
  return stripeModeApi(request, stripeMode, '/api/Checkout', { priceId: price.id, customerEmail: email, tokenRef: 'pm_card_visa' });
}

test('a seller connects their own Stripe account: payments, refunds, events and Stripe.js use it until they disconnect', async ({
  page,
  request,
  stripeMode,
}) => {
  const { emulator } = stripeMode;
  await signInAsDemoSeller(page);
  await page.goto('/merchant/settings/payments');
  await expect(page.getByText('payments go to the platform’s Stripe account')).toBeVisible();

  // A test secret key with a live publishable key is refused before Stripe is asked.
  await page.getByLabel('Secret or restricted key').fill(SELLER_SECRET_KEY);
  await page.getByLabel('Publishable key').fill('pk_live_sellerownaccount');
  await page.getByRole('button', { name: 'Connect Stripe' }).click();
  await expect(page.getByText('the publishable key must be one too (pk_test_…)')).toBeVisible();
  expect(emulator.requests.filter((r) => r.account === sellerAccount)).toEqual([]);

  await page.getByLabel('Secret or restricted key').fill(SELLER_SECRET_KEY);
  await page.getByLabel('Publishable key').fill(SELLER_PUBLISHABLE_KEY);
  await page.getByRole('button', { name: 'Connect Stripe' }).click();
  await expect(page.getByText('Stripe account connected. New payments go to it.')).toBeVisible();
  await expect(page.getByRole('link', { name: sellerAccount })).toBeVisible();
  await expect(page.getByText('Test mode')).toBeVisible();
  await expect(page.getByText(SELLER_SECRET_KEY)).toHaveCount(0);
  await shot(page, 'stripe-connection-1-connected');
  await expectNoSeriousA11yViolations(page);

  // One call checked the key; the endpoint was registered at the seller's account, for this connection.
  const endpoint = [...emulator.webhooks.endpoints.values()].find((e) => e.account === sellerAccount);
  expect(endpoint?.url).toMatch(/\/api\/processors\/stripe\/webhook\/pcn_\w+$/);
  expect(emulator.requests.filter((r) => r.account === sellerAccount).map((r) => `${r.method} ${r.path}`)).toEqual([
    'GET /v1/account',
    'POST /v1/webhook_endpoints',
  ]);

  // A backend checkout is charged at the seller's account, and its events come to their endpoint.
  const checkout = await payWithVisa(request, stripeMode, `own-stripe-${crypto.randomBytes(3).toString('hex')}@example.com`);
  expect(checkout).toMatchObject({ paid: true, payment: { processor: { name: 'stripe', mode: 'test' } } });
  const charge = emulator.requests.find((r) => r.path === '/v1/payment_intents' && r.method === 'POST' && r.idempotencyKey === checkout.payment.id);
  expect(charge?.account).toBe(sellerAccount);
  await expect.poll(() => emulator.webhooks.deliveries.filter((d) => d.endpointId === endpoint!.id && d.status === 200).length).toBeGreaterThan(0);

  // The hosted checkout loads Stripe.js with the seller's publishable key.
  const link = await stripeModeApi(request, stripeMode, '/api/PaymentLink', { name: 'Print', unitAmount: 3100, currency: 'USD' });
  const hosted = await (await request.get(`/pay/${link.token}`)).text();
  expect(hosted).toContain(SELLER_PUBLISHABLE_KEY);

  // A refund goes to the account that took the payment.
  const refunded = await refund(request, stripeMode, checkout.payment.id);
  expect(refunded.status(), await refunded.text()).toBe(201);
  expect(emulator.requests.filter((r) => r.path === '/v1/refunds').at(-1)?.account).toBe(sellerAccount);

  // Disconnecting deletes the endpoint at Stripe; new payments go to the platform's account again.
  const second = await payWithVisa(request, stripeMode, `own-stripe-2-${crypto.randomBytes(3).toString('hex')}@example.com`);
  await page.reload();
  await page.getByRole('button', { name: 'Disconnect' }).click();
  await page.getByRole('button', { name: 'Disconnect Stripe' }).click();
  await expect(page.getByText('Stripe account disconnected.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Connect Stripe' })).toBeVisible();
  await shot(page, 'stripe-connection-2-disconnected');
  expect(emulator.webhooks.endpoints.has(endpoint!.id)).toBe(false);

  const refused = await refund(request, stripeMode, second.payment.id);
  expect(refused.status()).toBe(409);
  expect(await refused.text()).toContain('no longer connected');
  const third = await payWithVisa(request, stripeMode, `platform-${crypto.randomBytes(3).toString('hex')}@example.com`);
  const platformCharge = emulator.requests.find((r) => r.path === '/v1/payment_intents' && r.method === 'POST' && r.idempotencyKey === third.payment.id);
  expect(platformCharge?.account).toBe(accountOfKey('sk_test_paybaseintegration'));
});
