import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { demoApi, expectNoSeriousA11yViolations, signInAsDemoSeller } from './console-helpers';

for (const [device, width, height] of [
  ['desktop', 1440, 900],
  ['phone', 390, 844],
] as const) {
  test(`a seller edits a product, a payment link, a webhook endpoint and a customer from their pages (${device})`, async ({ page, request }) => {
    await page.setViewportSize({ width, height });
    const suffix = `${device}-${crypto.randomBytes(3).toString('hex')}`;
    const product = await demoApi(request, '/api/Product', { name: `Mug ${suffix}`, description: 'Enamel' });
    const price = await demoApi(request, '/api/Price', { productId: product.id, type: 'OneTime', amount: 1200, currency: 'USD' });
    const link = await demoApi(request, '/api/PaymentLink', { priceId: price.id });
    const endpoint = await demoApi(request, '/api/WebhookEndpoint', { url: 'http://127.0.0.1:9/hooks', events: ['payment.succeeded'] });
    const customer = await demoApi(request, '/api/Customer', { email: `edit-${suffix}@example.com`, name: 'Mary Jackson' });
    await signInAsDemoSeller(page);

    // Product: name, description, active.
    await page.goto(`/merchant/products/${product.id}`);
    const productForm = page.getByRole('form', { name: 'Edit product' });
    await productForm.getByLabel('Name').fill(`Big mug ${suffix}`);
    await productForm.getByLabel('Description').fill('Enamel, 500 ml');
    await productForm.getByRole('button', { name: 'Save product' }).click();
    await expect(productForm.getByText(`Product “Big mug ${suffix}” saved.`)).toBeVisible();
    await expect(page.getByRole('heading', { name: `Big mug ${suffix}`, level: 1 })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, `edit-product-${device}`);

    // Payment link: from the list to its page; a wrong quantity is named next to its field.
    await page.goto('/merchant/payment-links');
    await page.getByRole('link', { name: link.name, exact: true }).first().click();
    await expect(page).toHaveURL(new RegExp(`/merchant/payment-links/${link.id}$`));
    const linkForm = page.getByRole('form', { name: 'Edit payment link' });
    await linkForm.getByLabel('Quantity', { exact: true }).fill('two');
    await linkForm.getByRole('button', { name: 'Save payment link' }).click();
    await expect(linkForm.getByLabel('Quantity', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(linkForm.getByText('Quantity must be a whole number.')).toBeVisible();
    await linkForm.getByLabel('Quantity', { exact: true }).fill('2');
    await linkForm.getByLabel('Name').fill(`Two mugs ${suffix}`);
    await linkForm.getByLabel('Maximum payments').fill('5');
    await linkForm.getByRole('button', { name: 'Save payment link' }).click();
    await expect(linkForm.getByText(`Payment link “Two mugs ${suffix}” saved.`)).toBeVisible();
    await expect(page.getByRole('region', { name: 'Details' }).getByText(/24\.00 \(2 × \D*12\.00\)/)).toBeVisible();
    await expect(page.getByText('0 of 5')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, `edit-payment-link-${device}`);

    // Webhook endpoint: URL checked as at registration; events and description saved.
    await page.goto(`/merchant/webhooks/${endpoint.id}`);
    const endpointForm = page.getByRole('form', { name: 'Edit webhook endpoint' });
    await endpointForm.getByLabel('Endpoint URL').fill('ftp://127.0.0.1/hooks');
    await endpointForm.getByRole('button', { name: 'Save endpoint' }).click();
    await expect(endpointForm.getByLabel('Endpoint URL')).toHaveAttribute('aria-invalid', 'true');
    await endpointForm.getByLabel('Endpoint URL').fill('http://127.0.0.1:9/paybase');
    await endpointForm.getByLabel('Description').fill(`Order sync ${suffix}`);
    await endpointForm.getByLabel('refund.succeeded').check();
    await endpointForm.getByRole('button', { name: 'Save endpoint' }).click();
    await expect(endpointForm.getByText('Endpoint saved.')).toBeVisible();
    const details = page.getByRole('region', { name: 'Details' });
    await expect(details.getByText(`Order sync ${suffix}`)).toBeVisible();
    await expect(details.getByText('refund.succeeded')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, `edit-webhook-endpoint-${device}`);

    // Customer: metadata lines are checked; then saved with name and status; custom values set.
    await page.goto(`/merchant/customers/${customer.id}`);
    const customerForm = page.getByRole('form', { name: 'Edit customer' });
    await customerForm.getByLabel('Metadata').fill('just words');
    await customerForm.getByRole('button', { name: 'Save customer' }).click();
    await expect(customerForm.getByText('Line 1: write key=value.')).toBeVisible();
    await customerForm.getByLabel('Name').fill('Mary W. Jackson');
    await customerForm.getByLabel('Metadata').fill('plan=gold\nregion=eu');
    await customerForm.getByRole('button', { name: 'Save customer' }).click();
    await expect(customerForm.getByText('Customer saved.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Mary W. Jackson', level: 1 })).toBeVisible();
    await expect(page.getByText('metadata.plan')).toBeVisible();
    const valueForm = page.getByRole('form', { name: 'Set a custom value' });
    await valueForm.getByLabel('Key').fill('tier');
    await valueForm.getByLabel('Value').fill('gold');
    await valueForm.getByRole('button', { name: 'Set value' }).click();
    await expect(valueForm.getByText('Custom value “tier” added.')).toBeVisible();
    await valueForm.getByLabel('Key').fill('tier');
    await valueForm.getByLabel('Value').fill('platinum');
    await valueForm.getByRole('button', { name: 'Set value' }).click();
    await expect(valueForm.getByText('Custom value “tier” changed.')).toBeVisible();
    await expect(page.getByRole('table', { name: 'Custom values' }).getByRole('cell', { name: 'platinum' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, `edit-customer-${device}`);
  });
}
