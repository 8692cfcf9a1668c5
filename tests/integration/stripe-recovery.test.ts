import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/payments';
import { startStripeServer } from '../helpers/stripe';

/**
 * A crash between a money move's phases in Stripe mode (docs/payments.md, "Money moves"): the
 * emulator holds the charge request while the server is SIGKILLed, before Stripe saw it or after
 * it charged. After the restart, recovery asks Stripe (a search by our key) and applies the pinned
 * plan: a customer-present checkout is paid exactly when Stripe charged it, and its key is taken
 * at Stripe otherwise, so the request arriving late charges nothing; a merchant-initiated
 * subscription is charged once.
 */
let stripe: Awaited<ReturnType<typeof startStripeServer>>;

beforeAll(async () => {
  stripe = await startStripeServer({ PAYMENT_PENDING_RECONCILE_AFTER_MS: '500' });
}, 240_000);

afterAll(async () => {
  await stripe?.stop();
}, 60_000);

type Obj = Record<string, unknown>;
const intentsFor = (amount: number) => [...stripe.emulator.store.paymentIntents.values()].filter((pi) => pi.amount === amount);

async function price(amount: number, recurring = false) {
  const product = await stripe.api.post('/api/Product', { name: `Item ${amount}` });
  const body = recurring
    ? { productId: product.body.id, type: 'Recurring', amount, currency: 'USD', interval: 'month' }
    : { productId: product.body.id, type: 'OneTime', amount, currency: 'USD' };
  const answer = await stripe.api.post('/api/Price', body);
  expect(answer.status, answer.text).toBe(201);
  return answer.body.id as string;
}

/** Sends `request`, waits until its charge is held at Stripe, and crashes the server there. */
async function crashDuringCharge(afterHandling: boolean, request: () => Promise<unknown>) {
  const held = stripe.emulator.holdNextRequest('POST /v1/payment_intents', { afterHandling });
  const cut = request().catch(() => 'cut off');
  await held.arrived;
  await stripe.crashAndRestart();
  expect(await cut).toBe('cut off');
  return held;
}

/** The checkout of the customer with `email`, once `settled` holds for it (recovery runs in the restarted worker). */
async function checkoutWhen(email: string, settled: (checkout: Obj) => boolean) {
  return waitFor(async () => {
    const [customer] = (await stripe.api.get(`/api/Customer?email=${encodeURIComponent(email)}`)).body.data as Obj[];
    const [payment] = (await stripe.api.get(`/api/Payment?customerId=${customer!.id}`)).body.data as Obj[];
    const checkout = (await stripe.api.get(`/api/Checkout/${payment!.checkoutId}`)).body as Obj;
    return settled(checkout) ? checkout : undefined;
  }, 60_000);
}

describe('recovery in Stripe mode after a crash between phases', { timeout: 240_000 }, () => {
  it('a checkout Stripe charged before the crash is recorded paid, charged once', async () => {
    const priceId = await price(3100);
    await crashDuringCharge(true, () => stripe.api.post('/api/Checkout', { priceId, customerEmail: 'charged@example.com', tokenRef: 'pm_card_visa' }));
    const checkout = await checkoutWhen('charged@example.com', (c) => c.status !== 'open');
    expect(checkout).toMatchObject({ status: 'paid', paid: true });
    expect(intentsFor(3100).map((pi) => pi.status)).toEqual(['succeeded']);
  });

  it('a checkout Stripe never saw fails, and its request arriving late charges nothing', async () => {
    const priceId = await price(3200);
    const held = await crashDuringCharge(false, () =>
      stripe.api.post('/api/Checkout', { priceId, customerEmail: 'never@example.com', tokenRef: 'pm_card_visa' }),
    );
    const checkout = await checkoutWhen('never@example.com', (c) => c.status !== 'open');
    expect(checkout).toMatchObject({ status: 'failed', paid: false });
    held.release();
    await held.answered;
    expect(intentsFor(3200).some((pi) => pi.status === 'succeeded')).toBe(false);
    expect(intentsFor(3200).every((pi) => (pi.metadata as Obj).paybase_canceled === 'true')).toBe(true);
  });

  it('a subscription created by a backend that Stripe never saw is charged once by recovery, off-session with its customer', async () => {
    const customer = await stripe.api.post('/api/Customer', { email: 'sub@example.com', name: 'Sub' });
    const saved = await stripe.api.post(`/api/Customer/${customer.body.id}/PaymentMethod`, { tokenRef: 'pm_card_visa', makeDefault: true });
    expect(saved.status, saved.text).toBe(201);
    const priceId = await price(3300, true);
    const held = await crashDuringCharge(false, () => stripe.api.post('/api/Subscription', { customerId: customer.body.id, priceId }));
    const subscription = await waitFor(async () => {
      const list = await stripe.api.get(`/api/Subscription?customerId=${customer.body.id}`);
      const [found] = (list.body.data ?? []) as Obj[];
      return found?.status === 'active' ? found : undefined;
    }, 60_000);
    expect(subscription).toMatchObject({ status: 'active' });
    held.release();
    await held.answered;
    const charged = intentsFor(3300).filter((pi) => pi.status === 'succeeded');
    expect(charged).toHaveLength(1);
    expect(charged[0]).toMatchObject({ customer: expect.stringMatching(/^cus_/) });
  });
});
