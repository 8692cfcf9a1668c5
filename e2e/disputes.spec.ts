import crypto from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { expect, shot, test } from './fixtures';
import { expectNoSeriousA11yViolations } from './console-helpers';
import { startServer, type RunningServer } from '../tests/setup/server';
import { StripeEmulator } from '../tests/stripe-emulator/server';

/**
 * The seller console's disputes in Stripe mode (docs/processors.md, "Disputes"): a server of its
 * own with PAYMENT_PROCESSOR=stripe against the Stripe emulator. A payment made with
 * `pm_card_createDispute` is disputed; the Disputes page lists it with its evidence due date, the
 * dispute's page sends evidence to Stripe, and the payment's page shows the dispute.
 */
let emulator: StripeEmulator;
let server: RunningServer;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  emulator = new StripeEmulator({ webhookRetryDelayMs: 200 });
  await emulator.start();
  server = await startServer({
    env: {
      PAYMENT_PROCESSOR: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_paybasee2edisputes',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_paybasee2edisputes',
      STRIPE_API_URL: emulator.baseUrl,
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await emulator?.stop();
});

async function api(method: string, path: string, body?: unknown) {
  const key = /Demo API key\s+(\S+)/.exec(server.output())![1]!;
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await response.json()) as any;
  expect(response.status, `${method} ${path}: ${JSON.stringify(parsed)}`).toBeLessThan(300);
  return parsed;
}

async function signedIn(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.baseUrl });
  const page = await context.newPage();
  await page.goto('/merchant/sign-in');
  await page.getByLabel('Email').fill('demo@example.com');
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  return page;
}

async function fitsAPhone(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${page.url()} at 390 px`).toBeLessThanOrEqual(390);
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('a disputed payment shows on the Disputes page; an Owner sends evidence from the dispute page; the payment shows the dispute', async ({ browser }) => {
  test.setTimeout(300_000);
  const product = await api('POST', '/api/Product', { name: 'Handmade ceramic vase' });
  const price = await api('POST', '/api/Price', { productId: product.id, type: 'OneTime', amount: 8900, currency: 'EUR' });
  const checkout = await api('POST', '/api/Checkout', { priceId: price.id, customerEmail: 'vase-buyer@example.com', tokenRef: 'pm_card_createDispute' });
  const paymentId = checkout.payment.id as string;
  await expect.poll(async () => (await api('GET', `/api/Dispute?paymentId=${paymentId}`)).totalCount, { timeout: 60_000 }).toBe(1);

  const page = await signedIn(browser);
  await page.getByRole('navigation').getByRole('link', { name: 'Disputes' }).click();
  await expect(page.getByRole('heading', { name: 'Disputes', level: 1 })).toBeVisible();
  const row = page.getByRole('table', { name: 'Disputes' }).getByRole('row').filter({ hasText: '€89.00' });
  await expect(row).toContainText('Needs response');
  await expect(row).toContainText('Fraudulent');
  await expect(row).toContainText(paymentId);
  await shot(page, 'disputes-1-list');
  await fitsAPhone(page);

  await row.getByRole('link', { name: '€89.00' }).click();
  await expect(page.getByRole('heading', { name: 'Dispute of €89.00' })).toBeVisible();
  await expect(page.getByText('€89.00 taken from the balance')).toBeVisible();
  await expect(page.getByRole('link', { name: /^dp_/ })).toHaveAttribute('href', /^https:\/\/dashboard\.stripe\.com\/test\/disputes\/dp_/);
  const form = page.getByRole('form', { name: 'Evidence' });
  await form.getByLabel('Product or service description').fill('A handmade vase, shipped with tracking and signed for on delivery.');
  await form.getByLabel('Tracking number').fill('JJD000390007001234');
  await shot(page, 'disputes-2-evidence-form');
  await fitsAPhone(page);
  await form.getByRole('button', { name: 'Submit evidence' }).click();
  await expect(form.getByText('Send this evidence to the card issuer? It cannot be changed afterwards.')).toBeVisible();
  await form.getByRole('button', { name: 'Send evidence' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Evidence sent to the card issuer through Stripe.' })).toBeVisible();
  await expect(page.getByText('Under review')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Evidence' })).toHaveCount(0);
  await expect(page.getByText('JJD000390007001234')).toBeVisible();
  await shot(page, 'disputes-3-evidence-sent');
  const sent = emulator.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/v1/disputes/'));
  expect(sent).toHaveLength(1);
  expect(sent[0]!.params).toMatchObject({ evidence: { shipping_tracking_number: 'JJD000390007001234' }, submit: 'true' });

  await page.getByRole('link', { name: paymentId }).click();
  await expect(page.getByRole('heading', { name: '€89.00' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Payment timeline' })).toContainText('Disputed by the customer (€89.00)');
  await expect(page.getByRole('link', { name: /€89\.00 · Fraudulent/ })).toBeVisible();
  await shot(page, 'disputes-4-payment');
  await page.context().close();
});
