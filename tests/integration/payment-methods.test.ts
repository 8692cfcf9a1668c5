import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { paymentMethods, sandboxProcessorOperations } from '@/lib/db/schema';
import { call } from '../helpers/api';
import { expectAuthFailures } from '../helpers/auth-matrix';
import { newMerchant } from '../helpers/merchants';
import { eventsOf, ik } from '../helpers/payments';
import { oneTimePrice } from '../helpers/payments';
import { recurringPrice, subscribe } from '../helpers/subscriptions';
import { payHostedCheckout, type HostedPaymentForm } from '@/lib/checkout/hosted';

function hostedForm(token: string, overrides: Partial<HostedPaymentForm>): HostedPaymentForm {
  return {
    token,
    attemptKey: crypto.randomUUID(),
    email: `hosted-${crypto.randomUUID()}@example.com`,
    name: 'Hosted Buyer',
    cardNumber: '4242 4242 4242 4242',
    expiry: '12 / 34',
    cvc: '123',
    promotionCode: '',
    saveCard: false,
    ...overrides,
  };
}

async function savedCount(customerId: string) {
  const [row] = await getDb().select({ value: count() }).from(paymentMethods).where(eq(paymentMethods.customerId, customerId));
  return row!.value;
}

async function newCustomer(api: Awaited<ReturnType<typeof newMerchant>>['api']) {
  const customer = await api.post('/api/Customer', { email: `pm-${Math.random().toString(36).slice(2)}@example.com`, name: 'Ada' });
  expect(customer.status, customer.text).toBe(201);
  return customer.body.id as string;
}

