import crypto from 'node:crypto';
import { expect, test } from './fixtures';
import { demoApi, inviteTeamMember, signInAsDemoSeller } from './console-helpers';

test('a role sees why it cannot change what it may view, and edits what it may: Support edits customers, not products', async ({
  page,
  browser,
  baseURL,
  request,
}) => {
  const suffix = crypto.randomBytes(3).toString('hex');
  const product = await demoApi(request, '/api/Product', { name: `Role mug ${suffix}` });
  const customer = await demoApi(request, '/api/Customer', { email: `role-${suffix}@example.com`, name: 'Dorothy Vaughan' });
  const supportEmail = `support-${suffix}@example.com`;

  await signInAsDemoSeller(page);
  const support = await inviteTeamMember(page, browser, baseURL, supportEmail, 'Support', 'Sam Support');

  // Support may view the catalog but not change it: the page says so where the forms would be,
  // and offers no control it would be refused on (the server actions check the role anyway).
  const refusal = 'Your role (Support) cannot change products, prices, payment links or promotion codes.';
  await support.goto(`/merchant/products/${product.id}`);
  await expect(support.getByRole('heading', { name: `Role mug ${suffix}` })).toBeVisible();
  await expect(support.getByRole('form', { name: 'Edit product' })).toHaveCount(0);
  await expect(support.getByRole('form', { name: 'New price' })).toHaveCount(0);
  await expect(support.getByRole('button', { name: 'Deactivate' })).toHaveCount(0);
  await expect(support.getByText(refusal, { exact: false }).first()).toBeVisible();
  for (const path of ['/merchant/products', '/merchant/payment-links', '/merchant/promotion-codes']) {
    await support.goto(path);
    await expect(support.getByText(refusal, { exact: false }).first(), path).toBeVisible();
    await expect(support.getByRole('button', { name: /^Create/ }), path).toHaveCount(0);
  }

  // Customers are Support's to change.
  await support.goto(`/merchant/customers/${customer.id}`);
  const customerForm = support.getByRole('form', { name: 'Edit customer' });
  await customerForm.getByLabel('Name').fill('Dorothy J. Vaughan');
  await customerForm.getByRole('button', { name: 'Save customer' }).click();
  await expect(customerForm.getByText('Customer saved.')).toBeVisible();
  await support.context().close();
});
