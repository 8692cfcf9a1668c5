import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeServer } from '../helpers/stripe';

/**
 * Saved cards and renewals in Stripe mode (docs/processors.md, "Saved cards and renewals"): a
 * Stripe Customer per Paybase customer, made on first need; cards attached to it through a
 * SetupIntent or a first charge kept for later; renewals charged off-session with that customer.
 * The emulator refuses what Stripe refuses: a PaymentMethod used once without a Customer, or an
 * attached one charged without its Customer.
 */
let stripe: Awaited<ReturnType<typeof startStripeServer>>;

beforeAll(async () => {
  stripe = await startStripeServer();
}, 240_000);

afterAll(async () => {
  await stripe?.stop();
}, 60_000);

type Obj = Record<string, unknown>;
const customersAt = (paybaseCustomer: string) =>
  [...stripe.emulator.store.customers.values()].filter((c) => (c.metadata as Obj).paybase_customer === paybaseCustomer);
const intentsOf = (stripeCustomer: string) => [...stripe.emulator.store.paymentIntents.values()].filter((pi) => pi.customer === stripeCustomer);
/** What Stripe.js gives a seller's frontend: a new PaymentMethod of a test card, attached to no one. */
const newPaymentMethod = (testCard = 'pm_card_visa') => String(stripe.emulator.store.paymentMethod(testCard).id);

async function monthlyPrice(amount: number, trialDays = 0) {
  const product = await stripe.api.post('/api/Product', { name: 'Plan' });
  const price = await stripe.api.post('/api/Price', {
    productId: product.body.id,
    type: 'Recurring',
    amount,
    currency: 'USD',
    interval: 'month',
    ...(trialDays ? { trialDays } : {}),
  });
  expect(price.status, price.text).toBe(201);
  return price.body.id as string;
}

const START = '2030-01-10T10:00:00.000Z';

/** A customer on a test clock at START, so their renewals come when the clock is advanced. */
async function customerOnClock(email: string, name: string) {
  const customer = await stripe.api.post('/api/Customer', { email, name });
  expect(customer.status, customer.text).toBe(201);
  const clock = await stripe.api.post('/api/TestClock', { name: 'renewals', frozenTime: START });
  expect(clock.status, clock.text).toBe(201);
  const attached = await stripe.api.post(`/api/TestClock/${clock.body.id}/Customer`, { customerId: customer.body.id });
  expect(attached.status, attached.text).toBe(200);
  return { customerId: customer.body.id as string, clockId: clock.body.id as string };
}

async function advanceTwoMonths(clockId: string) {
  const advanced = await stripe.api.post(`/api/TestClock/${clockId}/Advance`, { frozenTime: '2030-03-11T10:00:00.000Z' });
  expect(advanced.status, advanced.text).toBe(200);
}

const attachedTo = (stripeCustomer: string) => [...stripe.emulator.store.paymentMethods.values()].filter((pm) => pm.customer === stripeCustomer);

