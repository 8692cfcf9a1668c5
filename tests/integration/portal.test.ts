import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { listDevMailbox } from '@/lib/email/dev-mailbox';
import { portalSessionCustomer, requestPortalLink, verifyPortalLink } from '@/lib/portal/portal';
import { portalOverview } from '@/lib/portal/overview';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

async function linkTokenFor(email: string) {
  const mail = (await listDevMailbox(getDb(), { to: email, limit: 20 })).find((sent) => sent.category === 'portal.link');
  expect(mail, 'portal email').toBeDefined();
  const match = /verify\?token=([A-Za-z0-9_%-]+)/.exec(JSON.stringify(mail));
  return decodeURIComponent(match![1]!);
}

describe('customer portal access', () => {
  it('mails a single-use link; verifying needs the customer’s own email; the session is bound to that customer', async () => {
    const { api, merchant } = await newMerchant();
    const a = await customerWithCard(api, merchant.id, undefined, `portal-a-${Date.now()}@example.com`);
    const b = await customerWithCard(api, merchant.id, undefined, `portal-b-${Date.now()}@example.com`);
    await getDb().transaction((tx) => requestPortalLink(tx, a.customerId));
    const token = await linkTokenFor(a.email);

    // Another customer's portal path does not accept this link.
    await expect(getDb().transaction((tx) => verifyPortalLink(tx, b.customerId, token, b.email))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    // Someone who has the link but not the email cannot use it, and does not spend it.
    await expect(getDb().transaction((tx) => verifyPortalLink(tx, a.customerId, token, 'attacker@example.com'))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    const session = await getDb().transaction((tx) => verifyPortalLink(tx, a.customerId, token, a.email.toUpperCase()));
    expect(session.length).toBeGreaterThan(20);
    // Single use.
    await expect(getDb().transaction((tx) => verifyPortalLink(tx, a.customerId, token, a.email))).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });

    const found = await portalSessionCustomer(getDb(), a.customerId, session);
    expect(found?.customer.id).toBe(a.customerId);
    expect(found!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(30 * 60 * 1000);
    expect(await portalSessionCustomer(getDb(), b.customerId, session)).toBeUndefined();
  });

  it('says nothing about unknown customers and limits how many links are mailed', async () => {
    const { api, merchant } = await newMerchant();
    await getDb().transaction((tx) => requestPortalLink(tx, 'cus_does_not_exist'));
    const a = await customerWithCard(api, merchant.id, undefined, `portal-c-${Date.now()}@example.com`);
    for (let i = 0; i < 5; i++) await getDb().transaction((tx) => requestPortalLink(tx, a.customerId));
    await expect(getDb().transaction((tx) => requestPortalLink(tx, a.customerId))).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });

  it('the portal page without a session only offers to email a link', async () => {
    const { api, merchant } = await newMerchant();
    const a = await customerWithCard(api, merchant.id);
    const page = await call('GET', `/portal/${a.customerId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Email me a sign-in link');
    expect(page.text).not.toContain(a.email);
  });

  it('shows billing history in the currency’s own format and the plans of the same product', async () => {
    const { api, merchant } = await newMerchant();
    const product = (await api.post('/api/Product', { name: 'Ramen club' })).body.id;
    const small = await recurringPrice(api, { amount: 1980, currency: 'JPY', productId: product });
    await recurringPrice(api, { amount: 2980, currency: 'JPY', productId: product });
    await recurringPrice(api, { amount: 2980, currency: 'USD', productId: product });
    const a = await customerWithCard(api, merchant.id);
    await subscribe(api, { customerId: a.customerId, priceId: small.id });
    const overview = await portalOverview(getDb(), merchant.id, a.customerId);
    expect(overview.history[0]).toMatchObject({ amount: '¥1,980', status: 'paid' });
    expect(overview.subscriptions[0]!.nextCharge!.amount).toBe('¥1,980');
    expect(overview.subscriptions[0]!.options.map((o) => o.label)).toEqual(['¥2,980/month']);
    expect(overview.paymentMethods).toHaveLength(1);
  });
});
