import crypto from 'node:crypto';
import { expect, shot, test } from './fixtures';
import { expectNoSidewaysScroll, postJson } from './console-helpers';

const PASSWORD = 'a long seller password';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const TEAL = 'rgb(15, 118, 110)';

test('a seller brands a checkout in the console, and a link with that designId shows it at desktop and phone width', async ({ page, browser, baseURL }) => {
  const post = postJson(baseURL);
  const suffix = crypto.randomBytes(4).toString('hex');
  const email = `branding-${suffix}@example.com`;
  const seller = await post('/api/MerchantAuth/Register', { email, password: PASSWORD, name: 'Fjord Coffee Roasters AS', accountType: 'Business' });
  const key = await post('/api/MerchantApiKey', { name: 'backend', scopes: ['payment_links:write'] }, { Authorization: `Bearer ${seller.accessToken}` });

  // A logo image, drawn by the browser itself.
  await page.setContent(
    '<div id="logo" style="display:inline-flex;width:160px;height:48px;align-items:center;justify-content:center;background:#0f766e;color:#fff;font:700 22px sans-serif;letter-spacing:2px">FJORD</div>',
  );
  const logo = await page.locator('#logo').screenshot();

  await page.setViewportSize(DESKTOP);
  await page.goto('/merchant/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: /Welcome/ })).toBeVisible();
  await page.goto('/merchant/settings');
  await page.getByRole('link', { name: 'Branding' }).click();
  await expect(page.getByRole('heading', { name: 'Branding' })).toBeVisible();

  const form = page.getByRole('form', { name: 'New design' });
  const preview = page.getByTestId('design-preview');
  await form.getByLabel('Display name').fill('Fjord Coffee');
  await form.getByLabel('Logo').setInputFiles({ name: 'fjord.png', mimeType: 'image/png', buffer: logo });
  await form.getByLabel('Button label').selectOption('Donate');
  // The preview follows the form as it changes, before anything is saved.
  await expect(preview.getByText('Fjord Coffee').first()).toBeVisible();
  await expect(preview.getByTestId('preview-button').first()).toHaveText('Donate $25.00');
  await expect(preview.locator('img').first()).toHaveJSProperty('complete', true);

  // An unreadable pair is flagged as it is picked, and refused with its ratio when saved.
  await form.getByLabel('Brand colour').fill('#fde047');
  await expect(form.getByText(/Contrast 1\.31:1 — below/)).toBeVisible();
  await form.getByRole('button', { name: 'Create design' }).click();
  await expect(form.getByText(/has a contrast ratio of 1\.31:1; WCAG AA needs 4\.5:1/)).toBeVisible();

  await form.getByLabel('Brand colour').fill('#0f766e');
  await form.getByLabel('Accent colour').fill('#115e59');
  await form.getByLabel('Terms URL').fill('https://fjord.example/terms');
  await expect(preview.getByTestId('preview-button').first()).toHaveCSS('background-color', TEAL);
  await form.getByLabel('Logo').setInputFiles({ name: 'fjord.png', mimeType: 'image/png', buffer: logo });
  await shot(page, 'branding-1-editor-desktop');
  await form.getByRole('button', { name: 'Create design' }).click();
  await expect(page.getByText('Design saved.')).toBeVisible();
  const designId = /\/branding\/(design_[A-Z0-9]+)/.exec(page.url())![1]!;
  await page.setViewportSize(PHONE);
  await expectNoSidewaysScroll(page);
  await shot(page, 'branding-2-saved-phone');

  const link = await post(
    '/api/PaymentLink',
    { name: 'Coffee for the crew', unitAmount: 1200, currency: 'EUR', designId },
    { Authorization: `Bearer ${key.secret}` },
  );
  // The link's console page names its design and offers the seller's designs to switch to.
  await page.goto(`/merchant/payment-links/${link.id}`);
  await expect(page.getByRole('link', { name: 'Fjord Coffee' })).toHaveAttribute('href', `/merchant/settings/branding/${designId}`);
  await expect(page.getByLabel('Design')).toHaveValue(designId);
  for (const [size, name] of [
    [DESKTOP, 'desktop'],
    [PHONE, 'phone'],
  ] as const) {
    await page.setViewportSize(size);
    await page.goto(`/pay/${link.token}`);
    await expect(page.getByTestId('design-name')).toHaveText('Fjord Coffee');
    await expect(page.getByTestId('design-logo')).toHaveJSProperty('complete', true);
    expect(await page.getByTestId('design-logo').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
    const pay = page.getByRole('button', { name: 'Donate €12.00' });
    await expect(pay).toHaveCSS('background-color', TEAL);
    await expect(pay).toHaveCSS('color', 'rgb(255, 255, 255)');
    await expect(page.getByRole('link', { name: 'Terms' })).toHaveAttribute('href', 'https://fjord.example/terms');
    await expectNoSidewaysScroll(page);
    await shot(page, `branding-3-checkout-${name}`);
  }

  // The same branded checkout for a German and a Japanese reader: the pay verb and the design's links in their language.
  for (const [locale, button, terms] of [
    ['de-DE', /^12,00\s€ spenden$/, 'AGB'],
    ['ja-JP', /^€12\.00を寄付する$/, '利用規約'],
  ] as const) {
    const reader = await browser.newContext({ locale, baseURL, viewport: PHONE });
    const readerPage = await reader.newPage();
    await readerPage.goto(`/pay/${link.token}`);
    await expect(readerPage.getByTestId('design-name')).toHaveText('Fjord Coffee');
    await expect(readerPage.getByRole('button', { name: button })).toHaveCSS('background-color', TEAL);
    await expect(readerPage.getByRole('link', { name: terms })).toHaveAttribute('href', 'https://fjord.example/terms');
    await expectNoSidewaysScroll(readerPage);
    await shot(readerPage, `branding-5-checkout-${locale}-phone`);
    await reader.close();
  }

  // The success page wears the same design.
  await page.getByLabel('Email').fill(`buyer-${suffix}@example.com`);
  await page.getByLabel('Name').fill('Ola Nordmann');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry').fill('12 / 34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Donate €12.00' }).click();
  await expect(page.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(page.getByTestId('design-name')).toHaveText('Fjord Coffee');
  await shot(page, 'branding-4-success-phone');
});
