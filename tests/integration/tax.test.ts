import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { billingRecords } from '@/lib/db/schema';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { adHocLink, ik } from '../helpers/payments';
import { loadHostedCheckout, payHostedCheckout, quoteHostedCheckout } from '@/lib/checkout/hosted';
import { customerText } from '@/lib/i18n/customer-text';
import { signInSeller } from '../helpers/sessions';
import { advance, clockFor, customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

// Issue 32: tax applied to every charge, per line, exactly (docs/invoices.md, "Tax").

type Api = Awaited<ReturnType<typeof newMerchant>>['api'];

async function taxRate(api: Api, body: Record<string, unknown>) {
  const answer = await api.post('/api/TaxRate', { displayName: 'VAT', ...body });
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id as string;
}

async function pricedAt(api: Api, amount: number, taxRateIds: string[] = [], currency = 'USD') {
  const product = await api.post('/api/Product', { name: 'Desk lamp' });
  const price = await api.post('/api/Price', { productId: product.body.id, type: 'OneTime', amount, currency, ...(taxRateIds.length ? { taxRateIds } : {}) });
  expect(price.status, price.text).toBe(201);
  return price.body as { id: string; taxRateIds: string[] };
}

async function checkout(api: Api, priceId: string, extra: Record<string, unknown> = {}) {
  const answer = await api.post('/api/Checkout', { priceId, customerEmail: `t-${crypto.randomUUID()}@example.com`, tokenRef: 'tok_visa', ...extra }, ik());
  expect(answer.status, answer.text).toBe(201);
  const record = await api.get(`/api/BillingRecord/${answer.body.billingRecordId}`);
  expect(record.status, record.text).toBe(200);
  return { checkout: answer.body, record: record.body };
}

describe('tax on charges', () => {
  it('adds a 20 % exclusive rate on $10.00 (charged $12.00, a $2.00 tax line) and takes a 20 % inclusive rate out of $12.00', async () => {
    const { api } = await newMerchant();
    const exclusive = await taxRate(api, { displayName: 'Sales tax', percentage: '20', inclusive: false });
    const inclusive = await taxRate(api, { percentage: '20', inclusive: true });

    const added = await checkout(api, (await pricedAt(api, 1000, [exclusive])).id);
    expect(added.checkout).toMatchObject({ subtotal: 1000, taxAmount: 200, total: 1200 });
    expect(added.checkout.payment).toMatchObject({ amount: 1200, status: 'succeeded' });
    expect(added.record).toMatchObject({ subtotal: 1000, taxAmount: 200, total: 1200, amountPaid: 1200, taxExempt: 'none' });
    expect(added.record.taxes).toEqual([
      {
        taxRateId: exclusive,
        displayName: 'Sales tax',
        percentage: '20',
        inclusive: false,
        country: null,
        jurisdiction: null,
        taxableAmount: 1000,
        amount: 200,
      },
    ]);
    expect(added.record.lineItems.map((line: { kind: string; amount: number }) => [line.kind, line.amount])).toEqual([
      ['one_time', 1000],
      ['tax', 200],
    ]);
    expect(added.record.lineItems[1]).toMatchObject({ description: 'Sales tax 20%', taxRateId: exclusive });
    expect(added.record.lineItems[0].taxes[0]).toMatchObject({ taxableAmount: 1000, amount: 200 });

    const included = await checkout(api, (await pricedAt(api, 1200, [inclusive])).id);
    expect(included.checkout).toMatchObject({ subtotal: 1200, taxAmount: 200, total: 1200 });
    expect(included.record).toMatchObject({ taxAmount: 200, total: 1200 });
    expect(included.record.taxes).toMatchObject([{ taxRateId: inclusive, inclusive: true, taxableAmount: 1000, amount: 200 }]);
    expect(included.record.lineItems.map((line: { kind: string }) => line.kind)).toEqual(['one_time']);
  });

  it('rounds each line once, half away from zero, after the discount, and gives tax back in proportion on a credit note', async () => {
    const { api } = await newMerchant();
    const rate = await taxRate(api, { displayName: 'Sales tax', percentage: '8.875', inclusive: false, country: 'US', jurisdiction: 'NY' });
    const price = await pricedAt(api, 999, [rate]);
    const coupon = await api.post('/api/Coupon', { name: 'Ten off', percentOff: 10, duration: 'once' });
    expect(coupon.status, coupon.text).toBe(201);
    const code = await api.post('/api/PromotionCode', { couponId: coupon.body.id, code: `TEN${Date.now()}` });
    expect(code.status, code.text).toBe(201);

    // 999 − 100 (10 %, rounded) = 899; 899 × 8.875 % = 79.78… → 80. The rate is for US buyers only.
    const { checkout: paid, record } = await checkout(api, price.id, {
      promotionCode: code.body.code,
      billingAddress: { line1: '1 Main St', city: 'New York', region: 'NY', postalCode: '10001', country: 'us' },
    });
    expect(paid).toMatchObject({ subtotal: 999, discountAmount: 100, taxAmount: 80, total: 979 });
    expect(record.taxes).toMatchObject([{ percentage: '8.875', jurisdiction: 'NY', taxableAmount: 899, amount: 80 }]);
    expect(record.lineItems.find((line: { kind: string }) => line.kind === 'tax')).toMatchObject({ description: 'Sales tax (NY) 8.875%', amount: 80 });
    const customer = await api.get(`/api/Customer/${paid.customerId}`);
    expect(customer.body.address).toMatchObject({ city: 'New York', country: 'US' });

    const refund = await api.post(`/api/Payment/${paid.payment.id}/Refund`, { amount: 490 }, ik());
    expect(refund.status, refund.text).toBe(201);
    const notes = await api.get(`/api/CreditNote?billingRecordId=${record.id}`);
    // 80 × 490 / 979 = 40.04… → 40.
    expect(notes.body.data).toMatchObject([{ amount: 490, taxAmount: 40, taxes: [{ taxRateId: rate, amount: 40 }] }]);
  });

  it("uses the seller's default rates for prices that name none, chosen by the country of the customer's address", async () => {
    const { api, merchant } = await newMerchant();
    const german = await taxRate(api, { displayName: 'MwSt', percentage: '19', inclusive: true, country: 'DE' });
    const french = await taxRate(api, { displayName: 'TVA', percentage: '20', inclusive: true, country: 'FR' });
    const own = await taxRate(api, { displayName: 'Reduced VAT', percentage: '7', inclusive: true });
    const { accessToken } = await signInSeller(merchant.email);
    const defaults = await call('PUT', '/api/MerchantSettings', { key: accessToken, body: { defaultTaxRateIds: [german, french] } });
    expect(defaults.status, defaults.text).toBe(200);
    expect(defaults.body.defaultTaxRateIds).toEqual([german, french]);

    const plain = await pricedAt(api, 1190, [], 'EUR');
    const inGermany = await checkout(api, plain.id, { billingAddress: { country: 'DE' } });
    expect(inGermany.record.taxes).toMatchObject([{ taxRateId: german, taxableAmount: 1000, amount: 190 }]);
    const inFrance = await checkout(api, plain.id, { billingAddress: { country: 'FR' }, customerTaxId: 'FR40303265045' });
    expect(inFrance.record.taxes).toMatchObject([{ taxRateId: french, amount: 198 }]);
    const nowhere = await checkout(api, plain.id);
    expect(nowhere.record).toMatchObject({ taxAmount: 0, taxes: [], total: 1190 });

    // A price's own rates replace the defaults.
    const reduced = await pricedAt(api, 1070, [own], 'EUR');
    expect((await checkout(api, reduced.id, { billingAddress: { country: 'DE' } })).record.taxes).toMatchObject([{ taxRateId: own, amount: 70 }]);

    // An exempt or reverse-charge customer is charged no tax; the record says which.
    const business = await api.post('/api/Customer', {
      email: `b-${Date.now()}@example.com`,
      address: { country: 'DE' },
      taxId: 'DE123456789',
      taxExempt: 'reverse',
    });
    expect(business.status, business.text).toBe(201);
    const reverse = await checkout(api, plain.id, { customerEmail: undefined, customerId: business.body.id });
    expect(reverse.record).toMatchObject({ taxAmount: 0, taxes: [], taxExempt: 'reverse', total: 1190 });

    // The record keeps the parties' details as they were when it was numbered.
    const [issued] = await getDb().select().from(billingRecords).where(eq(billingRecords.id, inFrance.record.id));
    expect(issued!.customerDetails).toMatchObject({ taxId: 'FR40303265045', address: { country: 'FR' } });
    expect(issued!.sellerDetails).toMatchObject({ name: merchant.name });
  });

  it('refuses tax rates of another seller or archived ones, naming the field', async () => {
    const { api } = await newMerchant();
    const other = await newMerchant();
    const foreign = await taxRate(other.api, { percentage: '20', inclusive: true });
    const archived = await taxRate(api, { percentage: '5', inclusive: false });
    await api.put(`/api/TaxRate/${archived}`, { active: false });
    const product = await api.post('/api/Product', { name: 'Lamp' });
    for (const [ids, path] of [
      [[foreign], 'taxRateIds.0'],
      [['txr_missing', archived], 'taxRateIds.0'],
    ] as const) {
      const answer = await api.post('/api/Price', { productId: product.body.id, type: 'OneTime', amount: 100, currency: 'USD', taxRateIds: ids });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.errors[0].path).toBe(path);
    }
    const price = await pricedAt(api, 100);
    const set = await api.put(`/api/Price/${price.id}`, { taxRateIds: [archived] });
    expect(set.status).toBe(400);
    expect(set.body.errors[0].path).toBe('taxRateIds.0');
  });

  it('taxes a subscription’s first period, its renewals, an upgrade’s proration and the upcoming invoice', async () => {
    const { api, merchant } = await newMerchant();
    const rate = await taxRate(api, { displayName: 'GST', percentage: '10', inclusive: false });
    const basic = await recurringPrice(api, { amount: 1000 });
    const pro = await recurringPrice(api, { amount: 3000, productId: basic.productId });
    for (const price of [basic, pro]) expect((await api.put(`/api/Price/${price.id}`, { taxRateIds: [rate] })).status).toBe(200);
    const customer = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, customer.customerId, '2026-01-01T00:00:00Z');
    const created = await subscribe(api, { customerId: customer.customerId, priceId: basic.id });
    expect(created.status, created.text).toBe(201);
    const subscriptionId = created.body.id ?? created.body.subscription.id;

    const upcoming = await api.get(`/api/Subscription/${subscriptionId}/UpcomingInvoice`);
    expect(upcoming.body).toMatchObject({ subtotal: 1000, taxAmount: 100, total: 1100 });

    // Halfway through January: 2000 for the rest of the period (net of the unused 1000 → +1000 in half a month) plus 10 %.
    await advance(api, clock, '2026-01-16T12:00:00Z');
    const preview = await api.post(`/api/Subscription/${subscriptionId}/Preview`, { priceId: pro.id });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.taxAmount).toBe(Math.round(preview.body.net / 10));
    expect(preview.body.amountDueNow).toBe(preview.body.net + preview.body.taxAmount);
    const changed = await api.post(`/api/Subscription/${subscriptionId}/Command`, { type: 'ChangePrice', priceId: pro.id }, ik());
    expect(changed.status, changed.text).toBe(200);

    await advance(api, clock, '2026-02-01T02:00:00Z');
    const records = (await api.get(`/api/BillingRecord?subscriptionId=${subscriptionId}&orderBy=createdAt&orderDirection=asc`)).body.data;
    expect(records.map((record: { total: number; taxAmount: number }) => [record.total, record.taxAmount])).toEqual([
      [1100, 100],
      [preview.body.amountDueNow, preview.body.taxAmount],
      [3300, 300],
    ]);
    for (const record of records) {
      const lines = record.lineItems as { amount: number }[];
      expect(lines.reduce((sum, line) => sum + line.amount, 0)).toBe(record.total);
      expect(record.payments.at(-1).amount).toBe(record.total);
    }
  });
});

