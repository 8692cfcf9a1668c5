import crypto from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { expect, shot, test } from './fixtures';
import { expectNoSeriousA11yViolations, expectNoSidewaysScroll, postJson } from './console-helpers';

/** What each language calls the things the test presses and checks. */
const WORDS = {
  de: {
    payWithCard: 'Mit Karte bezahlen',
    email: 'E-Mail',
    cardNumber: 'Kartennummer',
    expiry: 'Gültig bis',
    cvc: 'Prüfnummer',
    pay: '24.000 ¥ bezahlen',
    declined: 'Ihre Karte wurde abgelehnt.',
    paid: 'Zahlung erfolgreich',
    requestLink: 'Anmeldelink per E-Mail senden',
    linkSent: 'Anmeldelink an Ihre E-Mail-Adresse unterwegs',
    yourEmail: 'Ihre E-Mail-Adresse',
    continue: 'Weiter',
    heading: 'Ihr Abonnement',
    price: '9,90 €/Monat',
    cancel: 'Zum Periodenende kündigen',
    confirmCancel: 'Ja, zum Periodenende kündigen',
    canceled: 'Ihr Abonnement endet zum Ende des aktuellen Zeitraums.',
  },
  ja: {
    payWithCard: 'カードで支払う',
    email: 'メールアドレス',
    cardNumber: 'カード番号',
    expiry: '有効期限',
    cvc: 'セキュリティコード',
    pay: '￥24,000を支払う',
    declined: 'カードが承認されませんでした。',
    paid: 'お支払いが完了しました',
    requestLink: 'ログインリンクをメールで受け取る',
    linkSent: 'ログインリンクをメールでお送りしました',
    yourEmail: 'メールアドレス',
    continue: '続ける',
    heading: 'ご契約中のサブスクリプション',
    price: '€9.90/月',
    cancel: '期間終了時に解約',
    confirmCancel: 'はい、期間終了時に解約します',
    canceled: 'サブスクリプションは現在の期間の終了時に終了します。',
  },
} as const;

type Lang = keyof typeof WORDS;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** A seller with a yen payment link and a customer subscribed at €9.90 a month. */
async function sellerWithLinkAndSubscriber(baseURL: string) {
  const json = postJson(baseURL);
  const suffix = crypto.randomBytes(4).toString('hex');
  const seller = await json('/api/MerchantAuth/Register', {
    email: `lang-seller-${suffix}@example.com`,
    password: 'a long seller password',
    name: 'Kissa Tea',
    accountType: 'Business',
  });
  const key = await json(
    '/api/MerchantApiKey',
    { name: 'backend', scopes: ['products:write', 'prices:write', 'payment_links:write', 'subscriptions:write', 'customers:write', 'payments:write'] },
    { Authorization: `Bearer ${seller.accessToken}` },
  );
  const auth = { Authorization: `Bearer ${key.secret}` };
  const link = await json(
    '/api/PaymentLink',
    { name: 'Matcha tasting set', description: 'Three ceremonial-grade matcha tins', unitAmount: 12000, currency: 'JPY', quantity: 2 },
    auth,
  );
  const product = await json('/api/Product', { name: 'Tea of the month' }, auth);
  const price = await json('/api/Price', { productId: product.id, type: 'Recurring', amount: 990, currency: 'EUR', interval: 'month' }, auth);
  const customerEmail = `lang-customer-${suffix}@example.com`;
  const checkout = await json('/api/Checkout', { priceId: price.id, customerEmail, tokenRef: 'tok_visa' }, { ...auth, 'Idempotency-Key': crypto.randomUUID() });
  return { token: link.token as string, customerId: checkout.customerId as string, customerEmail };
}

async function inLanguage(browser: Browser, locale: Lang, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ locale, viewport });
  return { context, page: await context.newPage() };
}

async function checkPhoneLayout(page: Page, name: string) {
  await page.setViewportSize(PHONE);
  await expectNoSidewaysScroll(page);
  await shot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

for (const lang of Object.keys(WORDS) as Lang[]) {
  const words = WORDS[lang];

  test(`a ${lang} customer pays a hosted checkout and manages the subscription in the portal, all in ${lang}`, async ({ browser, baseURL }) => {
    const { token, customerId, customerEmail } = await sellerWithLinkAndSubscriber(baseURL);
    const { context, page } = await inLanguage(browser, lang, DESKTOP);

    await page.goto(`/pay/${token}`);
    await expect(page.locator('main')).toHaveAttribute('lang', lang);
    await expect(page.getByRole('heading', { name: words.payWithCard })).toBeVisible();
    await page.getByLabel(words.email, { exact: true }).fill(`lang-buyer-${crypto.randomBytes(4).toString('hex')}@example.com`);
    await page.getByLabel(words.cardNumber).fill('4000 0000 0000 0002');
    await page.getByLabel(words.expiry).fill('12 / 34');
    await page.getByLabel(words.cvc).fill('123');
    await page.getByRole('button', { name: words.pay }).click();
    await expect(page.getByTestId('decline')).toContainText(words.declined);
    await shot(page, `lang-${lang}-1-checkout-declined`);
    await expectNoSeriousA11yViolations(page);
    await checkPhoneLayout(page, `lang-${lang}-1-checkout-declined`);

    await page.getByLabel(words.cardNumber).fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: words.pay }).click();
    await expect(page.getByRole('heading', { name: words.paid })).toBeVisible();
    await shot(page, `lang-${lang}-2-paid`);
    await expectNoSeriousA11yViolations(page);

    await page.goto(`/portal/${customerId}`);
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: words.requestLink }).click();
    await expect(page.getByText(words.linkSent)).toBeVisible();
    const mailbox = (await (await fetch(`${baseURL}/dev/mailbox?format=json&to=${encodeURIComponent(customerEmail)}`)).json()) as {
      data: { links: string[] }[];
    };
    await page.goto(mailbox.data.flatMap((mail) => mail.links).find((href) => href.includes('/verify?token='))!);
    await page.waitForLoadState('networkidle');
    await page.getByLabel(words.yourEmail, { exact: true }).fill(customerEmail);
    await page.getByRole('button', { name: words.continue }).click();
    await expect(page.getByRole('heading', { name: words.heading })).toBeVisible();
    await expect(page.getByText(words.price).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    await shot(page, `lang-${lang}-3-portal`);
    await expectNoSeriousA11yViolations(page);
    await checkPhoneLayout(page, `lang-${lang}-3-portal`);

    await page.getByRole('button', { name: words.cancel }).click();
    await page.getByRole('button', { name: words.confirmCancel }).click();
    await expect(page.getByText(words.canceled)).toBeVisible();
    await context.close();
  });
}
