import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { startServer, type RunningServer } from '../tests/setup/server';
import { shot } from './fixtures';
import { expectNoSeriousA11yViolations } from './console-helpers';

// Issue 12's done-criteria, walked as a new seller would: a fresh install started with
// SEED_SAMPLE_DATA=true (its own server and database, no test-only settings), then the console.

let server: RunningServer;

test.describe.configure({ timeout: 600_000 });

test.beforeAll(async () => {
  test.setTimeout(600_000);
  server = await startServer({ env: { SEED_SAMPLE_DATA: 'true' } });
});

test.afterAll(async () => {
  await server?.stop();
});

test('a new seller with sample data sees the business, finds a customer, edits a link and an endpoint, and finds a failed request', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const at = (route: string) => `${server.baseUrl}${route}`;
  const key = fs.readFileSync(path.join(server.dataDir, 'demo-api-key'), 'utf8').trim();
  const auth = { authorization: `Bearer ${key}` };

  // The business on the overview: 90 days of volume, subscriptions and webhook deliveries.
  await page.goto(at('/merchant/sign-in'));
  await page.getByLabel('Email').fill('demo@example.com');
  await page.getByLabel('Password').fill('demo-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Demo Store' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Range' }).getByRole('link', { name: '90 days' }).click();
  await expect(page.getByRole('link', { name: '90 days' })).toHaveAttribute('aria-current', 'page');
  for (const chart of ['Gross volume (USD)', 'Gross volume (EUR)', 'MRR (USD)']) {
    await expect(page.getByRole('region', { name: chart }).getByRole('img', { name: new RegExp(chart.replace(/[()]/g, '\\$&')) })).toBeVisible();
  }
  await expect(page.getByRole('img', { name: /Payments this period: Succeeded [1-9]\d*, Failed [1-9]/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /Webhook deliveries this period: Delivered [1-9]\d*, Retrying \d+, Dead [1-9]/ })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'done-overview');
  await page.screenshot({ path: path.resolve('test-results', 'screenshots', 'done-overview-viewport.png') });

  // A customer found by email from the header: one with a subscription, so the hub has it all.
  const subscriptions = await (await request.get(at('/api/Subscription?pageSize=1'), { headers: auth })).json();
  const customer = await (await request.get(at(`/api/Customer/${subscriptions.data[0].customerId}`), { headers: auth })).json();
  await page.locator('body').click();
  await page.keyboard.press('/');
  await page.keyboard.type(customer.email);
  await page.keyboard.press('Enter');
  await page.getByRole('region', { name: 'Customers' }).getByRole('link', { name: customer.email }).click();
  await expect(page).toHaveURL(new RegExp(`/merchant/customers/${customer.id}$`));
  await expect(page.getByRole('table', { name: 'Subscriptions' }).getByRole('link', { name: subscriptions.data[0].id })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Payments' }).getByRole('row')).not.toHaveCount(1);
  await expect(page.getByRole('table', { name: 'Billing records' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Events' }).getByText('subscription.created')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'done-customer-hub');

  // A payment link edited from its page.
  await page.goto(at('/merchant/payment-links'));
  await page.getByRole('link', { name: 'Enamel mug (shop link)' }).click();
  const linkForm = page.getByRole('form', { name: 'Edit payment link' });
  await linkForm.getByLabel('Name').fill('Enamel mug, gift wrapped');
  await linkForm.getByRole('button', { name: 'Save payment link' }).click();
  await expect(linkForm.getByText('Payment link “Enamel mug, gift wrapped” saved.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Enamel mug, gift wrapped', level: 1 })).toBeVisible();

  // The sample endpoint, with its failed deliveries, edited from its page.
  await page.goto(at('/merchant/webhooks'));
  await page
    .getByRole('link', { name: /127\.0\.0\.1/ })
    .first()
    .click();
  await expect(page.getByRole('table', { name: 'Deliveries' })).toBeVisible();
  await page
    .getByRole('navigation', { name: /status/i })
    .getByRole('link', { name: /dead/i })
    .click();
  await expect(page.getByRole('table', { name: 'Deliveries' }).getByRole('row')).not.toHaveCount(1);
  const endpointForm = page.getByRole('form', { name: 'Edit webhook endpoint' });
  await endpointForm.getByLabel('Description').fill('Order sync (to be moved to our backend)');
  await endpointForm.getByLabel('refund.failed').check();
  await endpointForm.getByRole('button', { name: 'Save endpoint' }).click();
  await expect(endpointForm.getByText('Endpoint saved.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Details' }).getByText('refund.failed')).toBeVisible();
  await shot(page, 'done-webhook-endpoint');

  // A failed API request found by the X-Request-Id the backend logged.
  const failed = await request.post(at('/api/Checkout'), {
    headers: { ...auth, 'idempotency-key': crypto.randomUUID() },
    data: { priceId: 'price_does_not_exist', customerEmail: 'backend@example.com', tokenRef: 'tok_visa' },
  });
  expect(failed.status()).toBeGreaterThanOrEqual(400);
  const requestId = failed.headers()['x-request-id']!;
  await page.goto(at('/merchant/developers/logs'));
  const search = page.getByRole('search', { name: 'Filter requests' });
  await search.getByLabel('Request id').fill(requestId);
  await search.getByRole('button', { name: 'Filter' }).click();
  // Written off the request's path: it may take a moment to appear.
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('table', { name: 'API requests' }).getByText(requestId)).toBeVisible({ timeout: 1000 });
  }).toPass();
  await page.getByRole('link', { name: 'POST /api/Checkout' }).click();
  await expect(page.getByRole('region', { name: 'Response body' })).toContainText(requestId);
  await shot(page, 'done-failed-request');
});