describe('tax on the hosted checkout', () => {
  it('asks for the billing address when the seller collects it, shows the tax for the chosen country, and charges that total', async () => {
    const { api, merchant } = await newMerchant();
    const salesTax = await taxRate(api, { displayName: 'Sales tax', percentage: '10', inclusive: false, country: 'US' });
    const vat = await taxRate(api, { displayName: 'VAT', percentage: '20', inclusive: true, country: 'GB' });
    const { accessToken } = await signInSeller(merchant.email);
    const settings = await call('PUT', '/api/MerchantSettings', {
      key: accessToken,
      body: { collectBillingAddress: true, defaultTaxRateIds: [salesTax, vat] },
    });
    expect(settings.body).toMatchObject({ collectBillingAddress: true });
    const link = await adHocLink(api, { unitAmount: 1000 });

    const view = await loadHostedCheckout(getDb(), link.token);
    expect(view).toMatchObject({ collectBillingAddress: true, taxLines: [], total: '$10.00' });
    expect(await quoteHostedCheckout(getDb(), link.token, { country: 'US' })).toMatchObject({
      ok: true,
      taxLines: [{ label: 'Sales tax 10%', amount: '$1.00' }],
      total: '$11.00',
    });
    expect(await quoteHostedCheckout(getDb(), link.token, { country: 'GB' })).toMatchObject({
      taxLines: [{ label: 'VAT 20% (included)', amount: '$1.67' }],
      total: '$10.00',
    });
    const german = await quoteHostedCheckout(getDb(), link.token, { country: 'GB' }, customerText('de'));
    expect(german).toMatchObject({ taxLines: [{ label: 'VAT 20% (enthalten)' }] });

    const card = {
      token: link.token,
      email: `hosted-${Date.now()}@example.com`,
      name: 'Ada',
      cardNumber: '4242 4242 4242 4242',
      expiry: '12 / 34',
      cvc: '123',
      promotionCode: '',
      saveCard: false,
    };
    const noCountry = await payHostedCheckout(getDb(), {
      ...card,
      attemptKey: crypto.randomUUID(),
      billingAddress: { line1: '', postalCode: '', city: '', country: '' },
    });
    expect(noCountry).toMatchObject({ kind: 'invalid', field: 'billingCountry' });
    const paid = await payHostedCheckout(getDb(), {
      ...card,
      attemptKey: crypto.randomUUID(),
      billingAddress: { line1: '5 Elm St', postalCode: '94107', city: 'San Francisco', country: 'us' },
      taxId: 'US-EIN-12-3456789',
    });
    expect(paid).toMatchObject({ kind: 'paid' });
    const checkoutId = (paid as { checkoutId: string }).checkoutId;
    const checkout = (await api.get(`/api/Checkout/${checkoutId}`)).body;
    expect(checkout).toMatchObject({ subtotal: 1000, taxAmount: 100, total: 1100, payment: { amount: 1100 } });
    const customer = (await api.get(`/api/Customer/${checkout.customerId}`)).body;
    expect(customer).toMatchObject({ address: { line1: '5 Elm St', city: 'San Francisco', postalCode: '94107', country: 'US' }, taxId: 'US-EIN-12-3456789' });
  });
});

