import crypto from 'node:crypto';
import { expect, test } from './fixtures';
import { demoApi, demoKey, inviteTeamMember, signInAsDemoSeller } from './console-helpers';

test('edit forms check the role on every submit: Support edits customers, not products', async ({ page, browser, baseURL, request }) => {
  const suffix = crypto.randomBytes(3).toString('hex');
  const product = await demoApi(request, '/api/Product', { name: `Role mug ${suffix}` });
  const customer = await demoApi(request, '/api/Customer', { email: `role-${suffix}@example.com`, name: 'Dorothy Vaughan' });
  const supportEmail = `support-${suffix}@example.com`;

  await signInAsDemoSeller(page);
  const support = await inviteTeamMember(page, browser, baseURL, supportEmail, 'Support', 'Sam Support');

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
  await support.context().close();
});
