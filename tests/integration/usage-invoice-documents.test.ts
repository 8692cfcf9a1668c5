import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { customers } from '@/lib/db/schema';
import { baseUrl } from '../helpers/api';
import { pdfText } from '../helpers/pdf';
import { newMerchant } from '../helpers/merchants';
import { ik, waitFor } from '../helpers/payments';
import { advance, clockFor, customerWithCard, subscribe } from '../helpers/subscriptions';

// Issue 31: the hosted invoice page, its PDF and the receipt email show usage lines (the
// feature, the period, the unit price or each tier, the credits that paid them) in every
// supported language, with no English words left in the others.

const path = (url: string) => new URL(url).pathname;

/** What each language must say about the record below, and English words that must not appear in it. */
const EXPECTED = {
  en: ['API — api_calls usage', '1,234 units at $0.05 each', 'Tier 2: 234 units at $0.02 each = $4.68', 'Credits applied: 100 api_calls units', 'Usage from'],
  de: [
    'API — Nutzung von api_calls',
    '1.234 Einheiten zu je 0,05 $',
    'Stufe 2: 234 Einheiten zu je 0,02 $ = 4,68 $',
    'Angerechnete Guthaben: 100 Einheiten api_calls',
  ],
  fr: [
    'API — utilisation de api_calls',
    '1 234 unités à 0,05 $US l’unité',
    'Palier 2 : 234 unités à 0,02 $US l’unité = 4,68 $US',
    'Crédits appliqués : 100 unités de api_calls',
  ],
  es: [
    'API — uso de api_calls',
    '1234 unidades a 0,05 US$ cada una',
    'Tramo 2: 234 unidades a 0,02 US$ cada una = 4,68 US$',
    'Créditos aplicados: 100 unidades de api_calls',
  ],
  ja: ['API — api_calls の利用量', '1,234 単位 × 単価 $0.05', '段階 2：234 単位 × 単価 $0.02 = $4.68', '適用済みクレジット：api_calls 100 単位'],
} as const;
const ENGLISH_WORDS = ['usage', 'units at', 'Tier ', 'Credits applied', 'subscription period'];

/** WinAnsi's right single quote and em dash are bytes 0x92 and 0x97, which the PDF reader decodes as latin1. */
/** Spaces as Intl writes them (no-break, narrow no-break) read as plain ones. */
const plain = (text: string) => text.replace(/[\u00a0\u202f\u2009]/g, ' ');

async function billedRenewal(locale: string | null) {
  const { api, merchant } = await newMerchant();
  const product = (await api.post('/api/Product', { name: 'API' })).body;
  const metered = { productId: product.id, type: 'Recurring', currency: 'USD', interval: 'month', usageType: 'metered' };
  const calls = await api.post('/api/Price', { ...metered, feature: 'api_calls', amount: 5 });
  const messages = await api.post('/api/Price', {
    ...metered,
    feature: 'messages',
    tiersMode: 'graduated',
    tiers: [
      { upTo: 1000, unitAmount: 0 },
      { upTo: null, unitAmount: 2 },
    ],
  });
  expect([calls.status, messages.status]).toEqual([201, 201]);
  const { customerId, paymentMethodId, email } = await customerWithCard(api, merchant.id);
  // As a hosted checkout in the customer's language records it (lib/checkout/checkout-input.ts).
  if (locale)
    await getDb()
      .update(customers)
      .set({ locale })
      .where(and(eq(customers.id, customerId), eq(customers.merchantId, merchant.id)));
  const clock = await clockFor(api, customerId, '2026-05-01T00:00:00.000Z');
  const sub = await subscribe(api, { customerId, priceId: calls.body.id, paymentMethodId, items: [{ priceId: messages.body.id }] });
  expect(sub.status, sub.text).toBe(201);
  const grant = await api.post(`/api/Customer/${customerId}/CreditGrant`, { feature: 'api_calls', amount: 100, reason: 'Welcome' }, ik());
  expect(grant.status, grant.text).toBe(201);
  for (const feature of ['api_calls', 'messages']) {
    const usage = await api.post('/api/Usage', { customerId, feature, quantity: 1234 });
    expect(usage.status, usage.text).toBe(201);
  }
  // Past the period end and its usage grace window (USAGE_GRACE_PERIOD, 1 h).
  await advance(api, clock, '2026-06-01T01:00:00.000Z');
  const list = await api.get(`/api/BillingRecord?subscriptionId=${sub.body.id}&pageSize=100`);
  const record = list.body.data.find((r: { periodIndex: number }) => r.periodIndex === 1);
  // 1,234 × 5 ¢ = 6,170, less 100 units of credits (500); first 1,000 free then 234 × 2 ¢ = 468.
  expect(record).toMatchObject({ status: 'paid', subtotal: 6638, creditsApplied: 500, total: 6138 });
  return { record, email };
}

describe('usage lines on the customer’s documents', () => {
  it('the hosted invoice page and its PDF word usage lines in each language', async () => {
    const { record } = await billedRenewal(null);
    for (const [locale, expected] of Object.entries(EXPECTED)) {
      const html = plain(await (await fetch(`${baseUrl()}${path(record.hostedInvoiceUrl)}`, { headers: { 'Accept-Language': locale } })).text());
      for (const text of expected) expect(html, `${locale} page`).toContain(plain(text));
      const article = html.slice(html.indexOf('<article'), html.indexOf('</article>')).replace(/<[^>]+>/g, ' ');
      if (locale !== 'en') for (const word of ENGLISH_WORDS) expect(article, `${locale} page: "${word}"`).not.toContain(word);

      const pdf = await fetch(`${baseUrl()}${path(record.invoicePdfUrl)}`, { headers: { 'Accept-Language': locale } });
      const drawn = plain(await pdfText(new Uint8Array(await pdf.arrayBuffer())));
      for (const text of EXPECTED[locale as keyof typeof EXPECTED]) expect(drawn, `${locale} PDF`).toContain(plain(text));
      if (locale !== 'en') for (const word of ENGLISH_WORDS) expect(drawn, `${locale} PDF: "${word}"`).not.toContain(word);
    }
  });

  it('the receipt email lists the usage lines in the customer’s language', async () => {
    const { email } = await billedRenewal('de');
    const receipt = await waitFor(async () => {
      const answer = await fetch(`${baseUrl()}/dev/mailbox?format=json&to=${encodeURIComponent(email)}`);
      const mails = ((await answer.json()) as { data: { category: string; subject: string; text: string }[] }).data;
      return mails.find((mail) => mail.category === 'receipt' && mail.subject.includes('61,38'));
    });
    const text = plain(receipt.text);
    for (const expected of EXPECTED.de) expect(text).toContain(plain(expected));
    for (const word of ENGLISH_WORDS) expect(text).not.toContain(word);
  });
});
