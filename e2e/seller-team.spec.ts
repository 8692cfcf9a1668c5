import crypto from 'node:crypto';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { expect, shot, test } from './fixtures';
import { appCode, previousStepCode } from './authenticator';

const PASSWORD = 'a long seller password';
const NEW_PASSWORD = 'another long passphrase';
const suffix = () => crypto.randomBytes(4).toString('hex');

/** Opens the newest mail of `subject` to `email` in /dev/mailbox and follows its link. */
async function followMailLink(page: Page, email: string, subject: string | RegExp, link: RegExp) {
  await page.goto('/dev/mailbox');
  await page.getByLabel('Recipient').fill(email);
  await page.getByRole('button', { name: 'Filter' }).click();
  const mail = page.getByRole('article', { name: subject }).first();
  await expect(mail).toBeVisible();
  // The mail's links carry PUBLIC_URL (localhost); stay on the test's host so the session cookies go along.
  const href = (await mail.getByRole('link', { name: link }).getAttribute('href'))!;
  const url = new URL(href);
  await page.goto(`${url.pathname}${url.search}`);
}

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/merchant/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A paid payment of the account, made through the developer API with a key the Owner creates. */
async function paidPayment(request: APIRequestContext, context: BrowserContext) {
  const accessToken = (await context.cookies()).find((cookie) => cookie.name === 'pb_merchant_at')!.value;
  const key = await (
    await request.post('/api/MerchantApiKey', {
      headers: { authorization: `Bearer ${accessToken}` },
      data: { name: 'e2e', scopes: ['products:write', 'prices:write', 'payment_links:write', 'payments:write'] },
    })
  ).json();
  const headers = { authorization: `Bearer ${key.secret}` };
  const product = await (await request.post('/api/Product', { headers, data: { name: 'Gift card' } })).json();
  const price = await (await request.post('/api/Price', { headers, data: { productId: product.id, type: 'OneTime', amount: 5000, currency: 'USD' } })).json();
  const checkout = await request.post('/api/Checkout', {
    headers: { ...headers, 'idempotency-key': suffix() },
    data: { priceId: price.id, customerEmail: `buyer-${suffix()}@example.com`, tokenRef: 'tok_visa' },
  });
  expect(checkout.status()).toBe(201);
  return ((await checkout.json()) as { payment: { id: string } }).payment.id;
}

/** The invited person opens the mail in their own browser and joins with a name and password. */
async function acceptInvitation(browser: Browser, baseURL: string, email: string, name: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await followMailLink(page, email, /invited you to/, /\/merchant\/accept-invite\?token=/);
  await expect(page.getByRole('heading', { name: 'Join the team' })).toBeVisible();
  await page.getByLabel('Your name').fill(name);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Accept invitation' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Team Shop' })).toBeVisible();
  return { context, page };
}

