import { describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { eventsOf, ik, oneTimePrice } from '../helpers/payments';
import { signInSeller } from '../helpers/sessions';

// Issue 32: every billing record gets an invoice number from the seller's gapless sequence.

type Api = Awaited<ReturnType<typeof newMerchant>>['api'];

/** The seller's Settings, as the console (a signed-in Owner) reads and changes them. */
async function settingsOf(merchant: { email: string }) {
  const { accessToken } = await signInSeller(merchant.email);
  return {
    get: () => call('GET', '/api/MerchantSettings', { key: accessToken }),
    put: (body: unknown) => call('PUT', '/api/MerchantSettings', { key: accessToken, body }),
  };
}

async function checkout(api: Api, priceId: string, tokenRef = 'tok_visa') {
  return api.post('/api/Checkout', { priceId, customerEmail: `n-${crypto.randomUUID()}@example.com`, tokenRef }, ik());
}

async function recordOf(api: Api, billingRecordId: string) {
  const record = await api.get(`/api/BillingRecord/${billingRecordId}`);
  expect(record.status, record.text).toBe(200);
  return record.body as { id: string; number: string; status: string };
}

describe('invoice numbers', () => {
  it('numbers paid checkouts ACME-0001, -0002, -0003 in order, skips nothing for a decline, and says so in the events', async () => {
    const { api, merchant } = await newMerchant();
    const settings = await settingsOf(merchant);
    const prefixed = await settings.put({ invoicePrefix: 'acme' });
    expect(prefixed.status, prefixed.text).toBe(200);
    expect(prefixed.body).toMatchObject({ invoicePrefix: 'ACME', nextInvoiceNumber: 'ACME-0001' });
    const price = await oneTimePrice(api, 1000);

    const numbers: string[] = [];
    for (const [index, token] of ['tok_visa', 'tok_visa', 'tok_declined', 'tok_visa'].entries()) {
      const answer = await checkout(api, price.id, token);
      if (token === 'tok_declined') {
        expect(answer.status, `checkout ${index}: ${answer.text}`).toBe(402);
        continue;
      }
      expect(answer.status, `checkout ${index}: ${answer.text}`).toBe(201);
      numbers.push((await recordOf(api, answer.body.billingRecordId)).number);
    }
    expect(numbers).toEqual(['ACME-0001', 'ACME-0002', 'ACME-0003']);
    expect((await settings.get()).body.nextInvoiceNumber).toBe('ACME-0004');

    // The events written with the record carry the number the record got as it committed.
    const created = await eventsOf(merchant.id, 'billing_record.created');
    const paid = await eventsOf(merchant.id, 'billing_record.paid');
    expect(created.map((event) => event.data.object.number)).toEqual(numbers);
    expect(paid.map((event) => event.data.object.number)).toEqual(numbers);
    const webhookEvent = await api.get(`/api/WebhookEvent/${created[0]!.id}`);
    expect(webhookEvent.body.data.object.number, webhookEvent.text).toBe('ACME-0001');
  });

  it('issues a credit note for each refund, numbered ACME-CN-0001, -0002, referencing the invoice it reduces', async () => {
    const { api, merchant } = await newMerchant();
    const settings = await settingsOf(merchant);
    await settings.put({ invoicePrefix: 'ACME' });
    const price = await oneTimePrice(api, 1000);
    const paid = [];
    for (let i = 0; i < 3; i++) paid.push((await checkout(api, price.id)).body);
    expect(await Promise.all(paid.map(async (c) => (await recordOf(api, c.billingRecordId)).number))).toEqual(['ACME-0001', 'ACME-0002', 'ACME-0003']);

    const partial = await api.post(`/api/Payment/${paid[0].payment.id}/Refund`, { amount: 400, reason: 'requested_by_customer' }, ik());
    expect(partial.status, partial.text).toBe(201);
    const rest = await api.post(`/api/Payment/${paid[0].payment.id}/Refund`, {}, ik());
    expect(rest.status, rest.text).toBe(201);
    const third = await api.post(`/api/Payment/${paid[2].payment.id}/Refund`, { amount: 1 }, ik());
    expect(third.status, third.text).toBe(201);

    const notes = await api.get(`/api/CreditNote?billingRecordId=${paid[0].billingRecordId}`);
    expect(notes.status, notes.text).toBe(200);
    // Newest first, as every list.
    expect(notes.body.data.toReversed()).toEqual([
      expect.objectContaining({
        number: 'ACME-CN-0001',
        invoiceNumber: 'ACME-0001',
        refundId: partial.body.id,
        amount: 400,
        currency: 'USD',
        reason: 'requested_by_customer',
        lineItems: [{ description: 'Partial refund of invoice ACME-0001', quantity: 1, unitAmount: 400, amount: 400 }],
      }),
      expect.objectContaining({ number: 'ACME-CN-0002', invoiceNumber: 'ACME-0001', refundId: rest.body.id, amount: 600 }),
    ]);
    const one = await api.get(`/api/CreditNote/${notes.body.data[0].id}`);
    expect(one.body).toEqual(notes.body.data[0]);
    const all = await api.get('/api/CreditNote');
    expect(all.body.data.map((note: { number: string }) => note.number).sort()).toEqual(['ACME-CN-0001', 'ACME-CN-0002', 'ACME-CN-0003']);
    // Credit notes have their own sequence: the next invoice is still ACME-0004.
    expect((await settings.get()).body.nextInvoiceNumber).toBe('ACME-0004');
    const events = await eventsOf(merchant.id, 'credit_note.created');
    expect(events.map((event) => [event.data.object.number, event.data.object.invoiceNumber])).toEqual([
      ['ACME-CN-0001', 'ACME-0001'],
      ['ACME-CN-0002', 'ACME-0001'],
      ['ACME-CN-0003', 'ACME-0003'],
    ]);
    // Another seller sees none of them.
    const other = await newMerchant();
    expect((await other.api.get(`/api/CreditNote/${notes.body.data[0].id}`)).status).toBe(404);
  });

  it('gives concurrent checkouts every number once, without a gap', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 500);
    const answers = await Promise.all(Array.from({ length: 12 }, () => checkout(api, price.id)));
    for (const answer of answers) expect(answer.status, answer.text).toBe(201);
    const list = await api.get('/api/BillingRecord?pageSize=100');
    const numbers = list.body.data.map((r: { number: string }) => r.number).sort();
    // No prefix set: the business name's letters and digits, upper case, at most 12.
    const prefix = merchant.name
      .replace(/[^A-Za-z0-9]/g, '')
      .toUpperCase()
      .slice(0, 12);
    expect(numbers).toEqual(Array.from({ length: 12 }, (_, i) => `${prefix}-${String(i + 1).padStart(4, '0')}`));
  });

  it('applies a new prefix to the next number, the sequence going on; refuses a malformed one naming the field', async () => {
    const { api, merchant } = await newMerchant();
    const settings = await settingsOf(merchant);
    const price = await oneTimePrice(api, 700);
    expect((await settings.put({ invoicePrefix: 'OLD' })).status).toBe(200);
    const first = await checkout(api, price.id);
    expect((await settings.put({ invoicePrefix: 'NEW-2026' })).status).toBe(200);
    const second = await checkout(api, price.id);
    expect((await recordOf(api, first.body.billingRecordId)).number).toBe('OLD-0001');
    expect((await recordOf(api, second.body.billingRecordId)).number).toBe('NEW-2026-0002');

    const bad = await settings.put({ invoicePrefix: 'no spaces/slashes' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).toEqual(['invoicePrefix']);
    // Cleared: made from the business name again.
    const cleared = await settings.put({ invoicePrefix: null });
    expect(cleared.body.invoicePrefix).toBeNull();
    expect(cleared.body.nextInvoiceNumber).toMatch(/^SELLER[0-9A-F]{6}-0003$/);
  });
});

