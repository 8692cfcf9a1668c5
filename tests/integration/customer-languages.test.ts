import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { customers } from '@/lib/db/schema';
import { payHostedCheckout } from '@/lib/checkout/hosted';
import { requestMemberSignInLink } from '@/lib/auth/magic-links';
import { customerText } from '@/lib/i18n/customer-text';
import { portalCookieName, requestPortalLink, verifyPortalLink } from '@/lib/portal/portal';
import { accessCookieName } from '@/lib/server/web/session-cookies';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { adHocLink } from '../helpers/payments';
import { freshIp, latestLinkToken, signInMember } from '../helpers/sessions';
import { customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

/** A page's text with its tags dropped and Intl's no-break spaces made plain. */
async function page(path: string, acceptLanguage?: string, cookie?: string) {
  const answer = await call('GET', path, { headers: { ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}), ...(cookie ? { cookie } : {}) } });
  expect(answer.status, path).toBe(200);
  return {
    html: answer.text,
    text: answer.text
      .replace(/<[^>]+>/g, ' ')
      .replace(/[\u00a0\u202f]/g, ' ')
      .replace(/\s+/g, ' '),
  };
}

async function mailbox(to: string) {
  const answer = await call('GET', `/dev/mailbox?format=json&to=${encodeURIComponent(to)}`);
  expect(answer.status).toBe(200);
  return answer.body.data as { subject: string; text: string; category: string }[];
}

async function portalCookie(customerId: string, email: string) {
  await getDb().transaction((tx) => requestPortalLink(tx, customerId));
  // The subscription's receipt is mailed by a job and may arrive after the link.
  const token = await latestLinkToken(email, 'portal.link');
  const session = await getDb().transaction((tx) => verifyPortalLink(tx, customerId, token, email));
  return `${portalCookieName}=${session}`;
}

