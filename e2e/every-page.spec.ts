import crypto from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, shot, test } from './fixtures';
import { LOCALES } from '../lib/i18n/locales';
import { SCOPES } from '../lib/http/scopes';
import { startReceiver } from '../tests/helpers/webhook-receiver';

// Every console, portal, wallet and hosted page, filled with real data made through the API:
// none may be wider than a 390 px phone, none breaks its Content-Security-Policy, and axe finds
// no violation of any impact (minor included) at 390 px or at 1440 px (the customer-facing pages
// also in each of their languages). Tables on the widest pages keep every column inside their box at 1440 px.

const PASSWORD = 'a long seller password';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

test.setTimeout(900_000);

test('no page is wider than a phone, and axe finds no violation of any impact', async ({ page, browser, baseURL }) => {
  const suffix = crypto.randomBytes(4).toString('hex');
  const email = `pages-${suffix}@example.com`;
  const customerEmail = `pages-customer-${suffix}@example.com`;
  const memberEmail = `pages-member-${suffix}@example.com`;
  const receiver = await startReceiver(() => ({ status: 200, body: 'ok' }));

  const api = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${baseURL}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as any) : undefined, requestId: response.headers.get('x-request-id') };
  };
  const ok = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const answer = await api(method, path, body, headers);
    expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
    return answer.body;
  };

  // The seller's account and data, made the way a backend makes them.
  const seller = await ok('POST', '/api/MerchantAuth/Register', {
    email,
    password: PASSWORD,
    name: 'Long Named Outdoor Equipment Company',
    accountType: 'Business',
  });
  const key = await ok('POST', '/api/MerchantApiKey', { name: 'backend', scopes: SCOPES }, { Authorization: `Bearer ${seller.accessToken}` });
  const auth = { Authorization: `Bearer ${key.secret}` };
  const once = () => ({ ...auth, 'Idempotency-Key': crypto.randomUUID() });
  const product = await ok('POST', '/api/Product', { name: 'Expedition tent, four season, with vestibule', description: 'Sleeps three' }, auth);
  const oneTime = await ok('POST', '/api/Price', { productId: product.id, type: 'OneTime', amount: 45900, currency: 'USD' }, auth);
  const monthly = await ok(
    'POST',
    '/api/Price',
    { productId: product.id, type: 'Recurring', amount: 1999, currency: 'USD', interval: 'month', trialDays: 7 },
    auth,
  );
  const monthlyPlus = await ok('POST', '/api/Price', { productId: product.id, type: 'Recurring', amount: 2999, currency: 'USD', interval: 'month' }, auth);
  const coupon = await ok('POST', '/api/Coupon', { name: 'Spring', percentOff: 10 }, auth);
  await ok('POST', '/api/PromotionCode', { couponId: coupon.id, code: `SPRING${suffix}`.toUpperCase() }, auth);
  const link = await ok('POST', '/api/PaymentLink', { priceId: oneTime.id, name: 'Tent with a very long payment link name for testing' }, auth);
  const subscriptionLink = await ok('POST', '/api/PaymentLink', { priceId: monthly.id, name: 'Monthly tent rental' }, auth);
  const design = await ok(
    'POST',
    '/api/CheckoutDesign',
    {
      displayName: 'Outdoor Co. with a rather long display name',
      brandColor: '#7c2d12',
      accentColor: '#9a3412',
      cornerStyle: 'pill',
      buttonLabel: 'Book',
      supportEmail: 'help@outdoor.example',
      termsUrl: 'https://outdoor.example/terms',
      privacyUrl: 'https://outdoor.example/privacy',
      // The seller's default: the portal, invoices and every link wear its pill corners too.
      isDefault: true,
    },
    auth,
  );
  const designedLink = await ok('POST', '/api/PaymentLink', { priceId: oneTime.id, designId: design.id }, auth);
  const paid = await ok('POST', '/api/Checkout', { priceId: oneTime.id, customerEmail, customerName: 'Grace Hopper', tokenRef: 'tok_visa' }, once());
  await ok('POST', `/api/Payment/${paid.payment.id}/Refund`, { amount: 1000, reason: 'Scuffed box' }, once());
  const linkPaid = await ok(
    'POST',
    `/api/PaymentLink/${link.id}/Complete`,
    { customerEmail: memberEmail, customerName: 'Member Buyer', tokenRef: 'tok_visa' },
    once(),
  );
  const subscribed = await ok('POST', '/api/Checkout', { priceId: monthly.id, customerEmail, customerName: 'Grace Hopper', tokenRef: 'tok_visa' }, once());
  const customerId = subscribed.customerId as string;
  const endpoint = await ok('POST', '/api/WebhookEndpoint', { url: `${receiver.url}/hooks`, events: ['*'] }, auth);
  await ok('POST', '/api/Product', { name: 'Event source' }, auth);
  const failed = await api('POST', '/api/Price', { productId: 'prod_missing', type: 'OneTime', amount: 1, currency: 'USD' }, auth);
  expect(failed.status).toBe(404);
  const eventId = (await ok('GET', '/api/WebhookEvent?pageSize=1', undefined, auth)).data[0].id as string;
  const latestDelivery = async () => (await ok('GET', '/api/WebhookDelivery?pageSize=1', undefined, auth)).data[0]?.id as string | undefined;
  await expect.poll(latestDelivery).toMatch(/^wda_/);
  const deliveryId = (await latestDelivery())!;

  // The hosted invoice of the first checkout (a secret address, no sign-in).
  const [invoice] = (await ok('GET', `/api/BillingRecord?customerId=${paid.customerId}&orderDirection=asc`, undefined, auth)).data;
  // Its credit note (the refund above issued one), at its own secret address.
  const [creditNote] = (await ok('GET', `/api/CreditNote?billingRecordId=${invoice.id}`, undefined, auth)).data;

  // Sign-in pages, before anyone signs in.
  const pages: string[] = [
    '/',
    '/docs/api',
    '/merchant/sign-in',
    '/merchant/sign-up',
    '/merchant/forgot-password',
    '/admin/sign-in',
    '/member/sign-in',
    `/pay/${link.token}`,
    `/pay/${subscriptionLink.token}`,
    `/pay/${designedLink.token}`,
    `/pay/${link.token}/success?checkoutId=${linkPaid.id}`,
    `/portal/${customerId}`,
    new URL(invoice.hostedInvoiceUrl).pathname,
    new URL(creditNote.hostedUrl).pathname,
    '/dev/mailbox',
    '/no-such-page',
  ];
  const failures: string[] = [];
  // No page breaks its Content-Security-Policy (lib/http/security-headers.ts): Chromium reports each refusal on the console.
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) failures.push(`${page.url()}: ${message.text()}`);
  });
  const audit = async (on: Page, where: string) => {
    const axe = await new AxeBuilder({ page: on }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
    for (const violation of axe.violations) {
      failures.push(`${where}: ${violation.impact} ${violation.id} (${violation.help}) on ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }
  };
  const check = async (path: string, name: string) => {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      if (size === PHONE) {
        const widths = await page.evaluate(() => ({ document: document.documentElement.scrollWidth, viewport: window.innerWidth }));
        if (widths.document > widths.viewport) failures.push(`${path}: ${widths.document} px wide at ${widths.viewport} px`);
        await shot(page, `pages-${name}-390`);
      }
      await audit(page, `${path} at ${size.width} px`);
    }
  };
  const visitAll = async (paths: string[]) => {
    for (const path of paths)
      await check(
        path,
        path
          .replace(/[^a-z0-9]+/gi, '-')
          .replace(/^-|-$/g, '')
          .slice(0, 60) || 'home',
      );
  };
  await visitAll(pages);

  // The customer-facing pages in each of their languages (the browser's language chooses it), at phone width.
  const customerPages = [
    `/pay/${link.token}`,
    `/pay/${subscriptionLink.token}`,
    `/pay/${link.token}/success?checkoutId=${linkPaid.id}`,
    `/portal/${customerId}`,
    new URL(invoice.hostedInvoiceUrl).pathname,
    new URL(creditNote.hostedUrl).pathname,
    '/member/sign-in',
  ];
  for (const locale of LOCALES.filter((code) => code !== 'en')) {
    const context = await browser.newContext({ baseURL, locale, viewport: PHONE });
    const localized = await context.newPage();
    for (const path of customerPages) {
      await localized.goto(path);
      await localized.waitForLoadState('networkidle');
      const lang = await localized.getAttribute('html', 'lang');
      if (lang !== locale) failures.push(`${path} in ${locale}: <html lang="${lang}">`);
      await audit(localized, `${path} in ${locale} at 390 px`);
    }
    await context.close();
  }

  // The seller console, signed in.
  await page.setViewportSize(DESKTOP);
  await page.goto('/merchant/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: /Welcome/ })).toBeVisible();
  await visitAll([
    '/merchant',
    '/merchant/payments',
    `/merchant/payments/${paid.payment.id}`,
    '/merchant/payment-links',
    '/merchant/products',
    `/merchant/products/${product.id}`,
    '/merchant/customers',
    `/merchant/customers/${customerId}`,
    '/merchant/subscriptions',
    '/merchant/test-clocks',
    `/merchant/subscriptions/${subscribed.subscriptionId}`,
    '/merchant/promotion-codes',
    '/merchant/developers',
    '/merchant/developers/api-keys',
    '/merchant/developers/logs',
    `/merchant/developers/logs/${failed.requestId}`,
    '/merchant/webhooks',
    `/merchant/webhooks/${endpoint.id}`,
    '/merchant/webhooks/events',
    `/merchant/webhooks/events/${eventId}`,
    `/merchant/webhooks/deliveries/${deliveryId}`,
    `/merchant/search?q=${encodeURIComponent(customerEmail)}`,
    '/merchant/security',
    '/merchant/settings',
    '/merchant/settings/audit-log',
    '/merchant/settings/branding',
    `/merchant/settings/branding/${design.id}`,
    '/merchant/team',
  ]);

  // At 1440 px the widest tables keep every column inside their box (or scroll inside it).
  await page.setViewportSize(DESKTOP);
  for (const path of [`/merchant/products/${product.id}`, `/merchant/webhooks/${endpoint.id}`, `/merchant/subscriptions/${subscribed.subscriptionId}`]) {
    await page.goto(path);
    const cut = await page.evaluate(() =>
      [...document.querySelectorAll('table')].flatMap((table) => {
        const box = table.closest('[role="group"]') ?? table.parentElement!;
        const hidden = getComputedStyle(box).overflowX === 'hidden' || getComputedStyle(box).overflowX === 'clip';
        return hidden && table.scrollWidth > box.clientWidth ? [table.querySelector('caption')?.textContent ?? 'table'] : [];
      }),
    );
    if (cut.length) failures.push(`${path} at 1440 px: columns cut off in ${cut.join(', ')}`);
    await shot(page, `pages-1440-${path.split('/')[2]}`);
  }

  // The customer portal, signed in through the emailed link.
  await page.goto(`/portal/${customerId}`);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByText('a sign-in link is on its way')).toBeVisible();
  await page.goto('/dev/mailbox');
  await page.getByLabel('Recipient').fill(customerEmail);
  await page.getByRole('button', { name: 'Filter' }).click();
  const portalLink = await page
    .getByRole('link', { name: /\/portal\/cus_.*\/verify\?token=/ })
    .first()
    .getAttribute('href');
  await visitAll([new URL(portalLink!, baseURL).pathname + new URL(portalLink!, baseURL).search]);
  await page.getByLabel('Your email').fill(customerEmail);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Your subscription' })).toBeVisible();
  await visitAll([`/portal/${customerId}`, `/portal/${customerId}?subscription=${subscribed.subscriptionId}&priceId=${monthlyPlus.id}`]);

  // The wallet, signed in through its emailed link, and its hosted checkout.
  await page.goto('/member/sign-in');
  await page.getByLabel('Email').fill(memberEmail);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.goto('/dev/mailbox');
  await page.getByLabel('Recipient').fill(memberEmail);
  await page.getByRole('button', { name: 'Filter' }).click();
  const walletLink = await page
    .getByRole('link', { name: /\/member\/verify\?token=/ })
    .first()
    .getAttribute('href');
  const walletUrl = new URL(walletLink!, baseURL);
  await visitAll([walletUrl.pathname + walletUrl.search]);
  await page.getByRole('button', { name: 'Sign in to my wallet' }).click();
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible();
  await visitAll(['/member', `/member/pay/${link.token}`, `/member/pay/${designedLink.token}`]);
  // The wallet's checkout wears the link's design, as the hosted checkout does.
  if (!(await page.getByTestId('design-name').allTextContents()).includes(design.displayName))
    failures.push(`${page.url()}: the wallet checkout does not wear the link's design`);

  // The platform admin console.
  await page.goto('/admin/sign-in');
  await page.getByLabel('Name').fill('admin');
  await page.getByLabel('Password').fill('admin-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Sellers' })).toBeVisible();
  await visitAll(['/admin', '/admin/overview', '/admin/payments', `/admin/sellers/${seller.merchant.id}`, '/admin/audit-log']);

  await receiver.close();
  expect(failures, failures.join('\n')).toEqual([]);
});