describe('tax on a subscription’s hosted checkout', () => {
  it('shows the first charge and the periods after it with tax, and charges exactly that', async () => {
    const { api, merchant } = await newMerchant();
    const salesTax = await taxRate(api, { displayName: 'Sales tax', percentage: '10', inclusive: false, country: 'US' });
    const { accessToken } = await signInSeller(merchant.email);
    await call('PUT', '/api/MerchantSettings', { key: accessToken, body: { collectBillingAddress: true, defaultTaxRateIds: [salesTax] } });
    const price = await recurringPrice(api, { amount: 1000 });
    const link = await api.post('/api/PaymentLink', { priceId: price.id });
    expect(link.status, link.text).toBe(201);

    const quote = await quoteHostedCheckout(getDb(), link.body.token, { country: 'US' });
    expect(quote).toMatchObject({ ok: true, total: '$11.00', taxLines: [{ label: 'Sales tax 10%', amount: '$1.00' }] });
    expect((quote as { subscription: { summary: string } }).subscription.summary).toMatch(/^\$11\.00 today, then \$11\.00\/month from /);
    expect(await quoteHostedCheckout(getDb(), link.body.token, { country: 'FR' })).toMatchObject({ total: '$10.00', taxLines: [] });

    const paid = await payHostedCheckout(getDb(), {
      token: link.body.token,
      attemptKey: crypto.randomUUID(),
      email: `sub-${Date.now()}@example.com`,
      name: 'Ada',
      cardNumber: '4242 4242 4242 4242',
      expiry: '12 / 34',
      cvc: '123',
      promotionCode: '',
      saveCard: false,
      billingAddress: { line1: '', postalCode: '', city: '', country: 'US' },
    });
    expect(paid).toMatchObject({ kind: 'paid' });
    const checkout = (await api.get(`/api/Checkout/${(paid as { checkoutId: string }).checkoutId}`)).body;
    expect(checkout).toMatchObject({ total: 1100, taxAmount: 100, payment: { amount: 1100 } });
  });
});
