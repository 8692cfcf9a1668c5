import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { expectNoSeriousA11yViolations, expectNoSidewaysScroll, postJson } from './console-helpers';

async function mailboxLink(baseURL: string, to: string, includes: string) {
  const mailbox = (await (await fetch(`${baseURL}/dev/mailbox?format=json&to=${encodeURIComponent(to)}`)).json()) as { data: { links: string[] }[] };
  return mailbox.data.flatMap((mail) => mail.links).find((href) => href.includes(includes))!;
}

test('the hosted invoice, its PDF, and the invoice lists of the portal and the wallet', async ({ page, baseURL }) => {
  const suffix = crypto.randomBytes(4).toString('hex');
  const customerEmail = `invoice-buyer-${suffix}@example.com`;
  const json = postJson(baseURL);
  const seller = await json('/api/MerchantAuth/Register', {
    email: `invoice-seller-${suffix}@example.com`,
    password: 'a long seller password',
    name: 'Invoice Shop',
    accountType: 'Business',
  });
  const session = { Authorization: `Bearer ${seller.accessToken}` };
  const settings = await fetch(`${baseURL}/api/MerchantSettings`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', ...session },
    body: JSON.stringify({
      supportEmail: 'help@invoice.example',
      address: { line1: '12 Harbour Road', city: 'Portsmouth', postalCode: 'PO1 2AB', country: 'GB' },
    }),
  });
  expect(settings.status).toBe(200);
  const key = await json(
    '/api/MerchantApiKey',
    { name: 'backend', scopes: ['products:write', 'prices:write', 'payment_links:write', 'payments:read'] },
    session,
  );
  const api = { Authorization: `Bearer ${key.secret}` };
  const product = await json('/api/Product', { name: 'Leather notebook' }, api);
  const price = await json('/api/Price', { productId: product.id, type: 'OneTime', amount: 2250, currency: 'GBP' }, api);
  const checkout = await json(
    '/api/Checkout',
    { priceId: price.id, quantity: 2, customerEmail, customerName: 'Grace Hopper', tokenRef: 'tok_visa' },
    { ...api, 'Idempotency-Key': crypto.randomUUID() },
  );
  const records = (await (await fetch(`${baseURL}/api/BillingRecord?customerId=${checkout.customerId}`, { headers: api })).json()) as {
    data: { hostedInvoiceUrl: string; invoicePdfUrl: string; id: string }[];
  };
  const record = records.data[0]!;
  const invoicePath = new URL(record.hostedInvoiceUrl).pathname;

  // The hosted page: a receipt with the seller's address and the amounts in pounds.
  await page.goto(invoicePath);
  await expect(page.getByRole('heading', { name: 'Receipt' })).toBeVisible();
  await expect(page.getByTestId('invoice-seller')).toHaveText('Invoice Shop');
  await expect(page.getByText('12 Harbour Road')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Leather notebook' })).toBeVisible();
  await expect(page.getByTestId('invoice-totals')).toContainText('Total£45.00');
  await expect(page.getByTestId('invoice-totals')).toContainText('Amount due£0.00');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'invoice-hosted-page');
  const pdfHref = await page.getByRole('link', { name: 'Download PDF' }).getAttribute('href');
  expect(pdfHref).toBe(new URL(record.invoicePdfUrl).pathname);
  const pdf = await page.request.get(pdfHref!);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  // The phone width keeps the page readable without sideways scrolling.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expectNoSidewaysScroll(page);
  await shot(page, 'invoice-hosted-page-phone');
  await page.setViewportSize({ width: 1280, height: 900 });

  // The portal's billing history links the invoice and its PDF.
  await page.goto(`/portal/${checkout.customerId}`);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByText('a sign-in link is on its way')).toBeVisible();
  await page.goto(await mailboxLink(baseURL, customerEmail, '/verify?token='));
  await page.getByLabel('Your email').fill(customerEmail);
  await page.getByRole('button', { name: 'Continue' }).click();
  const history = page.getByRole('table', { name: 'Billing history' });
  await expect(history.getByRole('link', { name: 'View' })).toHaveAttribute('href', invoicePath);
  await expect(history.getByRole('link', { name: 'PDF' })).toHaveAttribute('href', pdfHref!);
  await shot(page, 'invoice-portal-history');

  // The wallet of the same email lists it too, with the seller.
  await page.goto('/member/sign-in');
  await page.getByLabel('Email').fill(customerEmail);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByText(/sign-in link/i).first()).toBeVisible();
  await page.goto(await mailboxLink(baseURL, customerEmail, '/member/verify?token='));
  // The form is a server action: pressed before the page has hydrated, the press is lost.
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: 'Sign in to my wallet' }).click();
  await expect(page).toHaveURL(/\/member$/);
  const invoices = page.getByRole('region', { name: 'Invoices' });
  await expect(invoices.getByText('Invoice Shop')).toBeVisible();
  await expect(invoices.getByText('£45.00')).toBeVisible();
  await expect(invoices.getByRole('link', { name: 'View' })).toHaveAttribute('href', invoicePath);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'invoice-wallet-list');
});

