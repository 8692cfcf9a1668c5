import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { demoApi, demoKey, signInAsDemoSeller } from './console-helpers';

// The pages' Content-Security-Policy (lib/http/security-headers.ts) in Chromium: another site
// cannot frame them (clickjacking), and the pages themselves break none of its rules.

/** Another origin (another port on 127.0.0.1): `/frame?src=…` is a page that frames `src`. */
async function startForeignSite() {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://foreign');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    if (url.pathname === '/own') return response.end('<!doctype html><title>own</title><h1>A page of the foreign site</h1>');
    const src = url.searchParams.get('src') ?? '';
    response.end(`<!doctype html><title>Win a prize</title><iframe id="target" src="${src.replaceAll('"', '&quot;')}" width="900" height="700"></iframe>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise((resolve) => server.close(resolve)) };
}

/**
 * Where the foreign page's iframe ended up: the framed address, or Chromium's error page
 * (`chrome-error://chromewebdata/`) when the framed answer refused to be framed; and what
 * Chromium said about it on the console.
 */
async function frameOutcome(page: Page, foreignOrigin: string, src: string) {
  const refusals: string[] = [];
  const listen = (message: { text(): string }) => {
    if (message.text().includes("frame-ancestors 'none'")) refusals.push(message.text());
  };
  page.on('console', listen);
  await page.goto(`${foreignOrigin}/frame?src=${encodeURIComponent(src)}`);
  const frameUrl = () =>
    page
      .frames()
      .find((candidate) => candidate !== page.mainFrame())
      ?.url() ?? '';
  await expect.poll(frameUrl).toMatch(/^(chrome-error|http):/);
  const url = frameUrl();
  if (url.startsWith('chrome-error:')) await expect.poll(() => refusals.length).toBeGreaterThan(0);
  page.off('console', listen);
  return { url, refusals };
}

test('another site cannot frame the consoles, the hosted checkout, the portal or the wallet (clickjacking)', async ({ page, request, baseURL }) => {
  const site = await startForeignSite();
  const product = await demoApi(request, '/api/Product', { name: 'Framed poster' });
  const price = await demoApi(request, '/api/Price', { productId: product.id, type: 'OneTime', amount: 2500, currency: 'USD' });
  const link = await demoApi(request, '/api/PaymentLink', { priceId: price.id });
  const customer = await demoApi(request, '/api/Customer', { email: `framed-${crypto.randomBytes(4).toString('hex')}@example.com`, name: 'Ada' });

  // The control: the foreign site's own page in the same iframe is shown.
  const own = await frameOutcome(page, site.origin, `${site.origin}/own`);
  expect(own.url).toBe(`${site.origin}/own`);
  await expect(page.frameLocator('#target').getByRole('heading', { name: 'A page of the foreign site' })).toBeVisible();

  for (const target of ['/merchant', '/merchant/sign-in', '/admin/sign-in', `/pay/${link.token}`, `/portal/${customer.id}`, '/member/sign-in']) {
    const framed = await frameOutcome(page, site.origin, `${baseURL}${target}`);
    expect(framed.url, target).toBe('chrome-error://chromewebdata/');
    expect(framed.refusals.length, `${target}: Chromium names frame-ancestors`).toBeGreaterThan(0);
  }
  await site.close();
});

/** Every Content-Security-Policy violation the page reports, as the console and the DOM event see it. */
async function recordViolations(page: Page) {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(
        `Content Security Policy violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`,
      ),
    );
  });
  return violations;
}

async function visit(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState('networkidle');
}

test('the hosted checkout, portal, consoles, wallet, API reference and mailbox run without a CSP violation', async ({ page, request }) => {
  test.setTimeout(300_000);
  const violations = await recordViolations(page);
  const suffix = crypto.randomBytes(4).toString('hex');
  const customerEmail = `csp-customer-${suffix}@example.com`;
  const memberEmail = `csp-member-${suffix}@example.com`;
  const product = await demoApi(request, '/api/Product', { name: 'Policy poster' });
  const oneTime = await demoApi(request, '/api/Price', { productId: product.id, type: 'OneTime', amount: 2500, currency: 'USD' });
  const monthly = await demoApi(request, '/api/Price', { productId: product.id, type: 'Recurring', amount: 900, currency: 'USD', interval: 'month' });
  const link = await demoApi(request, '/api/PaymentLink', { priceId: oneTime.id });
  const subscriptionLink = await demoApi(request, '/api/PaymentLink', { priceId: monthly.id });

  await visit(page, '/');
  await visit(page, '/docs/api');
  await visit(page, '/no-such-page');

  // The hosted checkout: a payment, then a subscription.
  for (const [token, email, button, done] of [
    [link.token, memberEmail, /^Pay /, 'Payment successful'],
    [subscriptionLink.token, customerEmail, 'Subscribe', 'Subscription started'],
  ] as const) {
    await visit(page, `/pay/${token}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry').fill('12 / 34');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: button }).click();
    await expect(page.getByRole('heading', { name: done })).toBeVisible();
  }

  // The portal of the subscribed customer, signed in through its emailed link.
  const listed = await request.get(`/api/Customer?email=${encodeURIComponent(customerEmail)}`, { headers: { authorization: `Bearer ${demoKey()}` } });
  const customerId = ((await listed.json()) as { data: { id: string }[] }).data[0]!.id;
  await visit(page, `/portal/${customerId}`);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByText('a sign-in link is on its way')).toBeVisible();
  await visit(page, await mailboxLink(page, customerEmail, '/verify?token='));
  await page.getByLabel('Your email').fill(customerEmail);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { name: 'Your subscription' })).toBeVisible();
  await visit(page, '/dev/mailbox');

  // The seller console: pages and a server action.
  await signInAsDemoSeller(page);
  for (const path of [
    '/merchant/payments',
    '/merchant/subscriptions',
    '/merchant/customers',
    '/merchant/developers/logs',
    '/merchant/settings/branding',
    '/merchant/usage',
  ]) {
    await visit(page, path);
  }
  await visit(page, '/merchant/products');
  await page.getByLabel('Name').fill(`CSP mug ${suffix}`);
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.getByRole('heading', { name: `CSP mug ${suffix}` })).toBeVisible();

  // The wallet of the paying customer, signed in through its emailed link.
  await visit(page, '/member/sign-in');
  await page.getByLabel('Email').fill(memberEmail);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await visit(page, await mailboxLink(page, memberEmail, '/member/verify?token='));
  await page.getByRole('button', { name: 'Sign in to my wallet' }).click();
  await expect(page.getByRole('heading', { name: 'Your wallet' })).toBeVisible();

  // The platform admin console.
  await visit(page, '/admin/sign-in');
  await page.getByLabel('Name').fill('admin');
  await page.getByLabel('Password').fill('admin-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Sellers' })).toBeVisible();
  await visit(page, '/admin/overview');
  await visit(page, '/admin/audit-log');

  expect(violations, violations.join('\n')).toEqual([]);
});

/** The newest link for `to` in the dev mailbox (its JSON), that contains `part`, as a path. */
async function mailboxLink(page: Page, to: string, part: string): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(async () => {
      const answer = await page.request.get(`/dev/mailbox?format=json&to=${encodeURIComponent(to)}`);
      const mailbox = (await answer.json()) as { data: { links: string[] }[] };
      found = mailbox.data.flatMap((mail) => mail.links).find((href) => href.includes(part));
      return found;
    })
    .toBeDefined();
  const url = new URL(found!);
  return url.pathname + url.search;
}
