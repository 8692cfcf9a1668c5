import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { searchConsole } from '@/lib/search/console-search';
import { newMerchant } from '../helpers/merchants';
import { adHocLink, ik, oneTimePrice } from '../helpers/payments';

describe('console search', () => {
  it('finds customers by email, name, id and external id, and a customer’s payments and events by email', async () => {
    const { api, merchant } = await newMerchant();
    const ada = await api.post('/api/Customer', { email: 'Ada.Lovelace@Example.com', name: 'Ada Lovelace', externalId: 'crm-42' }, ik());
    expect(ada.status, ada.text).toBe(201);
    await api.post('/api/Customer', { email: 'grace@example.com', name: 'Grace Hopper' }, ik());
    const price = await oneTimePrice(api, 1500);
    const checkout = await api.post('/api/Checkout', { priceId: price.id, customerId: ada.body.id, tokenRef: 'tok_visa' }, ik());
    expect(checkout.status, checkout.text).toBe(201);
    const search = (q: string) => searchConsole(getDb(), merchant.id, q);

    const byEmail = await search('ada.lovelace@example.COM');
    expect(byEmail.customers.map((c) => c.id)).toEqual([ada.body.id]);
    expect(byEmail.payments.map((p) => p.id)).toEqual([checkout.body.payment.id]);
    expect(byEmail.events.map((e) => e.type)).toContain('customer.created');
    expect((await search('ada.love')).customers.map((c) => c.id)).toEqual([ada.body.id]);
    expect((await search('hopper')).customers.map((c) => c.email)).toEqual(['grace@example.com']);
    expect((await search(ada.body.id)).customers.map((c) => c.id)).toEqual([ada.body.id]);
    expect((await search('crm-42')).customers.map((c) => c.id)).toEqual([ada.body.id]);
    // `%` is a literal, not a wildcard.
    expect((await search('%')).customers).toEqual([]);
  });

  it('finds payments, checkouts, payment links and events by id, only within the seller', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 900);
    const checkout = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'buyer@example.com', tokenRef: 'tok_visa' }, ik());
    const link = await adHocLink(api);
    const event = (await api.get('/api/WebhookEvent?pageSize=1')).body.data[0];
    const search = (q: string) => searchConsole(getDb(), merchant.id, q);
    expect((await search(checkout.body.payment.id)).payments.map((p) => p.id)).toEqual([checkout.body.payment.id]);
    expect((await search(checkout.body.id)).checkouts.map((c) => c.paymentId)).toEqual([checkout.body.payment.id]);
    expect((await search(link.id)).paymentLinks.map((l) => l.name)).toEqual(['Consulting hour']);
    expect((await search(event.id)).events.map((e) => e.id)).toEqual([event.id]);

    const other = await newMerchant();
    const elsewhere = await searchConsole(getDb(), other.merchant.id, checkout.body.payment.id);
    expect(elsewhere.payments).toEqual([]);
    expect((await searchConsole(getDb(), other.merchant.id, 'buyer@example.com')).customers).toEqual([]);
  });
});