describe('what invoices print about the buyer and the seller', () => {
  it("keeps a customer's billing address, tax id and exemption, and the seller's legal name, tax id and footer", async () => {
    const { api, merchant } = await newMerchant();
    const created = await api.post('/api/Customer', {
      email: 'buyer@example.com',
      address: { line1: '1 Rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'fr' },
      taxId: 'FR40303265045',
      taxExempt: 'reverse',
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({
      address: { line1: '1 Rue de Rivoli', line2: null, city: 'Paris', region: null, postalCode: '75001', country: 'FR' },
      taxId: 'FR40303265045',
      taxExempt: 'reverse',
    });
    const plain = await api.post('/api/Customer', { email: 'plain@example.com' });
    expect(plain.body).toMatchObject({ address: null, taxId: null, taxExempt: 'none' });
    const cleared = await api.put(`/api/Customer/${created.body.id}`, { address: null, taxExempt: 'none' });
    expect(cleared.body).toMatchObject({ address: null, taxId: 'FR40303265045', taxExempt: 'none' });
    const bad = await api.put(`/api/Customer/${created.body.id}`, { address: { country: 'France' }, taxExempt: 'sometimes' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: { path: string }) => error.path).sort()).toEqual(['address.country', 'taxExempt']);

    const settings = await settingsOf(merchant);
    const saved = await settings.put({ legalName: 'Acme Tools Ltd', taxId: 'GB123456789', invoiceFooter: 'Registered in England, no. 01234567.' });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ legalName: 'Acme Tools Ltd', taxId: 'GB123456789', invoiceFooter: 'Registered in England, no. 01234567.' });
    expect((await settings.put({ taxId: null })).body.taxId).toBeNull();
  });
});