test('a seller signs up, verifies, invites a developer and a support person whose roles are enforced, turns on two-factor, and resets a forgotten password', async ({
  page,
  browser,
  baseURL,
  context,
  request,
}) => {
  const owner = `owner-${suffix()}@example.com`;
  const developer = `dev-${suffix()}@example.com`;
  const support = `support-${suffix()}@example.com`;

  await page.goto('/merchant/sign-up');
  await page.getByLabel('Business or your name').fill('Team Shop');
  await page.getByLabel('Email').fill(owner);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Welcome, Team Shop' })).toBeVisible();
  const banner = page.getByTestId('verify-email-banner');
  await expect(banner).toContainText(owner);
  await shot(page, 'team-01-unverified-banner');

  // Inviting waits for a verified email.
  await page.getByRole('link', { name: 'Team', exact: true }).click();
  await expect(page.getByText('Confirm your email address first')).toBeVisible();
  await banner.getByRole('button', { name: 'Resend the link' }).click();
  await expect(page.getByText('A new verification link is on its way')).toBeVisible();

  await followMailLink(page, owner, 'Confirm your email address for Paybase', /\/merchant\/verify-email\?token=/);
  await expect(page.getByRole('heading', { name: 'Confirm your email address' })).toBeVisible();
  await page.getByRole('button', { name: 'Confirm my email' }).click();
  await expect(page.getByText(`Thank you: ${owner} is confirmed.`)).toBeVisible();
  await shot(page, 'team-01b-email-confirmed');
  await page.getByRole('link', { name: 'Go to the console' }).click();
  await expect(page.getByTestId('verify-email-banner')).toHaveCount(0);

  // Invite a developer and a support person.
  await page.getByRole('link', { name: 'Team', exact: true }).click();
  const inviteForm = page.getByRole('form', { name: 'Invite a team member' });
  for (const [email, role] of [
    [developer, 'Developer'],
    [support, 'Support'],
  ] as const) {
    await inviteForm.getByLabel('Email').fill(email);
    await inviteForm.getByLabel('Role').selectOption(role);
    await inviteForm.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText(`Invitation sent to ${email} as ${role}.`)).toBeVisible();
  }
  await expect(page.getByTestId(`invitation-row-${developer}`)).toBeVisible();
  await shot(page, 'team-02-invitations');

  const paymentId = await paidPayment(request, context);

  // The developer: API keys yes, refunds no, team read-only.
  const dev = await acceptInvitation(browser, baseURL, developer, 'Dee Developer');
  await expect(dev.page.getByRole('link', { name: 'API keys', exact: true })).toBeVisible();
  await dev.page.goto(`/merchant/payments/${paymentId}`);
  await expect(dev.page.getByText('Your role cannot refund payments.')).toBeVisible();
  await shot(dev.page, 'team-03-developer-no-refund');
  await dev.page.goto('/merchant/team');
  await expect(dev.page.getByRole('form', { name: 'Invite a team member' })).toHaveCount(0);

  // Support: no API keys (not in the navigation, and the page itself refuses), refunds only up to the limit.
  const sup = await acceptInvitation(browser, baseURL, support, 'Sam Support');
  await expect(sup.page.getByRole('link', { name: 'API keys', exact: true })).toHaveCount(0);
  await sup.page.goto('/merchant/developers/api-keys');
  await expect(sup.page.getByText('Your role cannot open that page.')).toBeVisible();
  await shot(sup.page, 'team-04-support-forbidden');
  await sup.page.goto(`/merchant/payments/${paymentId}`);
  const refund = sup.page.getByRole('form', { name: 'Refund' });
  await refund.getByLabel('Amount (USD)').fill('20.00');
  await refund.getByRole('button', { name: 'Review refund' }).click();
  await refund.getByRole('button', { name: 'Refund $20.00' }).click();
  await expect(sup.page.getByText('Support members cannot refund until an Owner or Admin sets a refund limit under Team.')).toBeVisible();

  await page.reload();
  const limitForm = page.getByRole('form', { name: 'Support refund limit' });
  await limitForm.getByLabel('Amount').fill('25.00');
  await limitForm.getByLabel('Currency').fill('USD');
  await limitForm.getByRole('button', { name: 'Save limit' }).click();
  await expect(page.getByTestId('support-refund-limit')).toHaveText('$25.00');

  await sup.page.reload();
  await refund.getByLabel('Amount (USD)').fill('30.00');
  await refund.getByRole('button', { name: 'Review refund' }).click();
  await refund.getByRole('button', { name: 'Refund $30.00' }).click();
  await expect(sup.page.getByText('Support members can refund at most $25.00 at once.', { exact: false })).toBeVisible();
  await refund.getByRole('button', { name: 'Change amount' }).click();
  await refund.getByLabel('Amount (USD)').fill('20.00');
  await refund.getByRole('button', { name: 'Review refund' }).click();
  await refund.getByRole('button', { name: 'Refund $20.00' }).click();
  await expect(sup.page.getByText('Refunded $20.00.')).toBeVisible();
  await shot(sup.page, 'team-05-support-refund');

  // Settings: business details for receipts, and the console's time zone.
  await page.getByRole('link', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('form', { name: 'Account settings' });
  await settings.getByLabel('Support email').fill('help@teamshop.example');
  await settings.getByLabel('Support URL').fill('https://teamshop.example/help');
  await settings.getByLabel('Address line 1').fill('1-1 Marunouchi');
  await settings.getByLabel('City').fill('Tokyo');
  await settings.getByLabel('Country', { exact: true }).fill('JP');
  await settings.getByLabel('Time zone').selectOption('Asia/Tokyo');
  await expect(settings.getByLabel('Email receipts')).toBeChecked();
  await settings.getByLabel('Email receipts').uncheck();
  // Each lifecycle email is a setting of its own, on until turned off.
  await expect(settings.getByLabel('Card expiring')).toBeChecked();
  await settings.getByLabel('Card expiring').uncheck();
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Settings saved.')).toBeVisible();
  await expect(settings.getByLabel('Time zone')).toHaveValue('Asia/Tokyo');
  await expect(settings.getByLabel('Email receipts')).not.toBeChecked();
  await expect(settings.getByLabel('Card expiring')).not.toBeChecked();
  await expect(settings.getByLabel('Refund issued')).toBeChecked();
  await expect(settings.getByLabel('City')).toHaveValue('Tokyo');
  await shot(page, 'team-05b-settings');
  await page.goto(`/merchant/payments/${paymentId}`);
  await expect(page.getByText(/GMT\+9/).first()).toBeVisible();
  await page.goto('/merchant/team');

  // Removing the developer ends its sign-in at once.
  await page.reload();
  await expect(page.getByTestId(`member-row-${developer}`)).toBeVisible();
  await shot(page, 'team-06-members');
  const devRow = page.getByTestId(`member-row-${developer}`);
  await devRow.getByRole('button', { name: 'Remove' }).click();
  await devRow.getByRole('button', { name: 'Remove member' }).click();
  await expect(page.getByTestId(`member-row-${developer}`)).toHaveCount(0);
  await dev.page.goto('/merchant');
  await expect(dev.page).toHaveURL(/\/merchant\/sign-in$/);
  await dev.context.close();

  // The Owner turns on two-factor (scanning = reading the key), then requires it for the team.
  await page.getByRole('link', { name: 'Security', exact: true }).click();
  await page.getByRole('button', { name: 'Set up two-factor' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!;
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' }).locator('svg')).toBeVisible();
  await shot(page, 'team-09-two-factor-setup');
  const confirm = page.getByRole('form', { name: 'Confirm two-factor' });
  await confirm.getByLabel('Code from your app').fill('123456' === appCode(secret, -1) ? '654321' : '123456');
  await confirm.getByRole('button', { name: 'Turn on two-factor' }).click();
  await expect(confirm.getByText('The code is not correct.')).toBeVisible();
  await confirm.getByLabel('Code from your app').fill(await previousStepCode(secret));
  await confirm.getByRole('button', { name: 'Turn on two-factor' }).click();
  await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await shot(page, 'team-10-recovery-codes');
  await page.getByRole('button', { name: 'I saved them' }).click();
  await expect(page.getByTestId('recovery-codes')).toHaveCount(0);
  await page.getByRole('button', { name: 'Require two-factor for everyone' }).click();
  await expect(page.getByText('Everyone on the team now signs in with two-factor.')).toBeVisible();
  await shot(page, 'team-11-security');

  // Support has no second factor yet: every page now leads to Security until it is set up.
  await sup.page.goto('/merchant/payments');
  await expect(sup.page).toHaveURL(/\/merchant\/security$/);
  await expect(sup.page.getByText('Your account requires two-factor sign-in.')).toBeVisible();
  await shot(sup.page, 'team-12-support-must-set-up');
  await sup.context.close();

  // A forgotten password, reset by email; the old sign-in ends.
  const fresh = await browser.newContext({ baseURL });
  const resetPage = await fresh.newPage();
  await resetPage.goto('/merchant/sign-in');
  await resetPage.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(resetPage.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await resetPage.getByLabel('Email').fill(owner);
  await resetPage.getByRole('button', { name: 'Email me a reset link' }).click();
  await expect(resetPage.getByText(`If ${owner} belongs to a seller account, a reset link is on its way.`, { exact: false })).toBeVisible();
  await shot(resetPage, 'team-07-forgot-password');
  await followMailLink(resetPage, owner, 'Reset your Paybase password', /\/merchant\/reset-password\?token=/);
  await resetPage.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await shot(resetPage, 'team-08-reset-password');
  await resetPage.getByRole('button', { name: 'Set new password' }).click();
  await expect(resetPage.getByText('Your password was changed and every other sign-in was ended.')).toBeVisible();
  await signIn(resetPage, owner, NEW_PASSWORD);
  await expect(resetPage.getByRole('heading', { name: 'Enter your sign-in code' })).toBeVisible();
  await resetPage.getByLabel('Code').fill(appCode(secret, 0));
  await shot(resetPage, 'team-13-two-factor-sign-in');
  await resetPage.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(resetPage.getByRole('heading', { name: 'Welcome, Team Shop' })).toBeVisible();
  await fresh.close();

  await page.goto('/merchant/team');
  await expect(page).toHaveURL(/\/merchant\/sign-in$/);
});
