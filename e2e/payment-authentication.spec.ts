import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, shot, test } from './fixtures';

/** The demo seller's API key, kept by the seed in the e2e server's data directory. */
function demoKey(): string {
  const { dataDir } = JSON.parse(fs.readFileSync(path.resolve('test-results', 'e2e-server.json'), 'utf8')) as { dataDir: string };
  return fs.readFileSync(path.join(dataDir, 'demo-api-key'), 'utf8').trim();
}

test('a card that asks for 3-D Secure: the customer authenticates on the sandbox page and lands on the paid page', async ({ page, request }) => {
  const created = await request.post('/api/PaymentLink', {
    headers: { authorization: `Bearer ${demoKey()}` },
    data: { name: 'Concert ticket', unitAmount: 4900, currency: 'EUR' },
  });
  expect(created.status()).toBe(201);
  const link = (await created.json()) as { token: string };

  await page.goto(`/pay/${link.token}`);
  await page.getByLabel('Email').fill(`ana-${crypto.randomBytes(4).toString('hex')}@example.com`);
  await page.getByLabel('Name').fill('Ana Ruiz');
  await page.getByLabel('Card number').fill('4000 0027 6000 3184');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Pay €49.00' }).click();

  // The browser is sent to the authentication page (the sandbox's stand-in for the bank's).
  await page.waitForURL(/\/sandbox\/authenticate\/sbxauth_/);
  await expect(page.getByRole('heading', { name: 'Confirm your payment' })).toBeVisible();
  await expect(page.getByTestId('authentication-amount')).toHaveText('€49.00');
  await expect(page.getByRole('button', { name: 'Fail authentication' })).toBeVisible();
  await shot(page, 'authentication-1-sandbox-page');
  // Like every hosted page (e2e/every-page.spec.ts): no wider than a phone, no serious or critical axe finding.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 720 });

  await page.getByRole('button', { name: 'Complete authentication' }).click();
  // Back on the checkout's result page, which asked the processor at once.
  await page.waitForURL(new RegExp(`/pay/${link.token}/success\\?checkoutId=cs_`));
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(page.getByTestId('paid-total')).toHaveText('€49.00');
  await expect(page.getByText('Visa •••• 3184')).toBeVisible();
  await shot(page, 'authentication-2-paid');

  const checkoutId = new URL(page.url()).searchParams.get('checkoutId')!;
  const checkout = await request.get(`/api/Checkout/${checkoutId}`, { headers: { authorization: `Bearer ${demoKey()}` } });
  expect(await checkout.json()).toMatchObject({ paid: true, payment: { status: 'succeeded', nextAction: null } });
});
