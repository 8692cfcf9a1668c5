import crypto from 'node:crypto';
import { expect, test } from './fixtures';
import { demoApi, demoKey, signInAsDemoSeller } from './console-helpers';

test('edit forms check the role on every submit: Support edits customers, not products', async ({ page, browser, baseURL, request }) => {
  const suffix = crypto.randomBytes(3).toString('hex');
  const product = await demoApi(request, '/api/Product', { name: `Role mug ${suffix}` });
  const customer = await demoApi(request, '/api/Customer', { email: `role-${suffix}@example.com`, name: 'Dorothy Vaughan' });
  const supportEmail = `support-${suffix}@example.com`;

  await signInAsDemoSeller(page);
  await page.goto('/merchant/team');
  const inviteForm = page.getByRole('form', { name: 'Invite a team member' });
  await inviteForm.getByLabel('Email').fill(supportEmail);
  await inviteForm.getByLabel('Role').selectOption('Support');
  await inviteForm.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${supportEmail} as Support.`)).toBeVisible();

  const context = await browser.newContext({ baseURL });
  const support = await context.newPage();
  await support.goto('/dev/mailbox');
  await support.getByLabel('Recipient').fill(supportEmail);
  await support.getByRole('button', { name: 'Filter' }).click();
  // The mail's links carry PUBLIC_URL (localhost); stay on the test's host so the cookies go along.
  const href = (await support
    .getByRole('article', { name: /invited you to/ })
    .first()
    .getByRole('link', { name: /\/merchant\/accept-invite\?token=/ })
    .getAttribute('href'))!;
  await support.goto(`${new URL(href).pathname}${new URL(href).search}`);
  await support.getByLabel('Your name').fill('Sam Support');
  await support.getByLabel('Password').fill('support-password-123');
  await support.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(support.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

  // The product form is on the page (every role that views it sees it) but Support may not save it.
  await support.goto(`/merchant/products/${product.id}`);
  const productForm = support.getByRole('form', { name: 'Edit product' });
  await productForm.getByLabel('Name').fill('Renamed by support');
  await productForm.getByRole('button', { name: 'Save product' }).click();
  await expect(productForm.getByText('Your role (Support) cannot change products, prices, payment links or promotion codes.', { exact: false })).toBeVisible();
  const unchanged = await request.get(`/api/Product/${product.id}`, { headers: { authorization: `Bearer ${demoKey()}` } });
  expect((await unchanged.json()).name).toBe(`Role mug ${suffix}`);

  // Customers are Support's to change.
  await support.goto(`/merchant/customers/${customer.id}`);
  const customerForm = support.getByRole('form', { name: 'Edit customer' });
  await customerForm.getByLabel('Name').fill('Dorothy J. Vaughan');
  await customerForm.getByRole('button', { name: 'Save customer' }).click();
  await expect(customerForm.getByText('Customer saved.')).toBeVisible();
  await context.close();
});
