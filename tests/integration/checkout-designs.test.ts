import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { checkoutDesigns } from '@/lib/db/schema';
import { listRecentEmails } from '@/lib/email/send-email';
import { requestPortalLink } from '@/lib/portal/portal';
import { baseUrl } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { expectAuthFailures } from '../helpers/auth-matrix';
import { adHocLink, ik, waitFor } from '../helpers/payments';
import { customerWithCard } from '../helpers/subscriptions';

type Api = Awaited<ReturnType<typeof newMerchant>>['api'];

/** A real 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const WEBP_HEADER = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.alloc(14)]);

async function design(api: Api, body: Record<string, unknown> = {}) {
  const created = await api.post('/api/CheckoutDesign', { displayName: 'Acme Coffee', ...body });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

describe('/api/CheckoutDesign', () => {
  it('creates, reads, lists and updates a design; colours are normalised and the logo gets a content-hashed URL', async () => {
    const { api } = await newMerchant();
    const created = await design(api, {
      logoBase64: PNG.toString('base64'),
      brandColor: '#064',
      buttonTextColor: '#FFFFFF',
      accentColor: '#0b5d3b',
      cornerStyle: 'pill',
      buttonLabel: 'Donate',
      supportEmail: 'help@acme.example',
      supportUrl: 'https://acme.example/help',
      termsUrl: 'https://acme.example/terms',
      privacyUrl: 'https://acme.example/privacy',
      defaultLocale: 'de',
    });
    const sha256 = crypto.createHash('sha256').update(PNG).digest('hex');
    expect(created).toMatchObject({
      displayName: 'Acme Coffee',
      brandColor: '#006644',
      buttonTextColor: '#ffffff',
      accentColor: '#0b5d3b',
      cornerStyle: 'pill',
      buttonLabel: 'Donate',
      supportEmail: 'help@acme.example',
      defaultLocale: 'de',
      isDefault: false,
    });
    expect(created.id).toMatch(/^design_/);
    expect(created.logoUrl).toMatch(new RegExp(`/design-logos/${sha256}$`));
    expect((await api.get(`/api/CheckoutDesign/${created.id}`)).body).toEqual(created);

    const plain = await design(api, { displayName: 'Plain' });
    expect(plain).toMatchObject({
      logoUrl: null,
      brandColor: '#3856e0',
      buttonTextColor: '#ffffff',
      cornerStyle: 'rounded',
      buttonLabel: 'Pay',
      defaultLocale: null,
      supportEmail: null,
    });

    const list = await api.get('/api/CheckoutDesign?orderBy=displayName&orderDirection=asc');
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ totalCount: 2, hasMore: false });
    expect(list.body.data.map((d: { displayName: string }) => d.displayName)).toEqual(['Acme Coffee', 'Plain']);

    const updated = await api.put(`/api/CheckoutDesign/${created.id}`, {
      displayName: 'Acme Roasters',
      logoBase64: null,
      termsUrl: null,
      cornerStyle: 'square',
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      displayName: 'Acme Roasters',
      logoUrl: null,
      termsUrl: null,
      cornerStyle: 'square',
      brandColor: '#006644',
      privacyUrl: 'https://acme.example/privacy',
    });
  });

  it('serves the logo by its hash with its type, immutable caching and nosniff', async () => {
    const { api } = await newMerchant();
    const webp = await design(api, { logoBase64: WEBP_HEADER.toString('base64') });
    const png = await design(api, { logoBase64: PNG.toString('base64') });
    const served = await fetch(png.logoUrl.replace(/^https?:\/\/[^/]+/, baseUrl()));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    const servedWebp = await fetch(webp.logoUrl.replace(/^https?:\/\/[^/]+/, baseUrl()));
    expect(servedWebp.headers.get('content-type')).toBe('image/webp');
    expect((await fetch(`${baseUrl()}/design-logos/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await fetch(`${baseUrl()}/design-logos/not-a-hash`)).status).toBe(404);
  });

  it('refuses SVG, other image types, oversized logos and broken base64, naming logoBase64', async () => {
    const { api } = await newMerchant();
    const refusals: [string, RegExp][] = [
      [Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString('base64'), /SVG/],
      [Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1').toString('base64'), /not a PNG, JPEG or WebP/],
      [Buffer.concat([PNG, Buffer.alloc(256 * 1024)]).toString('base64'), /at most 262144 bytes/],
      ['not base64!', /base64/],
    ];
    for (const [logoBase64, message] of refusals) {
      const answer = await api.post('/api/CheckoutDesign', { displayName: 'Bad logo', logoBase64 });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_FAILED');
      expect(answer.body.errors[0]).toMatchObject({ path: 'logoBase64', message: expect.stringMatching(message) });
    }
    expect((await api.get('/api/CheckoutDesign')).body.totalCount).toBe(0);
  });

  it('answers 400 naming the field and the contrast ratio when colours fail WCAG AA', async () => {
    const { api } = await newMerchant();
    const yellowButton = await api.post('/api/CheckoutDesign', { displayName: 'Sunny', brandColor: '#fde047' });
    expect(yellowButton.status).toBe(400);
    expect(yellowButton.body.errors).toEqual([{ path: 'brandColor', message: expect.stringContaining('1.31:1') }]);
    expect(yellowButton.body.detail).toMatch(/WCAG AA needs 4.5:1/);
    expect(yellowButton.body.contrast).toEqual([{ path: 'brandColor', ratio: 1.31, required: 4.5 }]);

    const paleLinks = await api.post('/api/CheckoutDesign', { displayName: 'Pale', accentColor: '#94a3b8' });
    expect(paleLinks.status).toBe(400);
    expect(paleLinks.body.errors[0]).toMatchObject({ path: 'accentColor', message: expect.stringMatching(/contrast ratio of 2\.\d\d:1/) });

    // A light brand colour is fine with dark button text.
    const sunny = await design(api, { brandColor: '#fde047', buttonTextColor: '#1e293b' });
    // Colours are checked together as they will be shown: changing one can break the pair.
    const broken = await api.put(`/api/CheckoutDesign/${sunny.id}`, { buttonTextColor: '#ffffff' });
    expect(broken.status).toBe(400);
    expect(broken.body.errors[0].path).toBe('brandColor');
    expect((await api.get(`/api/CheckoutDesign/${sunny.id}`)).body.buttonTextColor).toBe('#1e293b');

    const malformed = await api.post('/api/CheckoutDesign', {
      displayName: 'X',
      brandColor: 'blue',
      cornerStyle: 'round',
      buttonLabel: 'Buy',
      defaultLocale: 'it',
      extra: 1,
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['brandColor', 'buttonLabel', 'cornerStyle', 'defaultLocale', 'extra']);
    expect((await api.post('/api/CheckoutDesign', {})).body.errors[0].path).toBe('displayName');
  });

  it('keeps one default per seller: setting it moves it, and the database refuses a second', async () => {
    const { api, merchant } = await newMerchant();
    const first = await design(api, { displayName: 'First', isDefault: true });
    const second = await design(api, { displayName: 'Second', isDefault: true });
    expect((await api.get(`/api/CheckoutDesign/${first.id}`)).body.isDefault).toBe(false);
    const defaults = await api.get('/api/CheckoutDesign?isDefault=true');
    expect(defaults.body.data.map((d: { id: string }) => d.id)).toEqual([second.id]);

    const back = await api.put(`/api/CheckoutDesign/${first.id}`, { isDefault: true });
    expect(back.body.isDefault).toBe(true);
    expect((await api.get(`/api/CheckoutDesign/${second.id}`)).body.isDefault).toBe(false);

    // Concurrent requests each setting a different default still leave exactly one.
    const racers = await Promise.all([1, 2, 3, 4].map((n) => api.post('/api/CheckoutDesign', { displayName: `Racer ${n}`, isDefault: true })));
    expect(racers.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect((await api.get('/api/CheckoutDesign?isDefault=true')).body.totalCount).toBe(1);

    await expect(
      getDb()
        .insert(checkoutDesigns)
        .values({
          id: `design_hand_${Date.now()}`,
          merchantId: merchant.id,
          displayName: 'Sneaked in',
          brandColor: '#3856e0',
          buttonTextColor: '#ffffff',
          accentColor: '#2c43b8',
          cornerStyle: 'rounded',
          buttonLabel: 'Pay',
          defaultLocale: 'en',
          isDefault: true,
        }),
    ).rejects.toThrow();
  });

  it("is the seller's own: another seller's design is a 404 and never listed; keys need payment_links scopes", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const mine = await design(a.api);
    expect((await b.api.get(`/api/CheckoutDesign/${mine.id}`)).status).toBe(404);
    const stolen = await b.api.put(`/api/CheckoutDesign/${mine.id}`, { displayName: 'Mine now' });
    expect(stolen.status).toBe(404);
    expect(stolen.body.code).toBe('NOT_FOUND');
    expect((await b.api.get('/api/CheckoutDesign')).body.totalCount).toBe(0);
    expect((await a.api.get(`/api/CheckoutDesign/${mine.id}`)).body.displayName).toBe('Acme Coffee');

    await expectAuthFailures(a.merchant.id, 'GET', '/api/CheckoutDesign', 'payment_links:read');
    await expectAuthFailures(a.merchant.id, 'POST', '/api/CheckoutDesign', 'payment_links:write', { displayName: 'X' });
    await expectAuthFailures(a.merchant.id, 'GET', `/api/CheckoutDesign/${mine.id}`, 'payment_links:read');
    await expectAuthFailures(a.merchant.id, 'PUT', `/api/CheckoutDesign/${mine.id}`, 'payment_links:write', { displayName: 'X' });
  });
});

describe('designs on payment links and hosted pages', () => {
  it("accepts only the seller's own designId on link create and update (404 otherwise)", async () => {
    const a = await newMerchant();
    const b = await newMerchant();
    const mine = await design(a.api);
    const theirs = await design(b.api);
    const unknown = await a.api.post('/api/PaymentLink', { unitAmount: 500, currency: 'EUR', name: 'Mug', designId: 'design_nope' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0]).toMatchObject({ path: 'designId' });
    expect((await a.api.post('/api/PaymentLink', { unitAmount: 500, currency: 'EUR', name: 'Mug', designId: theirs.id })).status).toBe(404);

    const link = await adHocLink(a.api, { designId: mine.id });
    expect(link.designId).toBe(mine.id);
    const moved = await a.api.put(`/api/PaymentLink/${link.id}`, { designId: theirs.id });
    expect(moved.status).toBe(404);
    expect(moved.body.errors[0].path).toBe('designId');
    expect((await a.api.get(`/api/PaymentLink/${link.id}`)).body.designId).toBe(mine.id);
    expect((await a.api.put(`/api/PaymentLink/${link.id}`, { designId: null })).body.designId).toBeNull();
  });

  it("shows the link's design on the hosted checkout, else the seller's default, else the plain page", async () => {
    const { api } = await newMerchant();
    const plainLink = await adHocLink(api);
    const plainHtml = await (await fetch(`${baseUrl()}/pay/${plainLink.token}`)).text();
    expect(plainHtml).not.toContain('checkout-design');

    const fallback = await design(api, { displayName: 'House style', brandColor: '#7c2d12', isDefault: true });
    const branded = await design(api, {
      displayName: 'Charity Run',
      logoBase64: PNG.toString('base64'),
      brandColor: '#fde047',
      buttonTextColor: '#1e293b',
      accentColor: '#1d4ed8',
      buttonLabel: 'Donate',
      termsUrl: 'https://charity.example/terms',
    });
    const brandedLink = await adHocLink(api, { designId: branded.id });
    const html = await (await fetch(`${baseUrl()}/pay/${brandedLink.token}`)).text();
    expect(html).toContain('data-testid="checkout-design"');
    expect(html).toContain('--design-brand:#fde047');
    expect(html).toContain('--design-button-text:#1e293b');
    expect(html).toMatch(/data-testid="design-name"[^>]*>Charity Run</);
    expect(html).toContain(`src="/design-logos/${crypto.createHash('sha256').update(PNG).digest('hex')}"`);
    expect(html).toContain('href="https://charity.example/terms"');
    expect(html).toContain('Donate $50.00');

    // The plain link now wears the seller's default.
    const defaultHtml = await (await fetch(`${baseUrl()}/pay/${plainLink.token}`)).text();
    expect(defaultHtml).toContain('--design-brand:#7c2d12');
    expect(defaultHtml).toMatch(/data-testid="design-name"[^>]*>House style</);
    expect(fallback.isDefault).toBe(true);
  });

  it("styles the customer portal and its emails with the seller's default design", async () => {
    const { api, merchant } = await newMerchant();
    const customer = await customerWithCard(api, merchant.id, undefined, `designed-${Date.now()}@example.com`);
    await design(api, { displayName: 'Portal Brand', brandColor: '#14532d', supportEmail: 'care@brand.example', isDefault: true });
    const page = await (await fetch(`${baseUrl()}/portal/${customer.customerId}`)).text();
    expect(page).toContain('--design-brand:#14532d');
    expect(page).toMatch(/data-testid="design-name"[^>]*>Portal Brand</);

    await getDb().transaction((tx) => requestPortalLink(tx, customer.customerId));
    const [mail] = await listRecentEmails(getDb(), { to: customer.email, limit: 1 });
    expect(mail!.htmlBody).toContain('Portal Brand');
    expect(mail!.htmlBody).toContain('background:#14532d');
    expect(mail!.htmlBody).toContain('mailto:care@brand.example');
  });

  it("styles the hosted invoice and the receipt email with the seller's default design", async () => {
    const { api } = await newMerchant();
    await design(api, { displayName: 'Receipt Brand', brandColor: '#1e3a8a', isDefault: true });
    const email = `designed-receipt-${Date.now()}@example.com`;
    const link = await adHocLink(api, { name: 'Notebook', unitAmount: 700 });
    const checkout = await api.post('/api/Checkout', { paymentLinkToken: link.token, customerEmail: email, tokenRef: 'tok_visa' }, ik());
    expect(checkout.status, checkout.text).toBe(201);
    const [record] = (await api.get(`/api/BillingRecord?customerId=${checkout.body.customerId}`)).body.data;
    const page = await (await fetch(`${baseUrl()}${new URL(record.hostedInvoiceUrl).pathname}`)).text();
    expect(page).toContain('--design-brand:#1e3a8a');
    expect(page).toMatch(/data-testid="design-name"[^>]*>Receipt Brand</);
    const mail = await waitFor(async () => (await listRecentEmails(getDb(), { to: email })).find((m) => m.category === 'receipt'));
    expect(mail.htmlBody).toContain('Receipt Brand');
    expect(mail.htmlBody).toContain('background:#1e3a8a');
    expect(mail.textBody).toContain('Thank you for your payment');
  });
});
