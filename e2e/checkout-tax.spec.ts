import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { expectNoSeriousA11yViolations, expectNoSidewaysScroll, postJson } from './console-helpers';

/** A fresh seller who asks for billing addresses, charges 10 % sales tax in the US and has 20 % VAT (inclusive) in the UK. */
async function taxedSeller(baseURL: string) {
  const post = postJson(baseURL);
  const email = `tax-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const seller = await post('/api/MerchantAuth/Register', { email, password: 'a long seller password', name: 'Lamp Works', accountType: 'Business' });
  const key = await post(
    '/api/MerchantApiKey',
    { name: 'backend', scopes: ['prices:write', 'payment_links:write'] },
    { Authorization: `Bearer ${seller.accessToken}` },
  );
  const auth = { Authorization: `Bearer ${key.secret}` };
  const salesTax = await post('/api/TaxRate', { displayName: 'Sales tax', percentage: '10', inclusive: false, country: 'US' }, auth);
  const vat = await post('/api/TaxRate', { displayName: 'VAT', percentage: '20', inclusive: true, country: 'GB' }, auth);
  const settings = await fetch(`${baseURL}/api/MerchantSettings`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${seller.accessToken}` },
    body: JSON.stringify({ collectBillingAddress: true, defaultTaxRateIds: [salesTax.id, vat.id] }),
  });
  expect(settings.status).toBe(200);
  return (await post('/api/PaymentLink', { name: 'Desk lamp', unitAmount: 1000, currency: 'USD' }, auth)) as { token: string };
}

test('the checkout asks for the billing address, shows the tax of the chosen country and charges that total', async ({ page, baseURL }) => {
  const link = await taxedSeller(baseURL!);
  await page.goto(`/pay/${link.token}`);
  await expect(page.getByRole('button', { name: 'Pay $10.00' })).toBeVisible();
  await page.getByLabel('Email').fill(`buyer-${crypto.randomBytes(4).toString('hex')}@example.com`);
  await page.getByLabel('Name', { exact: true }).fill('Ada Lovelace');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByLabel('Address', { exact: true }).fill('5 Elm St');
  await page.getByLabel('Postal code').fill('94107');
  await page.getByLabel('City').fill('San Francisco');

  await page.getByLabel('Country', { exact: true }).selectOption('GB');
  await expect(page.getByTestId('tax-lines')).toContainText('VAT 20% (included)');
  await expect(page.getByTestId('tax-lines')).toContainText('$1.67');
  await expect(page.getByRole('button', { name: 'Pay $10.00' })).toBeVisible();

  await page.getByLabel('Country', { exact: true }).selectOption('US');
  await expect(page.getByTestId('tax-lines')).toContainText('Sales tax 10%');
  await expect(page.getByTestId('quoted-total')).toHaveText('$11.00');
  // The order summary shows the same total as the form (issue 34: it kept the list total).
  await expect(page.getByTestId('list-total')).toHaveText('$11.00');
  await page.getByLabel('VAT or tax ID (optional)').fill('US-EIN-12-3456789');
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'checkout-tax-1-us');

  await page.getByRole('button', { name: 'Pay $11.00' }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(page.getByTestId('paid-total')).toHaveText('$11.00');
});

test('a German page names the tax in German', async ({ browser, baseURL }) => {
  const link = await taxedSeller(baseURL!);
  const context = await browser.newContext({ locale: 'de' });
  const page = await context.newPage();
  await page.goto(`/pay/${link.token}`);
  await page.getByLabel('Land', { exact: true }).selectOption('GB');
  await expect(page.getByTestId('tax-lines')).toContainText('VAT 20% (enthalten)');
  await expect(page.getByTestId('quoted-total')).toHaveText('10,00 $');
  await shot(page, 'checkout-tax-2-de');
  await context.close();
});

test('a seller creates tax rates, makes one the default and archives another in the console', async ({ page, baseURL }) => {
  const post = postJson(baseURL!);
  const email = `tax-console-${crypto.randomBytes(4).toString('hex')}@example.com`;
  await post('/api/MerchantAuth/Register', { email, password: 'a long seller password', name: 'Tea Shop', accountType: 'Business' });
  await page.goto('/merchant/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a long seller password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('link', { name: 'Tax rates' }).click();
  await expect(page.getByRole('heading', { name: 'Tax rates', level: 1 })).toBeVisible();

  const form = page.getByRole('form', { name: 'New tax rate' });
  for (const [name, percent, kind, country] of [
    ['VAT', '20', 'true', 'GB'],
    ['Sales tax', '8.875', 'false', 'US'],
  ] as const) {
    await form.getByLabel('Name on invoices').fill(name);
    await form.getByLabel('Percent').fill(percent);
    await form.getByLabel('Included in prices?').selectOption(kind);
    await form.getByLabel('Country').fill(country);
    await form.getByRole('button', { name: 'Create tax rate' }).click();
    await expect(page.getByText(`Tax rate “${name} ${percent}%” created.`)).toBeVisible();
  }
  const defaults = page.getByRole('form', { name: 'Default tax rates' });
  await defaults.getByLabel(/VAT 20%/).check();
  await defaults.getByRole('button', { name: 'Save defaults' }).click();
  await expect(page.getByText('Default tax rates saved.')).toBeVisible();
  const salesTaxRow = page.getByRole('row', { name: /Sales tax 8.875%/ });
  await salesTaxRow.getByRole('button', { name: 'Deactivate' }).click();
  await salesTaxRow.getByRole('button', { name: 'Deactivate', exact: true }).click();
  await expect(salesTaxRow.getByText('Inactive')).toBeVisible();
  await expect(page.getByRole('row', { name: /VAT 20%/ }).getByText('Default')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'tax-rates-console');
});
