import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { startReceiver, type Receiver } from '../tests/helpers/webhook-receiver';
import { parseSignatureHeader, verifyWebhook } from '../packages/sdk/src/webhooks';

// The e2e server runs with WEBHOOK_TEST_ENV (e2e/global-setup.ts): receivers on 127.0.0.1 are
// allowed and the retry schedule is compressed to about 4 seconds for all 8 attempts.

const PASSWORD = 'a long seller password';
let receiver: Receiver;

test.beforeEach(async () => {
  receiver = await startReceiver(() => ({ status: 500, body: 'receiver down for maintenance' }));
});

test.afterEach(async () => {
  await receiver.close();
});

test('a seller creates a webhook endpoint, sees failing deliveries with every attempt, retries one, rotates the secret and reads the event log', async ({
  page,
}) => {
  const email = `hooks-${crypto.randomBytes(4).toString('hex')}@example.com`;

  // Sign up, sign out and sign in again.
  await page.goto('/merchant/sign-up');
  await page.getByLabel('Business or your name').fill('Hook & Co');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Hook & Co' })).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/merchant\/sign-in$/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Hook & Co' })).toBeVisible();

  // Webhooks: no endpoint yet; the form explains what is missing in words.
  await page.getByRole('navigation', { name: 'Seller console sections' }).getByRole('link', { name: 'Webhooks' }).click();
  await expect(page.getByText('No webhook endpoints yet')).toBeVisible();
  await shot(page, 'webhooks-01-empty');
  await page.getByLabel('Endpoint URL').fill(`${receiver.url}/hooks`);
  await page.getByRole('button', { name: 'Create endpoint' }).click();
  await expect(page.getByText('Choose at least one event type, or all events.')).toBeVisible();
  await page.getByLabel('Endpoint URL').fill('ftp://example.com/hooks');
  await page.getByRole('checkbox', { name: 'product.created' }).check();
  await page.getByRole('button', { name: 'Create endpoint' }).click();
  await expect(page.locator('main').getByRole('alert')).toContainText('Please correct');
  await expect(page.getByLabel('Endpoint URL')).toHaveAttribute('aria-invalid', 'true');
  await shot(page, 'webhooks-02-create-errors');

  // "All events" covers every type: the single boxes show ticked and are not sent.
  await page.getByRole('checkbox', { name: /^All events/ }).check();
  await expect(page.getByRole('checkbox', { name: 'refund.succeeded' })).toBeDisabled();
  await page.getByRole('checkbox', { name: /^All events/ }).uncheck();
  await page.getByLabel('Endpoint URL').fill(`${receiver.url}/hooks`);
  await page.getByLabel('Description').fill('Order system');
  await page.getByRole('checkbox', { name: 'product.created' }).check();
  await page.getByRole('checkbox', { name: 'price.created' }).check();
  await page.getByRole('button', { name: 'Create endpoint' }).click();
  const secret = (await page.getByTestId('signing-secret').textContent())!.trim();
  expect(secret).toMatch(/^whsec_/);
  await expect(page.getByRole('button', { name: 'Copy secret' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: `${receiver.url}/hooks` });
  await expect(row.getByText('Enabled')).toBeVisible();
  await shot(page, 'webhooks-03-endpoint-created');

  // Trigger an event: a product made in the console emits product.created.
  await page.getByRole('link', { name: 'Products' }).first().click();
  await page.getByLabel('Name').fill('Webhook hoodie');
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByRole('heading', { name: 'Webhook hoodie' })).toBeVisible();

  // The receiver answers 500: the delivery is attempted 8 times (compressed schedule), each signed.
  const failed = await receiver.waitFor((requests) => requests.length >= 8, 30_000);
  for (const request of failed) {
    const event = verifyWebhook(request.body, request.headers['x-service-signature'] as string, secret);
    expect(event.type).toBe('product.created');
    expect((event.data.object as { name: string }).name).toBe('Webhook hoodie');
  }
  expect(new Set(failed.map((request) => request.body)).size).toBe(1);

  // A banner on every console page says the endpoint is failing; the list makes it stand out.
  await page.reload();
  const banner = page.getByTestId('webhook-banner');
  await expect(banner).toContainText('A webhook endpoint is failing');
  await expect(banner).toContainText(`${receiver.url}/hooks`);
  await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
  await expect(row.getByText('Failing')).toBeVisible();
  await shot(page, 'webhooks-04-endpoint-failing');

  // The endpoint page: its state in words and the dead delivery.
  await row.getByRole('link', { name: `${receiver.url}/hooks` }).click();
  await expect(page.getByRole('heading', { name: 'Webhook endpoint' })).toBeVisible();
  await expect(page.getByText(/^Every attempt since .* has failed\./)).toBeVisible();
  const deliveryRow = page.getByRole('row').filter({ hasText: 'product.created' });
  await expect(deliveryRow.getByText('Dead')).toBeVisible({ timeout: 20_000 });
  await expect(deliveryRow.getByText('HTTP 500')).toBeVisible();
  await shot(page, 'webhooks-05-endpoint-detail-failing');

  // The delivery view: each attempt with its request headers, response status and body.
  await deliveryRow.getByRole('link', { name: /^product\.created wda_/ }).click();
  await expect(page.getByRole('heading', { name: 'Delivery', exact: true })).toBeVisible();
  await expect(page.getByTestId(/^attempt-/)).toHaveCount(8);
  const latest = page.getByTestId('attempt-8');
  await expect(latest.getByRole('rowheader', { name: 'X-Service-Signature' })).toBeVisible();
  await expect(latest.getByRole('rowheader', { name: 'X-Service-Delivery-Id' })).toBeVisible();
  await expect(latest.getByText('HTTP 500').first()).toBeVisible();
  await expect(latest.getByLabel('Response body of attempt 8')).toHaveText('receiver down for maintenance');
  await expect(page.getByLabel('Request body JSON')).toContainText('"name": "Webhook hoodie"');
  await shot(page, 'webhooks-06-delivery-dead');

  // The receiver is fixed; Retry, submitted twice at once, sends exactly one more attempt.
  receiver.setResponder(() => ({ status: 200, body: '{"received":true}', headers: { 'content-type': 'application/json' } }));
  await page.getByRole('form', { name: 'Retry delivery' }).evaluate((form: HTMLFormElement) => {
    form.requestSubmit();
    form.requestSubmit();
  });
  await expect(page.getByText('This retry was already queued (the form was sent twice); it is sent once.')).toBeVisible();
  await expect(page.getByTestId('attempt-9')).toBeVisible({ timeout: 20_000 });
  const retried = page.getByTestId('attempt-9');
  await expect(retried.getByText('Manual retry')).toBeVisible();
  await expect(retried.getByText('Succeeded')).toBeVisible();
  await expect(retried.getByText('HTTP 200').first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Summary' }).getByText('Delivered', { exact: true })).toBeVisible();
  await shot(page, 'webhooks-07-delivery-retried');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'webhooks-07b-delivery-phone');
  await page.setViewportSize({ width: 1280, height: 720 });
  await new Promise((resolve) => setTimeout(resolve, 2000));
  expect(receiver.received).toHaveLength(9);
  expect(receiver.received[8]!.body).toBe(failed[0]!.body);
  verifyWebhook(receiver.received[8]!.body, receiver.received[8]!.headers['x-service-signature'] as string, secret);

  // A success clears the failing state: no banner any more.
  await page.getByRole('link', { name: '← Endpoint' }).click();
  await expect(page.getByText('Enabled').first()).toBeVisible();
  await expect(page.getByTestId('webhook-banner')).toHaveCount(0);

  // Recover: nothing failed is left since yesterday.
  await page.getByRole('button', { name: 'Recover deliveries' }).click();
  await expect(page.getByText('No failed or dead deliveries since then: nothing to resend.')).toBeVisible();

  // Rotate the secret: the new one is shown once, and the old one keeps signing for 24 h.
  const prefixBefore = await page.getByTestId('secret-prefix').textContent();
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  const newSecret = (await page.getByTestId('signing-secret').textContent())!.trim();
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(secret);
  await expect(page.getByTestId('new-signing-secret')).toContainText('signed with both the new and the previous secret');
  await expect(page.getByTestId('secret-prefix')).not.toHaveText(prefixBefore!);
  await expect(page.getByText(/also signs until/)).toBeVisible();
  await shot(page, 'webhooks-08-secret-rotated');

  // Another event: delivered at once, with one v1 per live secret.
  await page.getByRole('link', { name: 'Products' }).first().click();
  await page.getByLabel('Name').fill('Webhook cap');
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByRole('heading', { name: 'Webhook cap' })).toBeVisible();
  const [capDelivery] = (await receiver.waitFor((requests) => requests.length >= 10)).slice(9);
  expect(capDelivery!.path).toBe('/hooks');
  const header = capDelivery!.headers['x-service-signature'] as string;
  expect(parseSignatureHeader(header).signatures).toHaveLength(2);
  verifyWebhook(capDelivery!.body, header, secret);
  verifyWebhook(capDelivery!.body, header, newSecret);

  // Event log: filter by type, open an event, see its JSON body and its delivery.
  await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
  await page.getByRole('link', { name: 'Event log' }).click();
  await expect(page.getByRole('link', { name: 'product.created' })).toHaveCount(2);
  await page.getByLabel('Event type').selectOption('price.created');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByText('No price.created events yet')).toBeVisible();
  await page.getByLabel('Event type').selectOption('product.created');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/type=product.created/);
  await expect(page.getByRole('link', { name: 'product.created' })).toHaveCount(2);
  await shot(page, 'webhooks-09-event-log');
  await page.getByRole('link', { name: 'product.created' }).first().click();
  await expect(page.getByTestId('event-body')).toContainText('"name": "Webhook cap"');
  const eventDelivery = page.getByRole('row').filter({ hasText: `${receiver.url}/hooks` });
  await expect(eventDelivery.getByText('Delivered')).toBeVisible();
  await shot(page, 'webhooks-10-event-detail');

  // Disable and enable again, then delete with a confirmation. The event page links the same
  // URL (its delivery row), so wait for the list before following the endpoint's link.
  await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
  await expect(page).toHaveURL(/\/merchant\/webhooks$/);
  await page.getByRole('link', { name: `${receiver.url}/hooks` }).click();
  await expect(page.getByRole('heading', { name: 'Webhook endpoint' })).toBeVisible();
  await page.getByRole('button', { name: 'Disable' }).click();
  await page.getByRole('button', { name: 'Disable endpoint' }).click();
  await expect(page.getByText('You disabled this endpoint on')).toBeVisible();
  await expect(page.getByTestId('webhook-banner')).toHaveCount(0);
  await page.getByRole('button', { name: 'Enable endpoint' }).click();
  await expect(page.getByText('You disabled this endpoint on')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Disable' })).toBeVisible();
  await page.getByRole('button', { name: 'Delete endpoint' }).click();
  await expect(page.getByText('Delete this endpoint and its history?')).toBeVisible();
  await page.getByRole('button', { name: 'Delete endpoint' }).click();
  await expect(page).toHaveURL(/\/merchant\/webhooks\?deleted=1$/);
  await expect(page.getByText('Endpoint deleted, with its delivery history.')).toBeVisible();
  await expect(page.getByText('No webhook endpoints yet')).toBeVisible();

  // A receiver that answers 410 Gone is disabled at once: the banner turns red, the row stands
  // out, and the seller gets an email.
  receiver.setResponder(() => ({ status: 410, body: 'gone' }));
  await page.getByLabel('Endpoint URL').fill(`${receiver.url}/gone`);
  await page.getByRole('checkbox', { name: /^All events/ }).check();
  await page.getByRole('button', { name: 'Create endpoint' }).click();
  await expect(page.getByTestId('signing-secret')).toBeVisible();
  const goneRow = page.getByRole('row').filter({ hasText: `${receiver.url}/gone` });
  await expect(goneRow.getByText('All events')).toBeVisible();
  await page.getByRole('link', { name: 'Products' }).first().click();
  await page.getByLabel('Name').fill('Webhook scarf');
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByRole('heading', { name: 'Webhook scarf' })).toBeVisible();
  await receiver.waitFor((requests) => requests.some((request) => request.path === '/gone'));
  await expect(async () => {
    await page.goto('/merchant/webhooks');
    // Layout (banner) and page (list) render in parallel: wait until both read the disabled state.
    await expect(page.getByTestId('webhook-banner')).toContainText('A webhook endpoint was disabled', { timeout: 1000 });
    await expect(goneRow.getByText('Disabled: 410 Gone')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByTestId('webhook-banner')).toContainText('it answered 410 Gone');
  await expect(goneRow.getByText('Disabled: 410 Gone')).toBeVisible();
  await shot(page, 'webhooks-12-endpoint-gone');
  await goneRow.getByRole('link', { name: `${receiver.url}/gone` }).click();
  await expect(page.getByText(/because the receiver answered 410 Gone/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Enable endpoint' })).toBeVisible();
  await shot(page, 'webhooks-13-endpoint-gone-detail');
  await page.goto(`/dev/mailbox?to=${encodeURIComponent(email)}`);
  await expect(page.getByRole('heading', { name: `Webhook endpoint disabled: ${receiver.url}/gone` })).toBeVisible();

  // Phone-sized screens.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/merchant/webhooks/events');
  await expect(page.getByRole('link', { name: 'product.created' })).toHaveCount(3);
  await shot(page, 'webhooks-11-event-log-phone');
});

test('a seller sends a test event of a chosen type from the endpoint page and finds it marked Test in the event log', async ({ page }) => {
  receiver.setResponder(() => ({ status: 200 }));
  const email = `hooks-test-${crypto.randomBytes(4).toString('hex')}@example.com`;
  await page.goto('/merchant/sign-up');
  await page.getByLabel('Business or your name').fill('Test Event Co');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Test Event Co' })).toBeVisible();

  await page.getByRole('navigation', { name: 'Seller console sections' }).getByRole('link', { name: 'Webhooks' }).click();
  await page.getByLabel('Endpoint URL').fill(`${receiver.url}/test-events`);
  await page.getByRole('checkbox', { name: 'product.created' }).check();
  await page.getByRole('button', { name: 'Create endpoint' }).click();
  const secret = (await page.getByTestId('signing-secret').textContent())!.trim();
  await page.getByRole('link', { name: `${receiver.url}/test-events` }).click();
  await expect(page.getByRole('heading', { name: 'Webhook endpoint' })).toBeVisible();

  // A type the endpoint does not subscribe to: a test event goes to this endpoint anyway.
  const form = page.getByRole('form', { name: 'Send test event' });
  await form.getByLabel('Event type').selectOption('refund.succeeded');
  await form.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByText('Test refund.succeeded event sent.')).toBeVisible();
  const [request] = await receiver.waitFor((requests) => requests.length >= 1);
  const event = verifyWebhook(request!.body, request!.headers['x-service-signature'] as string, secret);
  expect(event.type).toBe('refund.succeeded');
  expect((event.data as { test?: boolean }).test).toBe(true);
  expect(typeof (JSON.parse(request!.body) as { sequence: unknown }).sequence).toBe('number');
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('row').filter({ hasText: 'refund.succeeded' }).getByText('Delivered')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await shot(page, 'webhooks-14-test-event-sent');

  // The event log marks it Test, and the real/test filter finds it or leaves it out.
  await page.getByRole('link', { name: '← Webhooks' }).click();
  await page.getByRole('link', { name: 'Event log' }).click();
  const testRow = page.getByRole('row').filter({ hasText: 'refund.succeeded' });
  await expect(testRow.getByText('Test', { exact: true })).toBeVisible();
  await page.getByLabel('Real or test').selectOption('real');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByRole('link', { name: 'refund.succeeded' })).toHaveCount(0);
  await page.getByLabel('Real or test').selectOption('test');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/kind=test/);
  await expect(page.getByRole('link', { name: 'refund.succeeded' })).toHaveCount(1);
  await shot(page, 'webhooks-15-event-log-test-only');
});