test('an invoice with tax lines and its credit note, as the customer reads them', async ({ page, baseURL }) => {
  const suffix = crypto.randomBytes(4).toString('hex');
  const json = postJson(baseURL);
  const seller = await json('/api/MerchantAuth/Register', {
    email: `tax-seller-${suffix}@example.com`,
    password: 'a long seller password',
    name: 'Harbour Tools',
    accountType: 'Business',
  });
  const session = { Authorization: `Bearer ${seller.accessToken}` };
  const settings = await fetch(`${baseURL}/api/MerchantSettings`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json', ...session },
    body: JSON.stringify({
      invoicePrefix: 'HT',
      legalName: 'Harbour Tools Ltd',
      taxId: 'GB123456789',
      invoiceFooter: 'Registered in England and Wales, no. 01234567.',
      supportEmail: 'help@harbour.example',
      address: { line1: '12 Harbour Road', city: 'Portsmouth', postalCode: 'PO1 2AB', country: 'GB' },
    }),
  });
  expect(settings.status).toBe(200);
  const key = await json(
    '/api/MerchantApiKey',
    { name: 'backend', scopes: ['products:write', 'prices:write', 'customers:write', 'payment_links:write', 'payments:read', 'refunds:write'] },
    session,
  );
  const api = { Authorization: `Bearer ${key.secret}` };
  const vat = await json('/api/TaxRate', { displayName: 'VAT', percentage: '20', inclusive: false, country: 'GB' }, api);
  const product = await json('/api/Product', { name: 'Brass compass' }, api);
  const price = await json('/api/Price', { productId: product.id, type: 'OneTime', amount: 4000, currency: 'GBP', taxRateIds: [vat.id] }, api);
  const customer = await json(
    '/api/Customer',
    {
      email: `tax-buyer-${suffix}@example.com`,
      name: 'Grace Hopper',
      address: { line1: '3 Dock Street', city: 'Southampton', postalCode: 'SO14 2AA', country: 'GB' },
      taxId: 'GB987654321',
    },
    api,
  );
  const checkout = await json(
    '/api/Checkout',
    { priceId: price.id, customerId: customer.id, tokenRef: 'tok_visa' },
    { ...api, 'Idempotency-Key': crypto.randomUUID() },
  );
  const record = await (await fetch(`${baseURL}/api/BillingRecord/${checkout.billingRecordId}`, { headers: api })).json();
  expect(record).toMatchObject({ number: 'HT-0001', total: 4800, taxAmount: 800 });
  await json(`/api/Payment/${checkout.payment.id}/Refund`, { amount: 1200 }, { ...api, 'Idempotency-Key': crypto.randomUUID() });
  const notes = await (await fetch(`${baseURL}/api/CreditNote?billingRecordId=${record.id}`, { headers: api })).json();
  const note = notes.data[0] as { number: string; hostedUrl: string };

  // The invoice: its number, both parties' details, the VAT line, the state in words and its credit note.
  await page.goto(new URL(record.hostedInvoiceUrl).pathname);
  await expect(page.getByRole('heading', { name: 'Receipt' })).toBeVisible();
  await expect(page.getByTestId('invoice-status')).toHaveText('paid · partly refunded');
  await expect(page.getByText('Tax ID: GB123456789')).toBeVisible();
  await expect(page.getByTestId('invoice-buyer')).toContainText('3 Dock Street');
  await expect(page.getByTestId('invoice-buyer')).toContainText('Tax ID: GB987654321');
  await expect(page.getByTestId('invoice-totals')).toContainText('VAT 20% on £40.00£8.00');
  await expect(page.getByTestId('invoice-totals')).toContainText('Total£48.00');
  await expect(page.getByTestId('invoice-footer')).toHaveText('Registered in England and Wales, no. 01234567.');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'invoice-with-tax');

  // Its credit note, reached from the invoice.
  await page.getByTestId('invoice-credit-notes').getByRole('link', { name: note.number }).click();
  await expect(page).toHaveURL(new URL(note.hostedUrl).pathname);
  await expect(page.getByRole('heading', { name: 'Credit note' })).toBeVisible();
  await expect(page.getByTestId('document-reference')).toHaveText('Credit note for invoice HT-0001');
  await expect(page.getByRole('cell', { name: 'Partial refund of invoice HT-0001' })).toBeVisible();
  await expect(page.getByTestId('invoice-totals')).toContainText('VAT 20% on £10.00 (included)£2.00');
  await expect(page.getByTestId('invoice-totals')).toContainText('Total credited£12.00');
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'credit-note');
  const pdf = await page.request.get(`${new URL(note.hostedUrl).pathname}/pdf`);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
});
