import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { demoApi, demoKey, inviteTeamMember, signInAsDemoSeller } from './console-helpers';
import { startReceiver, type Receiver } from '../tests/helpers/webhook-receiver';

// The console does what the API does (docs/console.md, "Every API write and its console page").

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver(() => ({ status: 200 }));
});
test.afterAll(async () => {
  await receiver.close();
});

test('a seller creates a customer, subscribes it, changes its price after the preview, pauses and resumes, and manages entitlements, usage and a test event from the console', async ({
  page,
  request,
}) => {
  const suffix = crypto.randomBytes(3).toString('hex');
  const product = await demoApi(request, '/api/Product', { name: `Parity plan ${suffix}` });
  await demoApi(request, '/api/Price', { productId: product.id, type: 'Recurring', amount: 1000, currency: 'USD', interval: 'month' });
  const pro = await demoApi(request, '/api/Price', { productId: product.id, type: 'Recurring', amount: 2500, currency: 'USD', interval: 'month' });

  await signInAsDemoSeller(page);
  await page.goto('/merchant/customers');
  const newCustomer = page.getByRole('form', { name: 'New customer' });
  await newCustomer.getByLabel('Name').fill('Katherine Johnson');
  await newCustomer.getByLabel('Email').fill(`parity-${suffix}@example.com`);
  await newCustomer.getByRole('button', { name: 'Create customer' }).click();
  await expect(page.getByText('Customer created.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Katherine Johnson' })).toBeVisible();
  const customerId = new URL(page.url()).pathname.split('/').pop()!;

  // The customer's card comes from a checkout or the seller's backend, never typed into the console.
  await demoApi(request, `/api/Customer/${customerId}/PaymentMethod`, { tokenRef: 'tok_visa' });
  await page.reload();
  const subscribe = page.getByRole('form', { name: 'New subscription' });
  await subscribe.getByLabel('Price').selectOption({ label: `Parity plan ${suffix}: $10.00 per month` });
  await expect(subscribe.getByLabel('Card')).toContainText('•••• 4242');
  await shot(page, 'parity-01-customer-new-subscription');
  await subscribe.getByRole('button', { name: 'Start subscription' }).click();
  await expect(subscribe.getByText(/^Subscription sub_\w+ started\.$/)).toBeVisible();
  await page.getByRole('link', { name: /^Open subscription sub_/ }).click();
  await expect(page.getByRole('heading', { name: /^Subscription sub_/ })).toBeVisible();

  // Change price: the charge is shown before the seller confirms it.
  const change = page.getByRole('form', { name: 'Change price' });
  await change.getByLabel('Change price (prorated now)').selectOption(pro.id);
  await change.getByRole('button', { name: 'Preview the charge' }).click();
  const preview = change.getByTestId('price-change-preview');
  await expect(preview).toContainText(/Due now: \$\d+\.\d{2}/);
  await expect(preview).toContainText('for the rest of the period at the new price');
  const dueNow = (await preview.locator('span').first().textContent())!.replace('Due now: ', '');
  await shot(page, 'parity-02-subscription-price-preview');
  await change.getByRole('button', { name: `Change price and charge ${dueNow}` }).click();
  await expect(change.getByText(/^ChangePrice applied/)).toBeVisible();
  await expect(page.getByText('$25.00 per month').first()).toBeVisible();

  await page.getByRole('button', { name: 'Pause collection' }).click();
  await expect(page.getByText(/^Pause applied/)).toBeVisible();
  await expect(page.getByText(/^Paused since/)).toBeVisible();
  await page.getByRole('button', { name: 'Resume collection' }).click();
  await expect(page.getByText(/^Resume applied/)).toBeVisible();
  await expect(page.getByText('Running', { exact: true })).toBeVisible();

  // An entitlement policy on the price, then the customer's override and credits.
  await page.goto(`/merchant/products/${product.id}`);
  const policy = page.getByRole('form', { name: 'Add entitlement policy' });
  await policy.getByLabel('Price', { exact: true }).selectOption(pro.id);
  await policy.getByLabel('Feature').fill('api_calls');
  await policy.getByLabel('Allowed').selectOption('Limited');
  await policy.getByLabel('Units per period').fill('1000');
  await policy.getByRole('button', { name: 'Add policy' }).click();
  await expect(policy.getByText('Policy for “api_calls” added to the price.')).toBeVisible();
  await expect(page.getByText('Limited: 1,000 units per period')).toBeVisible();

  await page.goto(`/merchant/customers/${customerId}`);
  const override = page.getByRole('form', { name: 'Set entitlement override' });
  await override.getByLabel('Feature').fill('api_calls');
  await override.getByLabel('Allowed').selectOption('Limited');
  await override.getByLabel('Units per period').fill('5000');
  await override.getByLabel('Spend per period (USD)').fill('15.00');
  await override.getByRole('button', { name: 'Set override' }).click();
  await expect(override.getByText('Override set: “api_calls” is Limited.')).toBeVisible();
  const grant = page.getByRole('form', { name: 'Grant credits' });
  await grant.getByLabel('Feature').fill('api_calls');
  await grant.getByLabel('Credits').fill('100');
  await grant.getByLabel('Reason').fill('Goodwill: outage in March');
  await grant.getByRole('button', { name: 'Grant credits' }).click();
  await expect(grant.getByText('Granted 100 “api_calls” credits.')).toBeVisible();
  await shot(page, 'parity-03-customer-entitlements');

  // A usage record the backend sent by mistake is reversed where usage is listed.
  const { usage } = await demoApi(request, '/api/Usage', { customerId, feature: 'api_calls', quantity: 7 });
  await page.goto(`/merchant/usage?customerId=${customerId}`);
  const row = page.getByRole('row').filter({ hasText: 'api_calls' });
  await row.getByRole('button', { name: 'Reverse' }).click();
  await row.getByRole('button', { name: 'Reverse usage' }).click();
  await expect(row.getByText('Reversed')).toBeVisible();
  await expect(row.getByRole('button', { name: 'Reverse' })).toHaveCount(0);
  const reversed = await request.get(`/api/Usage?customerId=${customerId}`, { headers: { authorization: `Bearer ${demoKey()}` } });
  expect((await reversed.json()).data.find((record: { id: string }) => record.id === usage.id).reversedAt).not.toBeNull();

  // Usage the backend missed, recorded from the same page.
  const record = page.getByRole('form', { name: 'Record usage' });
  await record.getByLabel('Customer id').fill(customerId);
  await record.getByLabel('Feature').fill('api_calls');
  await record.getByLabel('Quantity').fill('3');
  await record.getByRole('button', { name: 'Record usage' }).click();
  await expect(record.getByText(`Recorded: 3 api_calls for ${customerId}.`)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'api_calls' }).getByText('Counted')).toBeVisible();

  // A second card becomes the default; the first is removed.
  const second = await demoApi(request, `/api/Customer/${customerId}/PaymentMethod`, { tokenRef: 'tok_mastercard' });
  await page.goto(`/merchant/customers/${customerId}`);
  await page
    .getByRole('form', { name: `Make ${second.id} the default` })
    .getByRole('button', { name: 'Make default' })
    .click();
  await expect(page.getByRole('form', { name: `Make ${second.id} the default` })).toHaveCount(0);
  const firstCard = page.getByRole('form', { name: /^Remove pm_/ }).filter({ hasNot: page.locator(`input[value="${second.id}"]`) });
  await firstCard.getByRole('button', { name: 'Remove' }).click();
  await firstCard.getByRole('button', { name: 'Remove card' }).click();
  await expect(page.getByRole('form', { name: /^Remove pm_/ })).toHaveCount(1);

  // A test event from the endpoint's page, and its delivery in the endpoint's history.
  const endpoint = await demoApi(request, '/api/WebhookEndpoint', { url: `${receiver.url}/parity-${suffix}`, events: ['customer.created'] });
  await page.goto(`/merchant/webhooks/${endpoint.id}`);
  const testEvent = page.getByRole('form', { name: 'Send test event' });
  await testEvent.getByLabel('Event type').selectOption('subscription.created');
  await testEvent.getByRole('button', { name: 'Send test event' }).click();
  await expect(page.getByText('Test subscription.created event sent.')).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('row').filter({ hasText: 'subscription.created' }).getByText('Delivered')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 15_000 });
});