describe('payment methods from a backend', () => {
  it('verifies a card with a zero-amount authorization and saves it; a declining card is refused and nothing is saved', async () => {
    const { api, merchant } = await newMerchant();
    const customerId = await newCustomer(api);
    const path = `/api/Customer/${customerId}/PaymentMethod`;

    const declined = await api.post(path, { tokenRef: 'tok_declined' }, ik());
    expect(declined.status, declined.text).toBe(402);
    expect(declined.body).toMatchObject({ code: 'PAYMENT_DECLINED', declineCode: 'card_declined', declineMessage: 'Your card was declined.' });
    const poor = await api.post(path, { tokenRef: 'tok_insufficient_funds' }, ik());
    expect(poor.body).toMatchObject({ status: 402, declineCode: 'insufficient_funds' });
    expect(await savedCount(customerId)).toBe(0);

    const headers = ik();
    const saved = await api.post(path, { tokenRef: 'tok_visa' }, headers);
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body).toMatchObject({
      customerId,
      brand: 'visa',
      last4: '4242',
      isDefault: true,
      processor: { name: 'sandbox', mode: 'test', reference: null },
    });
    expect(saved.body.id).toMatch(/^pm_/);
    // The verification was booked at the processor once, for nothing, under the new method's id.
    const [booked] = await getDb()
      .select()
      .from(sandboxProcessorOperations)
      .where(eq(sandboxProcessorOperations.idempotencyKey, `verify:${saved.body.id}`));
    expect(booked).toMatchObject({ kind: 'verification', amount: 0, status: 'succeeded' });

    const replay = await api.post(path, { tokenRef: 'tok_visa' }, headers);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(saved.body.id);
    expect(await savedCount(customerId)).toBe(1);

    const second = await api.post(path, { tokenRef: 'tok_mastercard' }, ik());
    expect(second.body).toMatchObject({ brand: 'mastercard', isDefault: false });
    const attached = await eventsOf(merchant.id, 'payment_method.attached');
    expect(attached.map((e) => (e.data as any).object.id)).toEqual([saved.body.id, second.body.id]);

    const list = await api.get(path);
    expect(list.body.data.map((m: any) => [m.id, m.isDefault])).toEqual([
      [second.body.id, false],
      [saved.body.id, true],
    ]);
  });

  it('makes a card the default, moving running subscriptions to it, and removes cards', async () => {
    const { api, merchant, key } = await newMerchant();
    const customerId = await newCustomer(api);
    const path = `/api/Customer/${customerId}/PaymentMethod`;
    const first = (await api.post(path, { tokenRef: 'tok_visa' }, ik())).body;
    const price = await recurringPrice(api, { amount: 1500 });
    const sub = (await subscribe(api, { customerId, priceId: price.id, paymentMethodId: first.id })).body;
    expect(sub.paymentMethodId).toBe(first.id);

    const second = (await api.post(path, { tokenRef: 'tok_mastercard' }, ik())).body;
    const made = await api.post(`${path}/${second.id}/Default`);
    expect(made.status, made.text).toBe(200);
    expect(made.body).toMatchObject({ id: second.id, isDefault: true });
    const moved = (await api.get(`/api/Subscription/${sub.id}`)).body;
    expect(moved.paymentMethodId).toBe(second.id);
    const [updated] = await eventsOf(merchant.id, 'subscription.updated');
    expect((updated!.data as any).previousAttributes).toEqual({ paymentMethodId: first.id });
    const changes = (await api.get(`/api/Subscription/${sub.id}/Change`)).body.data;
    expect(changes.map((c: any) => c.type)).toContain('ChangePaymentMethod');

    // The default of a running subscription goes; the other card becomes default and is charged.
    const removed = await call('DELETE', `${path}/${second.id}`, { key });
    expect(removed.status, removed.text).toBe(200);
    expect((await api.get(`/api/Subscription/${sub.id}`)).body.paymentMethodId).toBe(first.id);
    const detached = await eventsOf(merchant.id, 'payment_method.detached');
    expect((detached[0]!.data as any).object.id).toBe(second.id);
    const onlyOne = await call('DELETE', `${path}/${first.id}`, { key });
    expect(onlyOne.status).toBe(409);
    expect((await api.get(path)).body.data.map((m: any) => m.id)).toEqual([first.id]);
  });

  it('answers 404 for another merchant and checks keys, scopes and input', async () => {
    const { api, merchant } = await newMerchant();
    const other = await newMerchant();
    const customerId = await newCustomer(api);
    const path = `/api/Customer/${customerId}/PaymentMethod`;
    const card = (await api.post(path, { tokenRef: 'tok_visa' }, ik())).body;

    expect((await other.api.post(path, { tokenRef: 'tok_visa' }, ik())).status).toBe(404);
    expect((await other.api.post(`${path}/${card.id}/Default`)).status).toBe(404);
    expect((await call('DELETE', `${path}/${card.id}`, { key: other.key })).status).toBe(404);
    expect((await api.post(`${path}/pm_unknown/Default`)).status).toBe(404);

    expect((await api.post(path, { tokenRef: 'tok_visa' })).body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
    const unknownToken = await api.post(path, { tokenRef: 'tok_nonsense' }, ik());
    expect(unknownToken.status).toBe(400);
    expect(unknownToken.body.errors[0].path).toBe('tokenRef');
    const extra = await api.post(path, { tokenRef: 'tok_visa', number: '4242' }, ik());
    expect(extra.status).toBe(400);
    expect(extra.body.errors[0].path).toBe('number');

    await expectAuthFailures(merchant.id, 'POST', `${path}/${card.id}/Default`, 'payments:write');
    await expectAuthFailures(merchant.id, 'DELETE', `${path}/${card.id}`, 'payments:write');
  });

  it('changes one subscription’s payment method with a Command and retries its open records with it', async () => {
    const { api, merchant } = await newMerchant();
    const customerId = await newCustomer(api);
    const path = `/api/Customer/${customerId}/PaymentMethod`;
    // Saving passes the verification; the renewal charge then declines (the sandbox's 4000 0000 0000 0341).
    const failing = (await api.post(path, { tokenRef: 'tok_charge_customer_fail' }, ik())).body;
    const price = await recurringPrice(api, { amount: 1000, trialDays: 3 });
    const clock = (await api.post('/api/TestClock', { frozenTime: '2025-06-01T00:00:00.000Z' })).body.id;
    await api.post(`/api/TestClock/${clock}/Customer`, { customerId });
    const sub = (await subscribe(api, { customerId, priceId: price.id, paymentMethodId: failing.id })).body;
    await api.post(`/api/TestClock/${clock}/Advance`, { frozenTime: '2025-06-04T00:00:00.000Z' });
    const pastDue = (await api.get(`/api/Subscription/${sub.id}`)).body;
    expect(pastDue.status).toBe('past_due');

    const good = (await api.post(path, { tokenRef: 'tok_visa' }, ik())).body;
    const missing = await api.post(`/api/Subscription/${sub.id}/Command`, { type: 'ChangePaymentMethod' }, ik());
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].path).toBe('paymentMethodId');
    const foreign = await api.post(
      `/api/Subscription/${sub.id}/Command`,
      { type: 'ChangePaymentMethod', paymentMethodId: 'pm_01ABCDEFGHJKMNPQRSTVWXYZ00' },
      ik(),
    );
    expect(foreign.status).toBe(404);

    const changed = await api.post(
      `/api/Subscription/${sub.id}/Command`,
      { type: 'ChangePaymentMethod', paymentMethodId: good.id, expectedVersion: pastDue.version },
      ik(),
    );
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.subscription.paymentMethodId).toBe(good.id);
    expect(changed.body.change).toMatchObject({ type: 'ChangePaymentMethod', status: 'applied' });
    const updated = (await eventsOf(merchant.id, 'subscription.updated')).at(-1)!;
    expect((updated.data as any).previousAttributes).toMatchObject({ paymentMethodId: failing.id });

    // The open record is due at once on the clock's time: the next advance pays it.
    await api.post(`/api/TestClock/${clock}/Advance`, { frozenTime: '2025-06-04T00:00:01.000Z' });
    expect((await api.get(`/api/Subscription/${sub.id}`)).body).toMatchObject({ status: 'active', paymentMethodId: good.id });
  });

  it('verifies the card a trial checkout keeps: a declining card is refused and nothing is recorded', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1999, trialDays: 7 });
    const email = `trial-${Date.now()}@example.com`;
    const declined = await api.post('/api/Checkout', { priceId: price.id, customerEmail: email, tokenRef: 'tok_declined' }, ik());
    expect(declined.status, declined.text).toBe(402);
    expect(declined.body).toMatchObject({ code: 'PAYMENT_DECLINED', declineCode: 'card_declined' });
    expect((await api.get('/api/Subscription')).body.totalCount).toBe(0);
    expect((await api.get(`/api/Customer?email=${encodeURIComponent(email)}`)).body.totalCount).toBe(0);
    expect(await eventsOf(merchant.id, 'payment_method.attached')).toHaveLength(0);

    const trial = await api.post('/api/Checkout', { priceId: price.id, customerEmail: email, tokenRef: 'tok_visa' }, ik());
    expect(trial.status, trial.text).toBe(201);
    const subscription = (await api.get(`/api/Subscription/${trial.body.subscriptionId}`)).body;
    expect(subscription.status).toBe('trialing');
    expect(subscription.paymentMethodId).toMatch(/^pm_/);
  });

  it('the hosted page refuses a declining card it would keep without charging (a trial, "save this card" on a zero total)', async () => {
    const { api, merchant } = await newMerchant();
    const trialPrice = await recurringPrice(api, { amount: 1999, trialDays: 7 });
    const trialLink = (await api.post('/api/PaymentLink', { priceId: trialPrice.id })).body;
    const declined = await payHostedCheckout(getDb(), hostedForm(trialLink.token, { cardNumber: '4000 0000 0000 0002' }));
    expect(declined).toEqual({ kind: 'declined', message: 'Your card was declined.' });
    expect((await api.get('/api/Subscription')).body.totalCount).toBe(0);
    const trial = await payHostedCheckout(getDb(), hostedForm(trialLink.token, {}));
    expect(trial.kind).toBe('paid');

    const price = await oneTimePrice(api, 800);
    const coupon = await api.post('/api/Coupon', { percentOff: 100 });
    await api.post('/api/PromotionCode', { couponId: coupon.body.id, code: 'ONTHEHOUSE' });
    const freeLink = (await api.post('/api/PaymentLink', { priceId: price.id })).body;
    const keep = { promotionCode: 'ONTHEHOUSE', saveCard: true };
    const refused = await payHostedCheckout(getDb(), hostedForm(freeLink.token, { ...keep, cardNumber: '4000 0000 0000 9995' }));
    expect(refused).toEqual({ kind: 'declined', message: 'Your card has insufficient funds.' });
    // Without keeping the card nothing is verified: a free order needs no card that works.
    const notKept = await payHostedCheckout(getDb(), hostedForm(freeLink.token, { promotionCode: 'ONTHEHOUSE', cardNumber: '4000 0000 0000 9995' }));
    expect(notKept.kind).toBe('paid');
    const kept = await payHostedCheckout(getDb(), hostedForm(freeLink.token, keep));
    expect(kept.kind).toBe('paid');
    const attached = (await eventsOf(merchant.id, 'payment_method.attached')).map((e) => (e.data as any).object.last4);
    expect(attached).toEqual(['4242', '4242']);
  });
});
