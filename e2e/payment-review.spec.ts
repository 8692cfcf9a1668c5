import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { expectNoSeriousA11yViolations, expectNoSidewaysScroll, postJson } from './console-helpers';

const PASSWORD = 'a long seller password';

// Recovery's two tries, then six axe runs and five full-page screenshots.
test.setTimeout(180_000);

test('the operator sees a payment recovery gave up on, checks it, settles it as charged, and the list is empty', async ({ page, baseURL }) => {
  const suffix = crypto.randomBytes(4).toString('hex');
  const json = postJson(baseURL);
  const seller = await json('/api/MerchantAuth/Register', {
    email: `review-${suffix}@example.com`,
    password: PASSWORD,
    name: `Lantern Works ${suffix}`,
    accountType: 'Business',
  });
  const key = await json(
    '/api/MerchantApiKey',
    { name: 'backend', scopes: ['products:write', 'prices:write', 'payment_links:write', 'payments:read'] },
    { Authorization: `Bearer ${seller.accessToken}` },
  );
  const auth = { Authorization: `Bearer ${key.secret}` };
  const product = await json('/api/Product', { name: 'Brass lantern' }, auth);
  const price = await json('/api/Price', { productId: product.id, type: 'OneTime', amount: 15000, currency: 'EUR' }, auth);
  const customerEmail = `lamplighter-${suffix}@example.com`;
  // The processor never tells whether this card's charge went through (4000 0000 0000 0119).
  const paying = await json(
    '/api/Checkout',
    { priceId: price.id, customerEmail, tokenRef: 'tok_processing_error' },
    { ...auth, 'Idempotency-Key': crypto.randomUUID() },
  );
  const paymentId = paying.payment.id as string;
  const paymentStatus = async () => {
    const answer = await fetch(`${baseURL}/api/Payment/${paymentId}`, { headers: auth });
    return ((await answer.json()) as { status: string }).status;
  };
  // The e2e server gives up after two tries (e2e/global-setup.ts).
  await expect.poll(paymentStatus, { timeout: 60_000, intervals: [500] }).toBe('needs_review');

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/admin/sign-in');
  await page.getByLabel('Name').fill('admin');
  await page.getByLabel('Password').fill('admin-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Sellers' })).toBeVisible();

  // The overview points at it.
  await page.getByRole('link', { name: 'Overview' }).click();
  await page.getByRole('region', { name: 'Reconciliation backlog' }).getByRole('link', { name: '1 payment needs review' }).click();
  await expect(page.getByRole('heading', { name: 'Payments to review' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Payments to review' })).toHaveAttribute('aria-current', 'page');

  const card = page.getByRole('article', { name: `€150.00 to Lantern Works ${suffix}` });
  await expect(card).toBeVisible();
  for (const text of [
    seller.merchant.id,
    paymentId,
    customerEmail,
    'unknown: the processor never told whether it charged',
    'the processor still cannot tell whether it charged',
  ]) {
    await expect(card).toContainText(text);
  }
  await expect(card.locator('dt:has-text("Recovery attempts") + dd')).toHaveText('2');
  await expect(card).toContainText("Look the charge up in the processor's dashboard by its idempotency key");
  await expect(card.locator('code')).not.toBeEmpty();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'payment-review-01-list');

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'payment-review-02-list-phone');
  await page.setViewportSize({ width: 1440, height: 900 });

  // Each decision asks first; cancelling changes nothing.
  await card.getByRole('button', { name: 'Not charged (failed)' }).click();
  await expect(card.getByText('Settle as not charged? €150.00 counts as failed; this cannot be undone.')).toBeVisible();
  await card.getByRole('button', { name: 'Cancel' }).click();
  await card.getByRole('button', { name: 'Charged (succeeded)' }).click();
  await expect(card.getByText('Settle as charged? €150.00 counts as paid; this cannot be undone.')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'payment-review-03-confirm');
  await card.getByRole('button', { name: 'Settle as charged' }).click();

  await expect(page.getByRole('status').filter({ hasText: `Payment ${paymentId} settled as charged (succeeded).` })).toBeVisible();
  await expect(page.getByText('No payments need review')).toBeVisible();
  await expect(card).toHaveCount(0);
  await expectNoSeriousA11yViolations(page);
  await shot(page, 'payment-review-04-settled');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  expect(await paymentStatus()).toBe('succeeded');

  // The audit log names the admin and the decision.
  await page.getByRole('status').getByRole('link', { name: 'audit log' }).click();
  const entry = page.getByTestId('audit-payment.review_settled');
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText('Payment settled after review');
  await expect(entry).toContainText('admin');
  await expect(entry).toContainText('Platform admin');
  await expect(entry).toContainText(paymentId);
  await expect(entry).toContainText('outcome: succeeded');
});
