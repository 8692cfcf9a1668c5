import { expect, test } from './fixtures';
import { MESSAGES } from '../lib/i18n/messages';

// A mistyped customer address answers 404 with a page in the visitor's language (docs/i18n.md):
// its <html lang>, a main landmark, a heading and a sentence saying what to do.

const MISTYPED_LINK = '/pay/plink_mistyped';
const MISTYPED = [MISTYPED_LINK, '/portal/cus_mistyped/nothing-here', '/invoice/mistyped', '/credit-note/mistyped', '/member/pay/mistyped/extra'];

for (const locale of ['de', 'ja'] as const) {
  test(`a mistyped customer address answers 404 in ${locale}`, async ({ baseURL, browser }) => {
    const words = MESSAGES[locale].notFound;
    for (const path of MISTYPED) {
      const response = await fetch(`${baseURL}${path}`, { headers: { 'Accept-Language': locale }, redirect: 'manual' });
      expect(response.status, path).toBe(404);
      const html = await response.text();
      expect(html, path).toContain(`<html lang="${locale}"`);
      expect(html, path).toContain(words.title);
    }
    const context = await browser.newContext({ baseURL, locale });
    const page = await context.newPage();
    const response = await page.goto(MISTYPED_LINK);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('main').getByRole('heading', { level: 1, name: words.title })).toBeVisible();
    await expect(page.getByRole('main')).toContainText(words.body);
    await expect(page).toHaveTitle(new RegExp(words.title));
    await context.close();
  });
}

test('an address outside the customer pages stays English', async ({ baseURL }) => {
  const missing = await fetch(`${baseURL}/no-such-page`, { headers: { 'Accept-Language': 'de' } });
  expect(missing.status).toBe(404);
  const html = await missing.text();
  expect(html).toContain('<html lang="en"');
  expect(html).toContain('Page not found');
});
