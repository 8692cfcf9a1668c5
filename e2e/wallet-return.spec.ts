import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { demoApi, expectNoSeriousA11yViolations } from './console-helpers';

for (const [device, width, height] of [
  ['desktop', 1440, 900],
  ['phone', 390, 844],
] as const) {
  test(`wallet sign-in started at a hosted checkout returns to it; the wallet lists subscriptions (${device})`, async ({ page, request }) => {
    await page.setViewportSize({ width, height });
    const email = `wallet-return-${device}-${crypto.randomBytes(3).toString('hex')}@example.com`;
    // The buyer already subscribes to a Demo Store plan under this email.
    const plan = await demoApi(request, '/api/Product', { name: `Cloud Notes ${device}` });
    const monthly = await demoApi(request, '/api/Price', { productId: plan.id, type: 'Recurring', amount: 900, currency: 'USD', interval: 'month' });
    await demoApi(request, '/api/Checkout', { priceId: monthly.id, customerEmail: email, tokenRef: 'tok_visa' });
    const link = await demoApi(request, '/api/PaymentLink', { name: `Gift card ${device}`, unitAmount: 2500, currency: 'USD' });

    await page.goto(`/pay/${link.token}`);
    await page.getByRole('link', { name: 'Pay with your Paybase wallet' }).click();
    await expect(page).toHaveURL(new RegExp(`/member/sign-in\\?next=${encodeURIComponent(`/member/pay/${link.token}`)}$`));
    await expect(page.getByText('it brings you back to your checkout')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    // The mailbox link is on the page from the start: leaving before the action answers can lose the request.
    await expect(page.getByText('a sign-in link is on its way')).toBeVisible();
    await page.getByRole('link', { name: 'dev mailbox' }).click();
    await page.getByLabel('Recipient').fill(email);
    await page.getByRole('button', { name: 'Filter' }).click();
    await page
      .getByRole('article', { name: 'Your Paybase wallet sign-in link' })
      .getByRole('link', { name: /\/member\/verify\?token=/ })
      .click();
    await expect(page).toHaveURL(/\/member\/verify\?token=[^&]+&next=/);
    // The form is a server action: pressed before the page has hydrated, the press is lost.
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Sign in to my wallet' }).click();

    // Back at the checkout, signed in.
    await expect(page).toHaveURL(new RegExp(`/member/pay/${link.token}$`));
    await expect(page.getByText(`Signed in to your wallet as ${email}`)).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, `wallet-return-checkout-${device}`);

    // The wallet's Subscriptions card shows the plan, with the seller.
    await page.goto(new URL('/member', page.url()).toString());
    const subscriptions = page.getByRole('region', { name: 'Subscriptions' });
    await expect(subscriptions.getByText(`Cloud Notes ${device}`)).toBeVisible();
    await expect(subscriptions.getByText('Demo Store')).toBeVisible();
    await expect(subscriptions.getByText('Active')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, `wallet-subscriptions-${device}`);

    // A sign-in page asked to return anywhere else ignores it.
    await page.goto(new URL('/member/sign-in?next=//evil.example/member/pay/x', page.url()).toString());
    await expect(page.locator('input[name="next"]')).toHaveCount(0);
  });
}
