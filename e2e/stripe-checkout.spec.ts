import crypto from 'node:crypto';
import type { Page, Request } from '@playwright/test';
import { shot } from './fixtures';
import { expectNoSeriousA11yViolations } from './console-helpers';
import { expect, signInToPortal, stripeModeApi, test, typeCard, type StripeMode } from './stripe-fixtures';

/**
 * The hosted checkout and portal in Stripe mode (docs/processors.md, "PCI scope"): the card is
 * typed into Stripe.js's card element (the emulator's stand-in, a frame of its origin), which
 * makes the PaymentMethod at "Stripe"; Paybase receives only its `pm_…` id. 3-D Secure is
 * Stripe's page (the emulator's), after which the result page asks Stripe how it ended.
 */

/** Everything the browser sent to Paybase itself (never to Stripe's origin), to check no card number is in it. */
function sentToPaybase(page: Page, paybaseOrigin: string): string[] {
  const sent: string[] = [];
  page.on('request', (request: Request) => {
    if (request.url().startsWith(paybaseOrigin)) sent.push(`${request.url()} ${request.postData() ?? ''}`);
  });
  return sent;
}

/** Console messages about the Content-Security-Policy: a page in Stripe mode must break none of its rules. */
function policyViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}

async function paymentLink(request: Parameters<typeof stripeModeApi>[0], stripeMode: StripeMode, name: string, unitAmount: number) {
  return stripeModeApi<{ token: string }>(request, stripeMode, '/api/PaymentLink', { name, unitAmount, currency: 'EUR' });
}

