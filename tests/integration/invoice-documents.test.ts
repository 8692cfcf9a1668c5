import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { customerText } from '@/lib/i18n/customer-text';
import { portalOverview } from '@/lib/portal/overview';
import { accessCookieName } from '@/lib/server/web/session-cookies';
import { baseUrl, call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { pdfText } from '../helpers/pdf';
import { ik, waitFor } from '../helpers/payments';
import { signInSeller } from '../helpers/sessions';

// Issue 32: the documents a business can file (docs/invoices.md, "What an invoice shows",
// "Credit notes"), on the hosted pages and PDFs, in the reader's language.

type Api = Awaited<ReturnType<typeof newMerchant>>['api'];

const path = (url: string) => new URL(url).pathname;
/** French and German money and dates carry no-break spaces: compared as plain spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f\u2009]/g, ' ');

async function page(url: string, language = 'en') {
  const answer = await fetch(`${baseUrl()}${path(url)}`, { headers: { 'Accept-Language': language } });
  const html = await answer.text();
  expect(answer.status, html.slice(0, 300)).toBe(200);
  // The text a reader sees and the addresses of its links, tags out (React splits text around expressions with comments).
  return plain(
    html
      .replace(/<script[\s\S]*?<\/script>/g, '')
      .replace(/<!-- -->/g, '')
      .replace(/<a [^>]*href="([^"]+)"[^>]*>/g, ' $1 ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#x27;/g, "'")
      .replace(/&amp;/g, '&'),
  );
}

async function pdf(url: string, language: string) {
  const answer = await fetch(`${baseUrl()}${path(url)}`, { headers: { 'Accept-Language': language } });
  const body = Buffer.from(await answer.arrayBuffer());
  expect(answer.status, body.subarray(0, 200).toString('utf8')).toBe(200);
  expect(answer.headers.get('content-type')).toContain('application/pdf');
  return plain(await pdfText(body));
}

/** A German seller with its legal details, a tax rate on a €10.00 product, and a buyer in Berlin. */
async function germanSeller(rate: { displayName: string; percentage: string; inclusive: boolean }, taxExempt: 'none' | 'reverse' = 'none') {
  const { api, merchant } = await newMerchant();
  const { accessToken } = await signInSeller(merchant.email);
  const settings = await call('PUT', '/api/MerchantSettings', {
    key: accessToken,
    body: {
      invoicePrefix: 'ACME',
      legalName: 'Beispiel Werkzeuge GmbH',
      taxId: 'DE123456789',
      invoiceFooter: 'Amtsgericht Berlin HRB 12345',
      address: { line1: 'Hauptstraße 1', city: 'Berlin', postalCode: '10115', country: 'DE' },
    },
  });
  expect(settings.status, settings.text).toBe(200);
  const taxRate = await api.post('/api/TaxRate', rate);
  expect(taxRate.status, taxRate.text).toBe(201);
  const product = await api.post('/api/Product', { name: 'Werkbank' });
  const price = await api.post('/api/Price', { productId: product.body.id, type: 'OneTime', amount: 1000, currency: 'EUR', taxRateIds: [taxRate.body.id] });
  expect(price.status, price.text).toBe(201);
  const email = `kunde-${crypto.randomUUID()}@example.com`;
  const customer = await api.post('/api/Customer', {
    email,
    name: 'Kunde AG',
    address: { line1: 'Kundenweg 7', city: 'München', postalCode: '80331', country: 'DE' },
    taxId: 'DE987654321',
    taxExempt,
  });
  expect(customer.status, customer.text).toBe(201);
  const checkout = await api.post('/api/Checkout', { priceId: price.body.id, customerId: customer.body.id, tokenRef: 'tok_visa' }, ik());
  expect(checkout.status, checkout.text).toBe(201);
  const record = await api.get(`/api/BillingRecord/${checkout.body.billingRecordId}`);
  expect(record.status, record.text).toBe(200);
  return { api, merchant, email, checkout: checkout.body, record: record.body };
}

async function creditNotesOf(api: Api, billingRecordId: string) {
  const notes = await api.get(`/api/CreditNote?billingRecordId=${billingRecordId}`);
  expect(notes.status, notes.text).toBe(200);
  return notes.body.data.toReversed() as { number: string; hostedUrl: string; pdfUrl: string }[];
}

describe('invoice documents', () => {
  it('a German invoice shows its number, both parties’ legal details, the MwSt line per rate and the footer, on the page and the PDF', async () => {
    const { record, email } = await germanSeller({ displayName: 'MwSt', percentage: '19', inclusive: false });
    expect(record).toMatchObject({ number: 'ACME-0001', total: 1190, taxAmount: 190 });

    const german = await page(record.hostedInvoiceUrl, 'de-DE,de;q=0.9');
    for (const text of [
      'Rechnungsnummer',
      'ACME-0001',
      'Beispiel Werkzeuge GmbH',
      'Hauptstraße 1',
      '10115 Berlin',
      'Deutschland',
      'USt-IdNr.: DE123456789',
      'Kunde AG',
      'Kundenweg 7',
      '80331 München',
      'USt-IdNr.: DE987654321',
      'MwSt 19 % auf 10,00 €',
      '1,90 €',
      '11,90 €',
      'Amtsgericht Berlin HRB 12345',
    ]) {
      expect(german).toContain(text);
    }
    // The tax is shown once, with the totals, not also as a line of the table.
    expect(german.match(/MwSt 19/g)).toHaveLength(1);
    expect(german).not.toContain('Steuerschuldnerschaft');

    const germanPdf = await pdf(record.invoicePdfUrl, 'de');
    for (const text of [
      'Rechnungsnummer',
      'ACME-0001',
      'Deutschland',
      'USt-IdNr.: DE123456789',
      'USt-IdNr.: DE987654321',
      'MwSt 19 % auf 10,00 €',
      '11,90 €',
      'Amtsgericht Berlin HRB 12345',
    ]) {
      expect(germanPdf).toContain(text);
    }
    const english = await page(record.hostedInvoiceUrl);
    for (const text of ['Invoice number', 'Germany', 'Tax ID: DE123456789', 'MwSt 19% on €10.00', '€1.90']) expect(english).toContain(text);

    // The receipt email (the customer's language: English, none recorded) prints the same.
    const receipt = await waitFor(async () => {
      const answer = await fetch(`${baseUrl()}/dev/mailbox?format=json&to=${encodeURIComponent(email)}`);
      return ((await answer.json()) as { data: { category: string; text: string }[] }).data.find((mail) => mail.category === 'receipt');
    });
    for (const text of [
      'Receipt ACME-0001',
      'Beispiel Werkzeuge GmbH',
      'Tax ID: DE123456789',
      'Kundenweg 7',
      'Tax ID: DE987654321',
      'MwSt 19% on €10.00: €1.90',
      'Total paid: €11.90',
      'Amtsgericht Berlin HRB 12345',
    ]) {
      expect(receipt.text).toContain(text);
    }
  });

  it('an inclusive rate reads "included"; a reverse-charge invoice says the buyer accounts for VAT, in each language', async () => {
    const { record: included } = await germanSeller({ displayName: 'VAT', percentage: '20', inclusive: true });
    expect(included).toMatchObject({ total: 1000, taxAmount: 167 });
    expect(await page(included.hostedInvoiceUrl)).toContain('VAT 20% on €8.33 (included)');
    expect(await page(included.hostedInvoiceUrl, 'es')).toContain('VAT 20 % sobre 8,33 € (incluido)');

    const { record: reverse } = await germanSeller({ displayName: 'MwSt', percentage: '19', inclusive: false }, 'reverse');
    expect(reverse).toMatchObject({ taxExempt: 'reverse', taxAmount: 0, total: 1000 });
    expect(await page(reverse.hostedInvoiceUrl)).toContain('Reverse charge: the buyer accounts for VAT.');
    expect(await page(reverse.hostedInvoiceUrl, 'de')).toContain('Der Leistungsempfänger schuldet die Umsatzsteuer.');
    expect(await page(reverse.hostedInvoiceUrl, 'fr')).toContain('Autoliquidation : la TVA est due par le preneur.');
    expect(await page(reverse.hostedInvoiceUrl, 'ja')).toContain('リバースチャージ');
    expect(await pdf(reverse.invoicePdfUrl, 'es')).toContain('Inversión del sujeto pasivo');
    // Wrapped on the PDF's narrow page, never cut short.
    expect((await pdf(reverse.invoicePdfUrl, 'de')).replace(/\n/g, ' ')).toContain(
      'Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge): Der Leistungsempfänger schuldet die Umsatzsteuer.',
    );
  });

  it('a partly refunded invoice says so in words and lists its credit note, whose page and PDF read in French', async () => {
    const { api, merchant, checkout, record } = await germanSeller({ displayName: 'TVA', percentage: '20', inclusive: false });
    expect(record.total).toBe(1200);
    const refund = await api.post(`/api/Payment/${checkout.payment.id}/Refund`, { amount: 600 }, ik());
    expect(refund.status, refund.text).toBe(201);
    const [note] = await creditNotesOf(api, record.id);
    expect(note).toMatchObject({ number: 'ACME-CN-0001' });
    expect(note!.hostedUrl).toMatch(/\/credit-note\/[0-9a-f]{64}$/);
    expect(note!.pdfUrl).toBe(`${note!.hostedUrl}/pdf`);

    const english = await page(record.hostedInvoiceUrl);
    for (const text of ['paid · partly refunded', 'partly refunded', 'Credit notes', 'ACME-CN-0001', '-€6.00']) expect(english).toContain(text);
    expect(english).not.toContain('partially_refunded');
    expect(english).toContain(path(note!.hostedUrl));
    const french = await page(record.hostedInvoiceUrl, 'fr');
    for (const text of ['payée · remboursée en partie', 'remboursé en partie', 'Avoirs', 'ACME-CN-0001']) expect(french).toContain(text);
    expect(await pdf(record.invoicePdfUrl, 'fr')).toContain('ACME-CN-0001');

    const creditNote = await page(note!.hostedUrl, 'fr-FR,fr;q=0.9');
    for (const text of [
      'Avoir',
      'Numéro d’avoir',
      'ACME-CN-0001',
      'Avoir sur la facture ACME-0001',
      'Beispiel Werkzeuge GmbH',
      'N° de TVA : DE123456789',
      'Kunde AG',
      'Remboursement partiel de la facture ACME-0001',
      'TVA 20 % sur 5,00 € (incluse)',
      '1,00 €',
      'Total crédité',
      '6,00 €',
    ]) {
      expect(creditNote).toContain(text);
    }
    expect(creditNote).toContain(path(record.hostedInvoiceUrl));
    const creditNotePdf = await pdf(note!.pdfUrl, 'fr');
    for (const text of [
      'Avoir sur la facture ACME-0001',
      'ACME-CN-0001',
      'Remboursement partiel de la facture ACME-0001',
      'TVA 20 % sur 5,00 € (incluse)',
      'Total crédité',
      '6,00 €',
    ]) {
      expect(creditNotePdf).toContain(text);
    }
    expect(await page(note!.hostedUrl, 'ja')).toContain('請求書 ACME-0001 のクレジットノート');
    // The portal's billing history says it in words too.
    const german = customerText('de');
    const [history] = (await portalOverview(getDb(), merchant.id, record.customerId, german)).history;
    expect(german.t('portal.recordStatus', { status: history!.status })).toBe('bezahlt · teilweise erstattet');

    // The seller's console: the customer's page shows the number, the tax line, the state in words and the credit note.
    const { accessToken } = await signInSeller(merchant.email);
    const consolePage = await fetch(`${baseUrl()}/merchant/customers/${record.customerId}`, {
      headers: { Cookie: `${accessCookieName('merchant')}=${accessToken}` },
    });
    expect(consolePage.status).toBe(200);
    const consoleText = plain((await consolePage.text()).replace(/<script[\s\S]*?<\/script>/g, '').replace(/<!-- -->/g, ''));
    for (const text of ['ACME-0001', 'Paid · partly refunded', 'TVA 20% on €10.00: €2.00', 'Credit notes', 'ACME-CN-0001', note!.hostedUrl])
      expect(consoleText).toContain(text);
    expect(consoleText).not.toMatch(/>partially_refunded</);
    const paymentPage = await fetch(`${baseUrl()}/merchant/payments/${checkout.payment.id}`, {
      headers: { Cookie: `${accessCookieName('merchant')}=${accessToken}` },
    });
    const paymentText = await paymentPage.text();
    for (const text of ['ACME-0001', 'ACME-CN-0001', '-€6.00', note!.pdfUrl, record.invoicePdfUrl]) expect(paymentText).toContain(text);

    // The rest refunded: "paid · refunded"; an unknown token is not found.
    expect((await api.post(`/api/Payment/${checkout.payment.id}/Refund`, {}, ik())).status).toBe(201);
    expect(await page(record.hostedInvoiceUrl, 'de')).toContain('bezahlt · erstattet');
    expect((await fetch(`${baseUrl()}/credit-note/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await fetch(`${baseUrl()}/credit-note/${'0'.repeat(64)}/pdf`)).status).toBe(404);
  });
});