test('a Developer sees why the customer and subscription forms are not there', async ({ page, browser, baseURL, request }) => {
  const suffix = crypto.randomBytes(3).toString('hex');
  const product = await demoApi(request, '/api/Product', { name: `Role plan ${suffix}` });
  const price = await demoApi(request, '/api/Price', { productId: product.id, type: 'Recurring', amount: 1000, currency: 'USD', interval: 'month' });
  const customer = await demoApi(request, '/api/Customer', { email: `role-parity-${suffix}@example.com`, name: 'Mary Jackson' });
  await demoApi(request, `/api/Customer/${customer.id}/PaymentMethod`, { tokenRef: 'tok_visa' });
  const subscription = await demoApi(request, '/api/Subscription', { customerId: customer.id, priceId: price.id });

  await signInAsDemoSeller(page);
  const developer = await inviteTeamMember(page, browser, baseURL, `developer-${suffix}@example.com`, 'Developer', 'Dev Eloper');

  await developer.goto('/merchant/customers');
  await expect(developer.getByText('Your role (Developer) cannot change customers.')).toBeVisible();
  await expect(developer.getByRole('button', { name: 'Create customer' })).toHaveCount(0);

  await developer.goto(`/merchant/customers/${customer.id}`);
  await expect(developer.getByText('Your role (Developer) cannot change subscriptions.')).toHaveCount(3);
  await expect(developer.getByRole('button', { name: 'Start subscription' })).toHaveCount(0);
  await expect(developer.getByRole('button', { name: 'Grant credits' })).toHaveCount(0);
  await shot(developer, 'parity-04-customer-developer');

  await developer.goto(`/merchant/subscriptions/${subscription.id}`);
  await expect(developer.getByText('Your role (Developer) cannot change subscriptions.')).toBeVisible();
  await expect(developer.getByRole('button', { name: 'Pause collection' })).toHaveCount(0);
  await expect(developer.getByRole('button', { name: 'Add item' })).toHaveCount(0);

  await developer.goto(`/merchant/products/${product.id}`);
  await expect(developer.getByRole('button', { name: 'Add policy' })).toHaveCount(0);
  await developer.context().close();
});

