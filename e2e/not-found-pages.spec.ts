import fs from 'node:fs';
import { expect, test } from './fixtures';

// A mistyped customer address answers 404 with a page in the visitor's language (docs/i18n.md):
// its <html lang>, a main landmark, a heading and a sentence saying what to do.

const MISTYPED = ['/pay/plink_mistyped', '/portal/cus_mistyped/nothing-here', '/invoice/mistyped', '/credit-note/mistyped', '/member/pay/mistyped/extra'];

for (const locale of ['de', 'ja'] as const) {
  test(`a mistyped customer address answers 404 in ${locale}`, async ({ baseURL, browser }) => {
    const words = JSON.parse(fs.readFileSync(`messages/${locale}.json`, 'utf8')).notFound as { title: string; body: string };
    const context = await browser.newContext({ baseURL, locale });
    const page = await context.newPage();
    for (const path of MISTYPED) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { level: 1, name: words.title }), path).toBeVisible();
      await expect(main, path).toContainText(words.body);
      await expect(page.locator('html'), path).toHaveAttribute('lang', locale);
    }
    await context.close();
  });
}

test('the not-found page is drawn by the server: a browser without JavaScript reads it whole', async ({ baseURL, browser }) => {
  const words = JSON.parse(fs.readFileSync('messages/fr.json', 'utf8')).notFound as { title: string; body: string };
  const context = await browser.newContext({ baseURL, locale: 'fr', javaScriptEnabled: false });
  const page = await context.newPage();
  for (const path of [...MISTYPED, '/pay/plink_mistyped/success?checkoutId=chk_mistyped', '/sandbox/authenticate/sbxauth_mistyped']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole('main').getByRole('heading', { level: 1, name: words.title }), path).toBeVisible();
    await expect(page.getByRole('main'), path).toContainText(words.body);
    await expect(page.locator('html'), path).toHaveAttribute('lang', 'fr');
  }
  await context.close();
});

test('an address outside the customer pages stays English', async ({ page }) => {
  const response = await page.goto('/no-such-page', { waitUntil: 'commit' });
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});