describe('hosted checkout in the customer’s language', () => {
  it('follows Accept-Language with q-values and formats yen per locale', async () => {
    const { api } = await newMerchant();
    const link = await adHocLink(api, { name: 'Matcha set', unitAmount: 1500, currency: 'JPY' });
    const path = `/pay/${link.token}`;

    const english = await page(path);
    expect(english.text).toContain('Pay with card');
    expect(english.text).toContain('Pay ¥1,500');
    expect(english.html).toContain('lang="en"');

    const german = await page(path, 'de-DE,de;q=0.9,en;q=0.5');
    expect(german.text).toContain('Mit Karte bezahlen');
    expect(german.text).toContain('1.500 ¥ bezahlen');
    expect(german.text).toContain('Mit Ihrer Paybase-Wallet bezahlen');
    expect(german.html).toContain('lang="de"');
    // The document itself is German (issue 34): title, header and footer are announced in German.
    expect(german.html).toMatch(/^<!DOCTYPE html><html[^>]* lang="de"/);
    expect(german.text).not.toContain('Pay with card');

    const japanese = await page(path, 'ja');
    expect(japanese.text).toContain('カードで支払う');
    expect(japanese.text).toContain('￥1,500を支払う');

    const spanish = await page(path, 'fr;q=0.8, es');
    expect(spanish.text).toContain('Pagar con tarjeta');
    expect(spanish.text).toContain('Pagar 1500 JPY');

    const french = await page(path, 'fr-CA, es;q=0.5');
    expect(french.text).toContain('Payer par carte');
    expect(french.text).toContain('1 500 JPY');

    const unsupported = await page(path, 'pt-BR, it;q=0.8');
    expect(unsupported.text).toContain('Pay with card');
  });

  it('words a subscription’s terms and a disabled link in the customer’s language', async () => {
    const { api } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1999, currency: 'EUR', trialDays: 7 });
    const link = (await api.post('/api/PaymentLink', { priceId: price.id })).body;
    const german = await page(`/pay/${link.token}`, 'de');
    expect(german.text).toContain('19,99 €/Monat');
    expect(german.text).toContain('Kostenloser Testzeitraum');
    expect(german.text).toMatch(/7 Tage kostenlos, danach 19,99 €\/Monat ab \d+\. \w+\./);
    expect(german.text).toContain('Testzeitraum starten');

    const off = await adHocLink(api, { unitAmount: 990, currency: 'EUR' });
    expect((await api.post(`/api/PaymentLink/${off.id}/Disable`)).status).toBe(200);
    const spanish = await page(`/pay/${off.token}`, 'es');
    expect(spanish.text).toContain('Este enlace no se puede pagar');
    expect(spanish.text).toContain('El vendedor ha desactivado este enlace de pago.');
  });

  it('records the checkout’s language on the customer, shows the result page in it, and mails the portal link in it', async () => {
    const { api } = await newMerchant();
    const link = await adHocLink(api, { name: 'Tea tasting', unitAmount: 4200, currency: 'EUR' });
    const email = `sprache-${crypto.randomBytes(4).toString('hex')}@example.com`;
    const paid = await payHostedCheckout(
      getDb(),
      {
        token: link.token,
        attemptKey: crypto.randomUUID(),
        email,
        name: 'Ana',
        cardNumber: '4242 4242 4242 4242',
        expiry: '12 / 34',
        cvc: '123',
        promotionCode: '',
        saveCard: false,
      },
      customerText('es'),
    );
    expect(paid.kind).toBe('paid');
    const checkoutId = (paid as { checkoutId: string }).checkoutId;
    const [customer] = await getDb().select().from(customers).where(eq(customers.email, email));
    expect(customer!.locale).toBe('es');

    const result = await page(`/pay/${link.token}/success?checkoutId=${checkoutId}`, 'ja');
    expect(result.text).toContain('お支払いが完了しました');
    expect(result.text).toContain('€42.00');
    expect(result.text).toContain('Visa •••• 4242でお支払い');

    // The portal page asks in German, but the customer bought in Spanish: the email is Spanish.
    await getDb().transaction((tx) => requestPortalLink(tx, customer!.id, 'de'));
    const mail = (await mailbox(email)).find((sent) => sent.category === 'portal.link');
    expect(mail!.subject).toMatch(/^Gestiona tu suscripción a /);
    expect(mail!.text).toContain('Usa este enlace para gestionar tu suscripción');
    expect(mail!.text).toMatch(/\/portal\/cus_[^/]+\/verify\?token=/);
  });

  it('a declined card is answered in the page’s language', async () => {
    const { api } = await newMerchant();
    const link = await adHocLink(api, { unitAmount: 1000, currency: 'USD' });
    const form = {
      token: link.token,
      attemptKey: crypto.randomUUID(),
      email: 'decline@example.com',
      name: '',
      expiry: '12 / 34',
      cvc: '123',
      promotionCode: '',
      saveCard: false,
    };
    expect(await payHostedCheckout(getDb(), { ...form, cardNumber: '4000 0000 0000 9995' }, customerText('fr'))).toEqual({
      kind: 'declined',
      message: 'Le solde de votre carte est insuffisant.',
    });
    expect(
      await payHostedCheckout(getDb(), { ...form, attemptKey: crypto.randomUUID(), cardNumber: '4242 4242 4242 4242', expiry: '13/34' }, customerText('de')),
    ).toMatchObject({ kind: 'invalid', field: 'expiry' });
    expect(await payHostedCheckout(getDb(), { ...form, attemptKey: crypto.randomUUID(), cardNumber: '4242', email: 'nope' }, customerText('ja'))).toEqual({
      kind: 'invalid',
      field: 'email',
      message: '有効なメールアドレスを入力してください。',
    });
  });
});