describe('saved cards and renewals in Stripe mode', () => {
  it('saves a card on the customer’s Stripe Customer (made once) and renews off-session with it', async () => {
    const { customerId, clockId } = await customerOnClock('ada@example.com', 'Ada');
    const saved = await stripe.api.post(`/api/Customer/${customerId}/PaymentMethod`, { tokenRef: 'pm_card_visa', makeDefault: true });
    expect(saved.status, saved.text).toBe(201);
    const [stripeCustomer, ...more] = customersAt(customerId);
    expect(more).toEqual([]);
    expect(stripeCustomer).toMatchObject({ email: 'ada@example.com', name: 'Ada' });
    // The card kept is the PaymentMethod the SetupIntent attached (Stripe's test token stands for a new one each time).
    const [card, ...others] = attachedTo(stripeCustomer!.id);
    expect(others).toEqual([]);
    // The saved card says where it is kept: Stripe, test mode, that PaymentMethod.
    expect(saved.body.processor).toEqual({ name: 'stripe', mode: 'test', reference: card!.id });
    const setup = [...stripe.emulator.store.setupIntents.values()].find((si) => si.customer === stripeCustomer!.id);
    expect(setup).toMatchObject({ status: 'succeeded', usage: 'off_session' });

    const second = await stripe.api.post(`/api/Customer/${customerId}/PaymentMethod`, { tokenRef: newPaymentMethod('pm_card_mastercard') });
    expect(second.status, second.text).toBe(201);
    expect(customersAt(customerId)).toHaveLength(1);

    const subscription = await stripe.api.post('/api/Subscription', { customerId, priceId: await monthlyPrice(1500) });
    expect(subscription.status, subscription.text).toBe(201);
    await advanceTwoMonths(clockId);
    const charged = intentsOf(stripeCustomer!.id);
    expect(charged).toHaveLength(3);
    for (const intent of charged) expect(intent).toMatchObject({ status: 'succeeded', amount: 1500, payment_method: card!.id });
    const renewals = stripe.emulator.requests.filter((r) => r.path === '/v1/payment_intents' && r.params.customer === stripeCustomer!.id);
    expect(renewals.map((r) => r.params.off_session)).toEqual(['true', 'true', 'true']);
    expect((await stripe.api.get(`/api/Subscription/${subscription.body.id}`)).body).toMatchObject({ status: 'active', currentPeriodIndex: 2 });
  });

  it('keeps the card of a subscription checkout charged now (setup_future_usage) and renews with it', async () => {
    const { customerId, clockId } = await customerOnClock('grace@example.com', 'Grace');
    const card = newPaymentMethod();
    const checkout = await stripe.api.post('/api/Checkout', { priceId: await monthlyPrice(2000), customerId, tokenRef: card });
    expect(checkout.status, checkout.text).toBe(201);
    expect(checkout.body).toMatchObject({ paid: true });
    const [stripeCustomer] = customersAt(customerId);
    const [first] = intentsOf(stripeCustomer!.id);
    expect(first).toMatchObject({ status: 'succeeded', setup_future_usage: 'off_session', payment_method: card });
    expect(stripe.emulator.store.paymentMethods.get(card)).toMatchObject({ customer: stripeCustomer!.id });

    await advanceTwoMonths(clockId);
    expect(intentsOf(stripeCustomer!.id).map((pi) => [pi.status, pi.payment_method])).toEqual([
      ['succeeded', card],
      ['succeeded', card],
      ['succeeded', card],
    ]);
  });

  it('keeps the PaymentMethod Stripe made of a test token (pm_card_visa) charged now, and renews with it', async () => {
    const { customerId, clockId } = await customerOnClock('hopper@example.com', 'Hopper');
    const checkout = await stripe.api.post('/api/Checkout', { priceId: await monthlyPrice(2000), customerId, tokenRef: 'pm_card_visa' });
    expect(checkout.status, checkout.text).toBe(201);
    const [stripeCustomer] = customersAt(customerId);
    const [first] = intentsOf(stripeCustomer!.id);
    const card = String(first!.payment_method);
    expect(card).toMatch(/^pm_/);
    expect(card).not.toBe('pm_card_visa');
    expect(stripe.emulator.store.paymentMethods.get(card)).toMatchObject({ customer: stripeCustomer!.id });
    const methods = await stripe.api.get(`/api/Customer/${customerId}/PaymentMethod`);
    expect(methods.body.data).toEqual([expect.objectContaining({ processor: { name: 'stripe', mode: 'test', reference: card } })]);

    await advanceTwoMonths(clockId);
    expect(intentsOf(stripeCustomer!.id).map((pi) => [pi.status, pi.payment_method])).toEqual([
      ['succeeded', card],
      ['succeeded', card],
      ['succeeded', card],
    ]);
  });

  it('verifies a trial checkout’s card on a Stripe Customer made before the Paybase customer, and links the two', async () => {
    const card = newPaymentMethod();
    const checkout = await stripe.api.post('/api/Checkout', {
      priceId: await monthlyPrice(900, 14),
      customerEmail: 'trial@example.com',
      customerName: 'Trial',
      tokenRef: card,
    });
    expect(checkout.status, checkout.text).toBe(201);
    const stripeCustomer = stripe.emulator.store.paymentMethods.get(card)!.customer as string;
    expect(stripe.emulator.store.customers.get(stripeCustomer)).toMatchObject({ email: 'trial@example.com', name: 'Trial' });
    expect(intentsOf(stripeCustomer)).toEqual([]);

    // Linked: the customer's next card goes to the same Stripe Customer, none is made.
    const customerId = checkout.body.customerId as string;
    const customersBefore = stripe.emulator.store.customers.size;
    const another = await stripe.api.post(`/api/Customer/${customerId}/PaymentMethod`, { tokenRef: newPaymentMethod('pm_card_mastercard') });
    expect(another.status, another.text).toBe(201);
    expect(stripe.emulator.store.customers.size).toBe(customersBefore);
    expect(attachedTo(stripeCustomer).map((pm) => pm.id)).toHaveLength(2);
    expect(customersAt(customerId)).toEqual([]);
  });

  it('keeps the card a trial checkout verified with a Stripe test token (pm_card_visa stands for a new PaymentMethod each time)', async () => {
    const checkout = await stripe.api.post('/api/Checkout', {
      priceId: await monthlyPrice(900, 14),
      customerEmail: 'trial-test-token@example.com',
      tokenRef: 'pm_card_visa',
    });
    expect(checkout.status, checkout.text).toBe(201);
    const customerId = checkout.body.customerId as string;
    const stripeCustomer = [...stripe.emulator.store.customers.values()].find((c) => c.email === 'trial-test-token@example.com');
    const [attached, ...others] = attachedTo(stripeCustomer!.id);
    expect(others).toEqual([]);
    const methods = await stripe.api.get(`/api/Customer/${customerId}/PaymentMethod`);
    expect(methods.body.data).toEqual([expect.objectContaining({ processor: { name: 'stripe', mode: 'test', reference: attached!.id } })]);
  });

  it('charges a one-time checkout without making a Stripe Customer (nothing is kept)', async () => {
    const product = await stripe.api.post('/api/Product', { name: 'Mug' });
    const price = await stripe.api.post('/api/Price', { productId: product.body.id, type: 'OneTime', amount: 700, currency: 'USD' });
    const before = stripe.emulator.store.customers.size;
    const checkout = await stripe.api.post('/api/Checkout', { priceId: price.body.id, customerEmail: 'once@example.com', tokenRef: newPaymentMethod() });
    expect(checkout.status, checkout.text).toBe(201);
    expect(stripe.emulator.store.customers.size).toBe(before);
    expect(stripe.emulator.store.paymentIntents.get(checkout.body.payment.processor.reference)).toMatchObject({ customer: null, setup_future_usage: null });
  });
});
