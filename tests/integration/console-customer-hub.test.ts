import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { listCustomerBillingRecords, listCustomerEvents, listCustomerRefunds } from '@/lib/billing/customer-activity';
import { listWalletSubscriptions } from '@/lib/members/wallet-subscriptions';
import { requestMemberSignInLink } from '@/lib/auth/magic-links';
import { listDevMailbox } from '@/lib/email/dev-mailbox';
import { newMerchant } from '../helpers/merchants';
import { ik, oneTimePrice } from '../helpers/payments';
import { customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

const db = () => getDb();
const uniqueEmail = (prefix: string) => `${prefix}-${crypto.randomBytes(4).toString('hex')}@example.com`;

describe('the customer page hub', () => {
  it("lists the customer's refunds, billing records and events, and nothing of other customers or sellers", async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 2000, 'USD');
    const pay = async (email: string) => {
      const answer = await api.post('/api/Checkout', { priceId: price.id, customerEmail: email, tokenRef: 'tok_visa' }, ik());
      expect(answer.status, answer.text).toBe(201);
      return answer.body as { customerId: string; payment: { id: string } };
    };
    const email = uniqueEmail('hub');
    const first = await pay(email);
    const second = await pay(email);
    expect(second.customerId).toBe(first.customerId);
    const other = await pay(uniqueEmail('other'));
    for (const paymentId of [first.payment.id, other.payment.id]) {
      const refund = await api.post(`/api/Payment/${paymentId}/Refund`, { amount: 500 }, ik());
      expect(refund.status, refund.text).toBe(201);
    }
    const customerId = first.customerId;

    const refunds = await listCustomerRefunds(db(), merchant.id, customerId, 10);
    expect(refunds.map((r) => [r.paymentId, r.amount])).toEqual([[first.payment.id, 500]]);

    const records = await listCustomerBillingRecords(db(), merchant.id, customerId, 10);
    expect(records.map((r) => r.paymentId).sort()).toEqual([first.payment.id, second.payment.id].sort());
    expect(records.every((r) => r.customerId === customerId && r.status === 'paid')).toBe(true);

    const events = await listCustomerEvents(db(), merchant.id, customerId, 50);
    const types = events.map((e) => e.type);
    expect(types).toContain('customer.created');
    expect(types.filter((t) => t === 'payment.succeeded')).toHaveLength(2);
    expect(types.filter((t) => t === 'billing_record.paid')).toHaveLength(2);
    // Newest first.
    expect(events.map((e) => e.createdAt.getTime())).toEqual([...events.map((e) => e.createdAt.getTime())].sort((a, b) => b - a));
    // The other customer's events are not these.
    const otherEvents = await listCustomerEvents(db(), merchant.id, other.customerId, 50);
    expect(otherEvents.map((e) => e.id).filter((id) => events.some((e) => e.id === id))).toEqual([]);

    const stranger = await newMerchant();
    expect(await listCustomerRefunds(db(), stranger.merchant.id, customerId, 10)).toEqual([]);
    expect(await listCustomerBillingRecords(db(), stranger.merchant.id, customerId, 10)).toEqual([]);
    expect(await listCustomerEvents(db(), stranger.merchant.id, customerId, 10)).toEqual([]);
  });
});

describe('the wallet', () => {
  it("lists a member's subscriptions with every seller that knows the email", async () => {
    const email = uniqueEmail('wallet-subs');
    const sellers = [await newMerchant(), await newMerchant()];
    for (const [index, seller] of sellers.entries()) {
      const price = await recurringPrice(seller.api, { amount: 900 + index, name: `Plan ${index}` });
      const { customerId, paymentMethodId } = await customerWithCard(seller.api, seller.merchant.id, undefined, index === 0 ? email : email.toUpperCase());
      const created = await subscribe(seller.api, { customerId, priceId: price.id, paymentMethodId });
      expect(created.status, created.text).toBe(201);
    }
    const someoneElse = await newMerchant();
    const price = await recurringPrice(someoneElse.api, { amount: 500 });
    const stranger = await customerWithCard(someoneElse.api, someoneElse.merchant.id);
    expect((await subscribe(someoneElse.api, { customerId: stranger.customerId, priceId: price.id, paymentMethodId: stranger.paymentMethodId })).status).toBe(
      201,
    );

    const listed = await listWalletSubscriptions(db(), email, { page: 1, pageSize: 10 });
    expect(listed.totalCount).toBe(2);
    expect(listed.data.map((s) => [s.sellerName, s.productName, s.amount]).sort()).toEqual(
      sellers.map((seller, index) => [seller.merchant.name, `Plan ${index}`, 900 + index]).sort(),
    );
    expect(listed.data.every((s) => s.status === 'active')).toBe(true);
  });

  it('puts a hosted checkout to return to in the sign-in link, and nothing else', async () => {
    const email = uniqueEmail('wallet-return');
    const linkIn = async (returnPath: string) => {
      await requestMemberSignInLink(db(), { email, client: { ip: `198.19.${crypto.randomInt(256)}.${crypto.randomInt(256)}` }, returnPath });
      const [mail] = await listDevMailbox(db(), { to: email, limit: 1 });
      return /http\S+\/member\/verify\?\S+/.exec(mail!.textBody)![0];
    };
    expect(await linkIn('/member/pay/abc_123')).toMatch(/\/member\/verify\?token=mlt_[\w-]+&next=%2Fmember%2Fpay%2Fabc_123$/);
    expect(await linkIn('//evil.example/member/pay/abc')).toMatch(/\/member\/verify\?token=mlt_[\w-]+$/);
  });
});