async function openCheckout(page: Page, token: string, email: string) {
  await page.goto(`/pay/${token}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Name').fill('Ana Ruiz');
}

const buyer = (what: string) => `stripe-${what}-${crypto.randomBytes(4).toString('hex')}@example.com`;

test('pays a hosted checkout with 4242 4242 4242 4242 in Stripe.js: the card number goes to Stripe only', async ({ page, request, stripeMode, baseURL }) => {
  const sent = sentToPaybase(page, baseURL);
  const violations = policyViolations(page);
  // The worker's emulator serves other spec files too: this test's requests are those from here on.
  const requestsBefore = stripeMode.emulator.requests.length;
  const link = await paymentLink(request, stripeMode, 'Concert ticket', 4900);
  await openCheckout(page, link.token, buyer('visa'));
  await expect(page.getByText('Stripe test mode: no real money moves.')).toBeVisible();
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  await typeCard(page, '4242 4242 4242 4242');
  await expect(page.getByRole('button', { name: 'Pay €49.00' })).toBeEnabled();
  await shot(page, 'stripe-1-checkout-card-element');
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Pay €49.00' }).click();
  await page.waitForURL(new RegExp(`/pay/${link.token}/success\\?checkoutId=cs_`));
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(page.getByText('Paid with Visa •••• 4242')).toBeVisible();
  await shot(page, 'stripe-2-paid');

  // Stripe got the card from the browser, with the publishable key; Paybase got the PaymentMethod's id only.
  const made = stripeMode.emulator.requests.slice(requestsBefore).filter((r) => r.method === 'POST' && r.path === '/v1/payment_methods');
  expect(made).toHaveLength(1);
  const method = [...stripeMode.emulator.store.paymentMethods.values()].find((pm) => (pm.billing_details as { name: string }).name === 'Ana Ruiz')!;
  expect(sent.some((line) => line.includes(method.id))).toBe(true);
  expect(sent.filter((line) => /4242\D?4242\D?4242\D?4242/.test(line))).toEqual([]);
  const intent = [...stripeMode.emulator.store.paymentIntents.values()].find((pi) => pi.payment_method === method.id)!;
  expect(intent).toMatchObject({ status: 'succeeded', amount: 4900, currency: 'eur' });
  expect(violations).toEqual([]);
});

test('a declined card shows the reason, and a retry with another card pays', async ({ page, request, stripeMode }) => {
  const link = await paymentLink(request, stripeMode, 'Museum pass', 1500);
  await openCheckout(page, link.token, buyer('declined'));
  await typeCard(page, '4000 0000 0000 0002');
  await page.getByRole('button', { name: 'Pay €15.00' }).click();
  await expect(page.getByTestId('decline')).toHaveText('Payment declined. Your card was declined. Check your details or use another card, then try again.');
  await shot(page, 'stripe-3-declined');

  // What Stripe.js itself refuses is said under the card, before anything is posted.
  await typeCard(page, '4242 4242 4242 4241');
  await expect(page.getByText('Your card number is invalid.')).toBeVisible();
  await typeCard(page, '4242 4242 4242 4242');
  await page.getByRole('button', { name: 'Pay €15.00' }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
});

test.describe('in French', () => {
  test.use({ locale: 'fr-FR' });

  test("an insufficient-funds decline is worded in the customer's language", async ({ page, request, stripeMode }) => {
    const link = await paymentLink(request, stripeMode, 'Carte cadeau', 2000);
    await page.goto(`/pay/${link.token}`);
    await page.getByLabel('E-mail').fill(buyer('funds'));
    await typeCard(page, '4000 0000 0000 9995');
    await page.getByRole('button', { name: /Payer/ }).click();
    await expect(page.getByTestId('decline')).toContainText('Le solde de votre carte est insuffisant.');
    await shot(page, 'stripe-4-declined-fr');
  });
});

test('3-D Secure: the customer completes it on Stripe’s page and lands on the paid page', async ({ page, request, stripeMode }) => {
  const link = await paymentLink(request, stripeMode, 'Festival weekend', 12000);
  await openCheckout(page, link.token, buyer('3ds'));
  await typeCard(page, '4000 0025 0000 3155');
  await page.getByRole('button', { name: 'Pay €120.00' }).click();

  await page.waitForURL(new RegExp(`^${stripeMode.emulator.baseUrl}/emulator/authenticate/pi_`));
  await expect(page.getByRole('heading', { name: '3D Secure test payment' })).toBeVisible();
  await shot(page, 'stripe-5-3ds-challenge');
  await page.getByRole('button', { name: 'Complete authentication' }).click();

  await page.waitForURL(new RegExp(`/pay/${link.token}/success\\?checkoutId=cs_`));
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(page.getByText('Paid with Visa •••• 3155')).toBeVisible();
  await shot(page, 'stripe-6-3ds-paid');
  const checkoutId = new URL(page.url()).searchParams.get('checkoutId')!;
  const checkout = await request.get(`/api/Checkout/${checkoutId}`, { headers: { authorization: `Bearer ${stripeMode.demoKey}` } });
  expect(await checkout.json()).toMatchObject({ paid: true, payment: { status: 'succeeded', nextAction: null, processor: { name: 'stripe' } } });
});

test('3-D Secure failed: the result page says so and offers to try again', async ({ page, request, stripeMode }) => {
  const link = await paymentLink(request, stripeMode, 'Boat trip', 3000);
  await openCheckout(page, link.token, buyer('3ds-fail'));
  await typeCard(page, '4000 0027 6000 3184');
  await page.getByRole('button', { name: 'Pay €30.00' }).click();
  await page.waitForURL(new RegExp(`^${stripeMode.emulator.baseUrl}/emulator/authenticate/pi_`));
  await page.getByRole('button', { name: 'Fail authentication' }).click();

  await page.waitForURL(new RegExp(`/pay/${link.token}/success\\?checkoutId=cs_`));
  await expect(page.getByRole('heading', { name: 'Payment failed' })).toBeVisible();
  await expect(page.getByTestId('failure-reason')).toHaveText("Your card's authentication was not completed. Try again, or use another card.");
  // Nothing was paid: no "Paid with" card, no "Paid by" email.
  await expect(page.getByText(/^Paid (with|by) /)).toHaveCount(0);
  await shot(page, 'stripe-7-3ds-failed');
  await page.getByRole('link', { name: 'Try again' }).click();
  await expect(page.getByRole('button', { name: 'Pay €30.00' })).toBeVisible();
});

test('the portal saves a card typed into Stripe.js (a declining one is refused), and the wallet pays with it', async ({
  page,
  request,
  stripeMode,
  baseURL,
}) => {
  const email = buyer('portal');
  const customer = await stripeModeApi<{ id: string }>(request, stripeMode, '/api/Customer', { email, name: 'Grace' });

  await signInToPortal(page, baseURL, customer.id, email);

  const form = page.getByRole('form', { name: 'Add a card' });
  await typeCard(form, '4000 0000 0000 0002');
  await form.getByRole('button', { name: 'Add card' }).click();
  await expect(page.getByText('Card ending in 0002 not saved: Your card was declined. Your default card is unchanged.')).toBeVisible();
  await shot(page, 'stripe-8-portal-declined');

  await typeCard(form, '4242 4242 4242 4242', '10 / 33');
  await form.getByRole('button', { name: 'Add card' }).click();
  await expect(page.getByText('Card ending in 4242 added and set as default.')).toBeVisible();
  await expect(page.getByText('10/2033')).toBeVisible();
  await shot(page, 'stripe-9-portal-card-saved');

  // The wallet: signed in with the same email, the buyer pays this seller with the card saved in the portal.
  const link = await paymentLink(request, stripeMode, 'Wallet purchase', 2200);
  await page.goto(`/member/pay/${link.token}`);
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByText('a sign-in link is on its way')).toBeVisible();
  const walletMail = (await (await fetch(`${baseURL}/dev/mailbox?format=json&to=${encodeURIComponent(email)}`)).json()) as { data: { links: string[] }[] };
  await page.goto(walletMail.data.flatMap((mail) => mail.links).find((href) => href.includes('/member/verify?token='))!);
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: 'Sign in to my wallet' }).click();
  await expect(page).toHaveURL(new RegExp(`/member/pay/${link.token}$`));
  await expect(page.getByText('Visa •••• 4242')).toBeVisible();
  await shot(page, 'stripe-10-wallet');
  await page.getByRole('button', { name: 'Pay €22.00' }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(page.getByText('Paid with Visa •••• 4242')).toBeVisible();
});
