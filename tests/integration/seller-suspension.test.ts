import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { plainPhases } from '@/lib/db/phases';
import { payments, sandboxProcessorOperations, subscriptionChanges } from '@/lib/db/schema';
import { payHostedCheckout } from '@/lib/checkout/hosted';
import { payHostedWithWallet, walletCardsForSeller } from '@/lib/checkout/wallet';
import { findOrCreateMember } from '@/lib/members/members';
import { advanceTestClock } from '@/lib/subscriptions/test-clocks';
import { commandSubscription } from '@/lib/subscriptions/commands';
import { commandSubscriptionInPhases } from '@/lib/subscriptions/charging-requests';
import { addVerifiedDefaultCard, makeDefaultPaymentMethod, saveAsDefaultPaymentMethod } from '@/lib/saved-cards/saved-cards';
import { savePaymentMethod } from '@/lib/payments/payment-methods';
import { SandboxProcessor } from '@/lib/payments/processor/sandbox';
import { newId } from '@/lib/ids';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { adHocLink, ik, oneTimePrice } from '../helpers/payments';
import { newAdmin } from '../helpers/sessions';
import { CARDS, advance, clockFor, customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

const SUSPENDED = 'This seller cannot accept payments right now.';

async function adminSetStatus(merchantId: string, action: 'Suspend' | 'Reinstate') {
  const { tokens } = await newAdmin();
  const answer = await call('POST', `/api/AdminMerchant/${merchantId}/${action}`, { key: tokens.accessToken });
  expect(answer.status, answer.text).toBe(200);
}

function hostedForm(token: string, email: string, saveCard = false) {
  return {
    token,
    attemptKey: crypto.randomUUID(),
    email,
    name: 'Ada',
    cardNumber: '4242 4242 4242 4242',
    expiry: '12 / 34',
    cvc: '123',
    promotionCode: '',
    saveCard,
  };
}

async function paymentCount(merchantId: string) {
  return (await getDb().select({ id: payments.id }).from(payments).where(eq(payments.merchantId, merchantId))).length;
}

describe('a suspended seller moves no money', () => {
  it('refuses API charges, the hosted page and the wallet while suspended, and takes them again after reinstatement', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 1500);
    const link = await adHocLink(api, { unitAmount: 900 });
    const email = `buyer-${crypto.randomBytes(4).toString('hex')}@example.com`;
    // A card saved with this seller, for the wallet path.
    expect(await payHostedCheckout(getDb(), hostedForm(link.token, email, true))).toMatchObject({ kind: 'paid' });
    const member = await findOrCreateMember(getDb(), email);
    const [walletCard] = (await walletCardsForSeller(getDb(), merchant.id, member.email)).cards;
    const before = await paymentCount(merchant.id);

    await adminSetStatus(merchant.id, 'Suspend');

    const checkout = await api.post('/api/Checkout', { priceId: price.id, customerEmail: email, tokenRef: 'tok_visa' }, ik());
    const complete = await api.post(`/api/PaymentLink/${link.id}/Complete`, { customerEmail: email, tokenRef: 'tok_visa' }, ik());
    expect([checkout.status, complete.status]).toEqual([401, 401]);

    const page = await call('GET', `/pay/${link.token}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(SUSPENDED);
    expect(page.text).not.toContain('Pay with your Paybase wallet');
    expect(await payHostedCheckout(getDb(), hostedForm(link.token, email))).toEqual({ kind: 'unavailable', message: SUSPENDED });
    const wallet = await payHostedWithWallet(getDb(), {
      token: link.token,
      attemptKey: crypto.randomUUID(),
      memberId: member.id,
      paymentMethodId: walletCard!.id,
      promotionCode: '',
    });
    expect(wallet).toEqual({ kind: 'unavailable', message: SUSPENDED });
    expect(await paymentCount(merchant.id)).toBe(before);

    await adminSetStatus(merchant.id, 'Reinstate');

    expect((await api.post('/api/Checkout', { priceId: price.id, customerEmail: email, tokenRef: 'tok_visa' }, ik())).status).toBe(201);
    expect((await api.post(`/api/PaymentLink/${link.id}/Complete`, { customerEmail: email, tokenRef: 'tok_visa' }, ik())).status).toBe(201);
    expect((await call('GET', `/pay/${link.token}`)).text).not.toContain(SUSPENDED);
    expect(await payHostedCheckout(getDb(), hostedForm(link.token, email))).toMatchObject({ kind: 'paid' });
    const walletAgain = await payHostedWithWallet(getDb(), {
      token: link.token,
      attemptKey: crypto.randomUUID(),
      memberId: member.id,
      paymentMethodId: walletCard!.id,
      promotionCode: '',
    });
    expect(walletAgain).toMatchObject({ kind: 'paid' });
    expect(await paymentCount(merchant.id)).toBe(before + 4);
  });

  it('refuses new subscriptions and portal plan changes, reactivation and new cards; cancelling stays open', async () => {
    const { api, merchant } = await newMerchant();
    const product = (await api.post('/api/Product', { name: 'Club' })).body.id;
    const basic = await recurringPrice(api, { amount: 1000, productId: product });
    const pro = await recurringPrice(api, { amount: 3000, productId: product });
    const a = await customerWithCard(api, merchant.id);
    const sub = (await subscribe(api, { customerId: a.customerId, priceId: basic.id })).body;
    expect(await commandSubscription(getDb(), merchant.id, sub.id, { type: 'CancelAtPeriodEnd' }, `portal:${a.customerId}`)).toMatchObject({ declined: false });
    const before = await paymentCount(merchant.id);

    await adminSetStatus(merchant.id, 'Suspend');

    const refused = { code: 'INVALID_STATE', detail: SUSPENDED, options: { extra: { reason: 'seller_suspended' } } };
    const changePlan = () =>
      commandSubscriptionInPhases(plainPhases(getDb()), merchant.id, sub.id, { type: 'ChangePrice', priceId: pro.id }, `portal:${a.customerId}`);
    const reactivate = () => getDb().transaction((tx) => commandSubscription(tx, merchant.id, sub.id, { type: 'Reactivate' }, `portal:${a.customerId}`));
    const card = await new SandboxProcessor().tokenizeCard({ number: '5555555555554444', expMonth: 12, expYear: 2040, cvc: '123' });
    const addCard = () => getDb().transaction((tx) => saveAsDefaultPaymentMethod(tx, merchant.id, a.customerId, card, `portal:${a.customerId}`));
    await expect(changePlan()).rejects.toMatchObject(refused);
    await expect(reactivate()).rejects.toMatchObject(refused);
    await expect(addCard()).rejects.toMatchObject(refused);
    // The portal's "add a card" is refused before the processor is asked to verify it.
    const portalCardId = newId('paymentMethod');
    await expect(addVerifiedDefaultCard(getDb(), merchant.id, a.customerId, card, `portal:${a.customerId}`, portalCardId)).rejects.toMatchObject(refused);
    const verifications = await getDb()
      .select()
      .from(sandboxProcessorOperations)
      .where(eq(sandboxProcessorOperations.idempotencyKey, `verify:${portalCardId}`));
    expect(verifications).toEqual([]);
    expect((await subscribe(api, { customerId: a.customerId, priceId: basic.id })).status).toBe(401);
    expect(await paymentCount(merchant.id)).toBe(before);

    await adminSetStatus(merchant.id, 'Reinstate');

    expect(await reactivate()).toMatchObject({ declined: false, subscription: { status: 'active' } });
    expect(await changePlan()).toMatchObject({ declined: false, subscription: { priceId: pro.id } });
    expect((await addCard()).id).toMatch(/^pm_/);
    const portalCard = await addVerifiedDefaultCard(getDb(), merchant.id, a.customerId, card, `portal:${a.customerId}`, portalCardId);
    expect(portalCard).toMatchObject({ id: portalCardId, isDefault: true });
    expect(await paymentCount(merchant.id)).toBe(before + 1); // the proration
    // Cancelling stays open while suspended: it moves no money.
    await adminSetStatus(merchant.id, 'Suspend');
    const cancel = await getDb().transaction((tx) => commandSubscription(tx, merchant.id, sub.id, { type: 'CancelAtPeriodEnd' }, `portal:${a.customerId}`));
    expect(cancel).toMatchObject({ subscription: { status: 'canceled', cancelAtPeriodEnd: true } });
  });

  it('rolls renewals over uncharged while suspended and charges the next one after reinstatement', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 2500 });
    const a = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, a.customerId, '2026-01-10T00:00:00Z');
    const sub = (await subscribe(api, { customerId: a.customerId, priceId: price.id })).body;
    await advance(api, clock, '2026-02-11T00:00:00Z'); // period 2 charged
    const charged = await paymentCount(merchant.id);
    expect(charged).toBe(2);

    await adminSetStatus(merchant.id, 'Suspend');
    // The seller's API keys are stopped, so the sandbox clock is moved by the domain function itself.
    await advanceTestClock(plainPhases(getDb()), merchant.id, clock, { frozenTime: new Date('2026-04-11T00:00:00Z') });
    expect(await paymentCount(merchant.id)).toBe(charged);
    const renewals = await getDb()
      .select()
      .from(subscriptionChanges)
      .where(and(eq(subscriptionChanges.subscriptionId, sub.id), eq(subscriptionChanges.type, 'Renew')))
      .orderBy(subscriptionChanges.effectiveAt);
    expect(renewals.map((r) => r.reason)).toEqual([null, 'seller suspended: not charged', 'seller suspended: not charged']);

    await adminSetStatus(merchant.id, 'Reinstate');
    const detail = (await api.get(`/api/Subscription/${sub.id}`)).body;
    expect(detail).toMatchObject({ status: 'active', currentPeriodEnd: '2026-05-10T00:00:00.000Z' });
    await advance(api, clock, '2026-05-11T00:00:00Z');
    expect(await paymentCount(merchant.id)).toBe(charged + 1);
  });

  it('holds dunning retries while suspended and runs them after reinstatement', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1200 });
    const a = await customerWithCard(api, merchant.id);
    const clock = await clockFor(api, a.customerId, '2026-03-01T00:00:00Z');
    const sub = (await subscribe(api, { customerId: a.customerId, priceId: price.id })).body;
    const declining = await new SandboxProcessor().tokenizeCard({ number: CARDS.declined, expMonth: 12, expYear: 2040, cvc: '123' });
    await getDb().transaction(async (tx) => {
      const method = await savePaymentMethod(tx, merchant.id, a.customerId, declining);
      await makeDefaultPaymentMethod(tx, merchant.id, a.customerId, method.id, `portal:${a.customerId}`);
    });
    await advance(api, clock, '2026-04-01T12:00:00Z'); // the renewal is declined: past_due, retry on Apr 2
    expect((await api.get(`/api/Subscription/${sub.id}`)).body.status).toBe('past_due');
    const attempts = await paymentCount(merchant.id);

    await adminSetStatus(merchant.id, 'Suspend');
    await advanceTestClock(plainPhases(getDb()), merchant.id, clock, { frozenTime: new Date('2026-04-06T00:00:00Z') });
    expect(await paymentCount(merchant.id)).toBe(attempts);

    await adminSetStatus(merchant.id, 'Reinstate');
    await advance(api, clock, '2026-04-06T01:00:00Z');
    expect(await paymentCount(merchant.id)).toBeGreaterThan(attempts);
  });
});
