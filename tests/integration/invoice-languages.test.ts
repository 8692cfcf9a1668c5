import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { customers } from '@/lib/db/schema';
import { baseUrl } from '../helpers/api';
import { pdfText } from '../helpers/pdf';
import { newMerchant } from '../helpers/merchants';
import { ik, oneTimePrice, waitFor } from '../helpers/payments';

const path = (url: string) => new URL(url).pathname;

async function mailbox(to: string) {
  const answer = await fetch(`${baseUrl()}/dev/mailbox?format=json&to=${encodeURIComponent(to)}`);
  return ((await answer.json()) as { data: { subject: string; category: string; text: string }[] }).data;
}

/** The PDF's text in a reader's language; anything but a PDF fails with what came instead. */
async function invoicePdfText(url: string, language: string): Promise<string> {
  const answer = await fetch(`${baseUrl()}${path(url)}`, { headers: { 'Accept-Language': language } });
  const body = Buffer.from(await answer.arrayBuffer());
  const what = `${answer.status} ${answer.headers.get('content-type')}: ${body.subarray(0, 300).toString('utf8')}`;
  expect(answer.status, what).toBe(200);
  expect(answer.headers.get('content-type'), what).toContain('application/pdf');
  return pdfText(body);
}

describe('invoices and receipts in the customer’s language', () => {
  it('the hosted invoice and its PDF follow Accept-Language; the receipt email the customer’s recorded language', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 123456, 'EUR');
    const email = `kunde-${Date.now()}@example.com`;
    const customer = await api.post('/api/Customer', { email, name: 'Grete Łukasiewicz-Дмитриева' });
    expect(customer.status, customer.text).toBe(201);
    // As a German hosted checkout would have recorded it.
    await getDb().update(customers).set({ locale: 'de' }).where(eq(customers.id, customer.body.id));
    const checkout = await api.post('/api/Checkout', { priceId: price.id, customerId: customer.body.id, tokenRef: 'tok_visa' }, ik());
    expect(checkout.status, checkout.text).toBe(201);
    const [record] = (await api.get(`/api/BillingRecord?customerId=${customer.body.id}`)).body.data;

    const german = await (await fetch(`${baseUrl()}${path(record.hostedInvoiceUrl)}`, { headers: { 'Accept-Language': 'de-DE,de;q=0.9' } })).text();
    for (const text of ['lang="de"', 'Quittung', 'Zwischensumme', 'Bezahlter Betrag', 'PDF herunterladen', '1.234,56']) expect(german).toContain(text);
    expect(german).not.toContain('Subtotal');
    const japanese = await (await fetch(`${baseUrl()}${path(record.hostedInvoiceUrl)}`, { headers: { 'Accept-Language': 'ja' } })).text();
    for (const text of ['領収書', '小計', '€1,234.56']) expect(japanese).toContain(text);
    const english = await (await fetch(`${baseUrl()}${path(record.hostedInvoiceUrl)}`)).text();
    for (const text of ['Receipt', 'Subtotal', '€1,234.56']) expect(english).toContain(text);

    const frenchPdf = await invoicePdfText(record.invoicePdfUrl, 'fr');
    // A name in Latin Extended and Cyrillic letters prints as written, not as question marks.
    for (const text of ['Reçu', 'Sous-total', 'Montant payé', merchant.name, 'Grete Łukasiewicz-Дмитриева']) expect(frenchPdf).toContain(text);
    // Japanese is drawn in the embedded font, Latin text and the amounts in Helvetica.
    const japanesePdf = await invoicePdfText(record.invoicePdfUrl, 'ja');
    for (const text of ['領収書', '小計', '支払済み金額', '€1,234.56', merchant.name]) expect(japanesePdf).toContain(text);
    expect(japanesePdf).not.toContain('Subtotal');
    expect(japanesePdf).not.toContain('?');

    const receipt = await waitFor(async () => (await mailbox(email)).find((m) => m.category === 'receipt'));
    expect(receipt.subject).toBe(`Ihre Quittung von ${merchant.name} (1.234,56\u00a0€)`);
    expect(receipt.text).toContain(`Vielen Dank für Ihre Zahlung an ${merchant.name}.`);
    expect(receipt.text).toContain('Bezahlt insgesamt: 1.234,56\u00a0€');
  });
});