describe('portal and wallet in the customer’s language', () => {
  it('shows the signed-in portal in German with euros and German dates', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1999, currency: 'EUR' });
    const customer = await customerWithCard(api, merchant.id);
    await subscribe(api, { customerId: customer.customerId, priceId: price.id });
    const cookie = await portalCookie(customer.customerId, customer.email);

    const german = await page(`/portal/${customer.customerId}`, 'de', cookie);
    expect(german.text).toContain('Ihr Abonnement');
    expect(german.text).toContain('19,99 €/Monat');
    expect(german.text).toMatch(/Nächste Abbuchung 19,99 € am \d{2}\.\d{2}\.\d{4}/);
    expect(german.text).toContain('Zahlungsmethoden');
    expect(german.text).toContain('Rechnungsverlauf');
    expect(german.text).toContain('bezahlt');
    expect(german.text).toContain('Abonnementzeitraum 1');
    expect(german.html).toContain('lang="de"');

    const japanese = await page(`/portal/${customer.customerId}`, 'ja', cookie);
    expect(japanese.text).toContain('ご契約中のサブスクリプション');
    expect(japanese.text).toContain('€19.99/月');
    expect(japanese.text).toMatch(/\d{4}\/\d{2}\/\d{2}に€19\.99/);

    const signedOut = await page(`/portal/${customer.customerId}`, 'fr;q=0.9, de;q=0.8');
    expect(signedOut.text).toContain('M’envoyer un lien de connexion');
  });

  it('shows the wallet and its sign-in in the browser’s language, and mails the wallet link in it', async () => {
    const { email, tokens } = await signInMember();
    const cookie = `${accessCookieName('member')}=${tokens.accessToken}`;
    const japanese = await page('/member', 'ja', cookie);
    expect(japanese.text).toContain('保存済みのお支払い方法');
    expect(japanese.text).toContain('ログアウト');
    expect(japanese.text).not.toContain('Saved payment methods');

    const { api } = await newMerchant();
    const link = await adHocLink(api, { unitAmount: 2500, currency: 'EUR' });
    const french = await page(`/member/pay/${link.token}`, 'fr', cookie);
    expect(french.text).toContain('Payer avec votre portefeuille');
    expect(french.text).toContain(`Connecté à votre portefeuille en tant que ${email}`);
    expect(french.text).toContain('25,00 €');

    const signIn = await page('/member/sign-in', 'es');
    expect(signIn.text).toContain('Accede a tu monedero');
    expect(signIn.text).toContain('Enviarme un enlace de acceso');

    // A wallet link asked for on a Japanese page is mailed in Japanese.
    await requestMemberSignInLink(getDb(), { email, client: { ip: freshIp()['x-forwarded-for']! }, locale: 'ja' });
    const [mail] = await mailbox(email);
    expect(mail).toMatchObject({ category: 'member.login', subject: 'Paybaseウォレットのログインリンク' });
    expect(mail!.text).toContain('次のリンクからPaybaseウォレットにログインしてください');
    expect(mail!.text).toMatch(/\/member\/verify\?token=mlt_/);
    // From the API, the app's Accept-Language decides.
    const other = `api-lang-${crypto.randomBytes(4).toString('hex')}@example.com`;
    const sent = await call('POST', '/api/MemberAuth/Login', { body: { email: other }, headers: { 'accept-language': 'de-AT, en;q=0.5', ...freshIp() } });
    expect(sent.status, sent.text).toBe(202);
    expect((await mailbox(other))[0]!.subject).toBe('Ihr Anmeldelink für die Paybase-Wallet');
  });
});

describe('the document language', () => {
  it('is the customer page’s language, and English in the consoles whatever the browser asks', async () => {
    const { api } = await newMerchant();
    const link = await adHocLink(api, { unitAmount: 1000, currency: 'EUR' });
    expect((await page(`/pay/${link.token}`, 'fr-FR,fr;q=0.9')).html).toMatch(/^<!DOCTYPE html><html[^>]* lang="fr"/);
    expect((await page('/member/sign-in', 'ja')).html).toMatch(/^<!DOCTYPE html><html[^>]* lang="ja"/);
    expect((await page('/merchant/sign-in', 'de')).html).toMatch(/^<!DOCTYPE html><html[^>]* lang="en"/);
  });

  it('of a hosted invoice and credit note is the seller’s design language before the browser’s', async () => {
    const { api } = await newMerchant();
    const design = await api.post('/api/CheckoutDesign', { displayName: 'Deutsch', defaultLocale: 'de', isDefault: true });
    expect(design.status, design.text).toBe(201);
    const link = await adHocLink(api, { unitAmount: 1000, currency: 'EUR' });
    const paid = await api.post(
      '/api/Checkout',
      { paymentLinkToken: link.token, customerEmail: 'kunde@example.com', tokenRef: 'tok_visa' },
      { 'Idempotency-Key': crypto.randomUUID() },
    );
    expect(paid.status, paid.text).toBe(201);
    const record = (await api.get(`/api/BillingRecord/${paid.body.billingRecordId}`)).body;
    const refund = await api.post(`/api/Payment/${paid.body.payment.id}/Refund`, { amount: 500 }, { 'Idempotency-Key': crypto.randomUUID() });
    expect(refund.status, refund.text).toBeLessThan(300);
    const [note] = (await api.get(`/api/CreditNote?billingRecordId=${record.id}`)).body.data;
    for (const url of [record.hostedInvoiceUrl, note.hostedUrl]) {
      const shown = await page(new URL(url).pathname, 'en-US,en;q=0.9');
      expect(shown.html, url).toMatch(/^<!DOCTYPE html><html[^>]* lang="de"/);
    }
  });
});