test('a seller makes a test clock, attaches a customer and advances the clock from the console', async ({ page, request }) => {
  const suffix = crypto.randomBytes(3).toString('hex');
  const customer = await demoApi(request, '/api/Customer', { email: `clock-${suffix}@example.com` });
  await signInAsDemoSeller(page);
  await page.goto('/merchant/subscriptions');
  await page.getByRole('link', { name: 'Test clocks' }).click();
  const create = page.getByRole('form', { name: 'New test clock' });
  await create.getByLabel('Name (optional)').fill(`Clock ${suffix}`);
  await create.getByLabel('Starts at (UTC, optional)').fill('2030-01-01T00:00');
  await create.getByRole('button', { name: 'Create test clock' }).click();
  await expect(create.getByText(`Test clock Clock ${suffix} created.`)).toBeVisible();
  // Clocks are listed newest first.
  const attach = page.getByRole('form', { name: /^Attach a customer to / }).first();
  await attach.getByLabel('Customer id').fill(customer.id);
  await attach.getByRole('button', { name: 'Attach customer' }).click();
  await expect(attach.getByText(`Customer ${customer.id} now lives on this clock’s time.`)).toBeVisible();
  const advance = page.getByRole('form', { name: /^Advance / }).first();
  await advance.getByLabel('Advance to (UTC)').fill('2030-02-01T00:00');
  await advance.getByRole('button', { name: 'Advance' }).click();
  await expect(advance.getByText(/^Advanced to 2030-02-01 00:00 UTC; \d+ due actions? ran\.$/)).toBeVisible();
  await expect(page.getByRole('link', { name: customer.id })).toBeVisible();
  await shot(page, 'parity-05-test-clocks');
});
