import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, shot, test } from './fixtures';

/** The demo seller's API key, kept by the seed in the e2e server's data directory. */
function demoKey(): string {
  const { dataDir } = JSON.parse(fs.readFileSync(path.resolve('test-results', 'e2e-server.json'), 'utf8')) as { dataDir: string };
  return fs.readFileSync(path.join(dataDir, 'demo-api-key'), 'utf8').trim();
}

async function signInDemoSeller(page: Page) {
  await page.goto('/merchant/sign-in');
  await page.getByLabel('Email').fill('demo@example.com');
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Demo Store' })).toBeVisible();
}

async function createLink(request: APIRequestContext, body: Record<string, unknown>) {
  const answer = await request.post('/api/PaymentLink', { headers: { authorization: `Bearer ${demoKey()}` }, data: body });
  expect(answer.status()).toBe(201);
  return (await answer.json()) as { id: string; token: string };
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
}

test('a customer is declined, retries and pays; the seller finds the payment in the console and refunds half', async ({ page, request, baseURL }) => {
  const email = `hana-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const link = await createLink(request, {
    name: 'Sticker pack',
    description: 'Ten die-cut stickers',
    unitAmount: 1500,
    currency: 'JPY',
    quantity: 2,
    successUrl: `${baseURL}/?from=checkout`,
  });

  await page.goto(`/pay/${link.token}`);
  await expect(page.getByTestId('seller')).toHaveText('Demo Store');
  await expect(page.getByRole('heading', { name: 'Sticker pack' })).toBeVisible();
  await expect(page.getByTestId('quantity')).toHaveText('2');
  await expect(page.getByTestId('list-total')).toHaveText('¥3,000');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Name').fill('Hana Sato');
  await fillCard(page, '4000 0000 0000 0002');
  await shot(page, 'checkout-1-form');

  await page.getByRole('button', { name: 'Pay ¥3,000' }).click();
  await expect(page.getByTestId('decline')).toContainText('Your card was declined.');
  await shot(page, 'checkout-2-declined');

  await fillCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay ¥3,000' }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(page.getByTestId('paid-total')).toHaveText('¥3,000');
  await expect(page.getByText('Visa •••• 4242')).toBeVisible();
  await shot(page, 'checkout-3-success');

  // The success page proves nothing by itself: the backend checks paid through the API.
  await page.waitForURL(/\/\?from=checkout&checkoutId=cs_/, { timeout: 15_000 });
  const checkoutId = new URL(page.url()).searchParams.get('checkoutId')!;
  const checkout = await request.get(`/api/Checkout/${checkoutId}`, { headers: { authorization: `Bearer ${demoKey()}` } });
  expect(await checkout.json()).toMatchObject({ paid: true, total: 3000, currency: 'JPY', payment: { status: 'succeeded' } });
  const payments = await request.get(`/api/Payment?checkoutId=${checkoutId}`, { headers: { authorization: `Bearer ${demoKey()}` } });
  expect((await payments.json()).totalCount).toBe(1);
  const paymentId = (await payments.json()).data[0].id as string;

  // The seller signs in, finds the payment (and the declined attempt) by the customer's email.
  await signInDemoSeller(page);
  await page.getByRole('link', { name: 'Payments' }).first().click();
  await expect(page.getByRole('heading', { name: 'Payments', level: 1 })).toBeVisible();
  await page.getByLabel('Customer email or id').fill(email);
  await page.getByRole('button', { name: 'Filter' }).click();
  const rows = page.getByRole('table', { name: 'Payments' }).locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Failed' })).toHaveCount(1);
  await shot(page, 'checkout-6-console-payments');

  await rows.filter({ hasText: 'Succeeded' }).getByRole('link', { name: '¥3,000' }).click();
  await expect(page).toHaveURL(new RegExp(`/merchant/payments/${paymentId}$`));
  await expect(page.getByTestId('refundable')).toHaveText('¥3,000');
  // Nothing is prefilled: the amount to refund is typed, then confirmed in words.
  await expect(page.getByLabel('Amount (JPY)')).toHaveValue('');
  await expect(page.getByRole('list', { name: 'Payment timeline' })).toContainText('Payment succeeded');
  await shot(page, 'checkout-7-console-payment');

  // More than was paid is refused in words; half is refunded once.
  await page.getByLabel('Amount (JPY)').fill('3001');
  await page.getByRole('button', { name: 'Review refund' }).click();
  await expect(page.getByTestId('confirm-amount-question')).toHaveText('Refund ¥3,001 to the customer? Refunds cannot be undone.');
  await expect(page.getByRole('button', { name: 'Refund ¥3,001' })).toBeFocused();
  await page.getByRole('button', { name: 'Refund ¥3,001' }).click();
  await expect(page.getByText('At most 3000 (¥3,000) of this payment is left to refund.')).toBeVisible();
  await page.getByRole('button', { name: 'Change amount' }).click();
  await expect(page.getByRole('button', { name: 'Review refund' })).toBeFocused();
  await page.getByLabel('Amount (JPY)').fill('1500');
  await page.getByLabel('Reason').fill('Half the stickers arrived bent');
  await page.getByRole('button', { name: 'Review refund' }).click();
  await shot(page, 'checkout-7b-console-refund-confirm');
  await page.getByRole('button', { name: 'Refund ¥1,500' }).click();
  await expect(page.getByText('Refunded ¥1,500.')).toBeVisible();
  await expect(page.getByText('Partially refunded').first()).toBeVisible();
  await expect(page.getByTestId('refundable')).toHaveText('¥1,500');
  await expect(page.getByRole('list', { name: 'Payment timeline' })).toContainText('Refund of ¥1,500 succeeded');
  await shot(page, 'checkout-8-console-refunded-half');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('refundable')).toBeVisible();
  await shot(page, 'checkout-8b-console-refunded-half-phone');
  await page.goto('/merchant/payments');
  await shot(page, 'checkout-8c-console-payments-phone');
  const refunded = await request.get(`/api/Payment/${paymentId}`, { headers: { authorization: `Bearer ${demoKey()}` } });
  expect(await refunded.json()).toMatchObject({
    status: 'partially_refunded',
    amountRefunded: 1500,
    refunds: [{ amount: 1500, status: 'succeeded', reason: 'Half the stickers arrived bent' }],
  });
});

test('a wallet member pays with a card saved with the same seller', async ({ page, request }) => {
  const email = `wallet-pay-${crypto.randomBytes(4).toString('hex')}@example.com`;
  // First purchase: a typed card, saved with Demo Store.
  const first = await createLink(request, { name: 'Coffee beans', unitAmount: 1800, currency: 'USD' });
  await page.goto(`/pay/${first.token}`);
  await page.getByLabel('Email').fill(email);
  await fillCard(page, '5555 5555 5555 4444');
  await page.getByLabel('Save this card for future payments to this seller').check();
  await page.getByRole('button', { name: 'Pay $18.00' }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();

  // The buyer signs in to their wallet with the same email (dev mailbox link).
  await page.goto('/member/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  // The mailbox link is on the page from the start: leaving before the action answers can lose the request.
  await expect(page.getByText('a sign-in link is on its way')).toBeVisible();
  await page.getByRole('link', { name: 'dev mailbox' }).click();
  await page.getByLabel('Recipient').fill(email);
  await page.getByRole('button', { name: 'Filter' }).click();
  await page
    .getByRole('article', { name: 'Your Paybase wallet sign-in link' })
    .getByRole('link', { name: /\/member\/verify\?token=/ })
    .click();
  await page.getByRole('button', { name: 'Sign in to my wallet' }).click();
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible();
  await expect(page.getByText('Demo Store').first()).toBeVisible();
  // The mailed link uses the public URL's host, so the wallet cookies belong to that origin.
  const walletOrigin = new URL(page.url()).origin;

  // Second purchase: from the checkout page to the wallet, the saved card, two of an adjustable quantity.
  const second = await createLink(request, {
    name: 'Coffee grinder',
    unitAmount: 4500,
    currency: 'USD',
    adjustableQuantity: { enabled: true, minimum: 1, maximum: 3 },
  });
  await page.goto(`${walletOrigin}/pay/${second.token}`);
  await shot(page, 'checkout-9-wallet-link');
  await page.getByRole('link', { name: 'Pay with your Paybase wallet' }).click();
  await expect(page).toHaveURL(new RegExp(`/member/pay/${second.token}$`));
  await expect(page.getByRole('radio', { name: /Mastercard •••• 4444/ })).toBeChecked();
  await page.getByRole('button', { name: 'Quantity +1' }).click();
  await expect(page.getByTestId('list-total')).toHaveText('$90.00');
  await shot(page, 'checkout-10-wallet-pay');
  await page.getByRole('button', { name: 'Pay $90.00' }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(page.getByTestId('paid-total')).toHaveText('$90.00');
  await expect(page.getByText('Mastercard •••• 4444')).toBeVisible();
  await shot(page, 'checkout-11-wallet-success');
});

test('a promotion code lowers the total before paying', async ({ page, request }) => {
  const headers = { authorization: `Bearer ${demoKey()}` };
  const coupon = await request.post('/api/Coupon', { headers, data: { percentOff: 15 } });
  await request.post('/api/PromotionCode', { headers, data: { couponId: (await coupon.json()).id, code: `E2E${Date.now()}` } });
  const code = (await (await request.get('/api/PromotionCode?pageSize=1', { headers })).json()).data[0].code as string;
  const link = await createLink(request, { name: 'Workshop seat', unitAmount: 999, currency: 'USD', quantity: 1 });

  await page.goto(`/pay/${link.token}`);
  await expect(page.getByTestId('list-total')).toHaveText('$9.99');
  await page.getByLabel('Promotion code').fill(code.toLowerCase());
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('promotion-applied')).toContainText('−$1.50');
  await page.getByLabel('Email').fill('lee@example.com');
  await fillCard(page, '4242424242424242');
  await shot(page, 'checkout-4-promotion');
  await page.getByRole('button', { name: 'Pay $8.49' }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(page.getByTestId('paid-total')).toHaveText('$8.49');
});

test('a disabled link says why it cannot be paid', async ({ page, request }) => {
  const link = await createLink(request, { name: 'Old offer', unitAmount: 500, currency: 'EUR' });
  await request.post(`/api/PaymentLink/${link.id}/Disable`, { headers: { authorization: `Bearer ${demoKey()}` } });
  await page.goto(`/pay/${link.token}`);
  await expect(page.getByTestId('unavailable-reason')).toHaveText('This payment link has been turned off by the seller.');
  await expect(page.getByRole('button', { name: /Pay/ })).toHaveCount(0);
  await shot(page, 'checkout-5-unavailable');
  expect((await page.goto('/pay/this-token-does-not-exist'))!.status()).toBe(404);
});
