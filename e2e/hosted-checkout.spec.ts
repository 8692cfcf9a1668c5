import fs from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';

const SCREENS = 'test-results/screens';

function demoKey(): string {
  // The server started by e2e/global-setup.ts writes its data directory here.
  const { dataDir } = JSON.parse(fs.readFileSync(path.resolve('test-results', 'e2e-server.json'), 'utf8')) as { dataDir: string };
  return fs.readFileSync(path.join(dataDir, 'demo-api-key'), 'utf8').trim();
}

async function createLink(request: APIRequestContext, body: Record<string, unknown>) {
  const answer = await request.post('/api/PaymentLink', { headers: { authorization: `Bearer ${demoKey()}` }, data: body });
  expect(answer.status()).toBe(201);
  return (await answer.json()) as { id: string; token: string };
}

async function fillCard(page: import('@playwright/test').Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
}

test('a customer is declined, retries with another card, pays and is sent to the success URL', async ({ page, request, baseURL }) => {
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
  await page.getByLabel('Email').fill('hana@example.com');
  await page.getByLabel('Name').fill('Hana Sato');
  await fillCard(page, '4000 0000 0000 0002');
  await page.screenshot({ path: `${SCREENS}/checkout-1-form.png`, fullPage: true });

  await page.getByRole('button', { name: 'Pay ¥3,000' }).click();
  await expect(page.getByTestId('decline')).toContainText('Your card was declined.');
  await page.screenshot({ path: `${SCREENS}/checkout-2-declined.png`, fullPage: true });

  await fillCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay ¥3,000' }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(page.getByTestId('paid-total')).toHaveText('¥3,000');
  await expect(page.getByText('Visa •••• 4242')).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/checkout-3-success.png`, fullPage: true });

  // The success page proves nothing by itself: the backend checks paid through the API.
  await page.waitForURL(/\/\?from=checkout&checkoutId=cs_/, { timeout: 15_000 });
  const checkoutId = new URL(page.url()).searchParams.get('checkoutId')!;
  const checkout = await request.get(`/api/Checkout/${checkoutId}`, { headers: { authorization: `Bearer ${demoKey()}` } });
  expect(await checkout.json()).toMatchObject({ paid: true, total: 3000, currency: 'JPY', payment: { status: 'succeeded' } });
  const payments = await request.get(`/api/Payment?checkoutId=${checkoutId}`, { headers: { authorization: `Bearer ${demoKey()}` } });
  expect((await payments.json()).totalCount).toBe(1);
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
  await page.screenshot({ path: `${SCREENS}/checkout-4-promotion.png`, fullPage: true });
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
  await page.screenshot({ path: `${SCREENS}/checkout-5-unavailable.png`, fullPage: true });
  expect((await page.goto('/pay/this-token-does-not-exist'))!.status()).toBe(404);
});
