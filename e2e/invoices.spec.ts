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
