import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/payments';
import { startStripeServer } from '../helpers/stripe';

/**
 * Paybase with PAYMENT_PROCESSOR=stripe against the Stripe emulator (docs/processors.md): the
 * backend checkout takes Stripe PaymentMethod ids, declines carry Stripe's codes, 3-D Secure
 * answers requires_action with Stripe's page, refunds go to Stripe.
 */
let stripe: Awaited<ReturnType<typeof startStripeServer>>;

beforeAll(async () => {
  stripe = await startStripeServer();
}, 240_000);

afterAll(async () => {
  await stripe?.stop();
}, 60_000);

async function oneTimePrice(amount: number, currency = 'USD') {
  const product = await stripe.api.post('/api/Product', { name: 'Poster' });
  const price = await stripe.api.post('/api/Price', { productId: product.body.id, type: 'OneTime', amount, currency });
  expect(price.status, price.text).toBe(201);
  return price.body.id as string;
}

const intents = () => [...stripe.emulator.store.paymentIntents.values()];

describe('the backend checkout in Stripe mode', () => {
  it('pays with pm_card_visa: one confirmed PaymentIntent keyed by our payment, recorded with Stripe, test mode and its id', async () => {
    const priceId = await oneTimePrice(2500);
    const answer = await stripe.api.post('/api/Checkout', { priceId, customerEmail: 'visa@example.com', tokenRef: 'pm_card_visa' });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({ status: 'paid', paid: true, payment: { status: 'succeeded', card: { brand: 'visa', last4: '4242' } } });
    const payment = answer.body.payment;
    expect(payment.processor).toMatchObject({ name: 'stripe', mode: 'test', reference: expect.stringMatching(/^pi_/) });
    const intent = stripe.emulator.store.paymentIntents.get(payment.processor.reference)!;
    expect(intent).toMatchObject({ status: 'succeeded', amount: 2500, currency: 'usd', livemode: false });
    const create = stripe.emulator.requests.find((r) => r.path === '/v1/payment_intents' && (r.params.metadata as Record<string, string>)?.paybase_key);
    expect(create?.idempotencyKey).toBe((intent.metadata as Record<string, string>).paybase_key);
    expect((await stripe.api.get(`/api/Payment/${payment.id}`)).body.processor).toEqual(payment.processor);
  });

  it("answers 402 PAYMENT_DECLINED with Stripe's decline code", async () => {
    const priceId = await oneTimePrice(900);
    for (const [tokenRef, code] of [
      ['pm_card_chargeDeclined', 'generic_decline'],
      ['pm_card_chargeDeclinedInsufficientFunds', 'insufficient_funds'],
    ]) {
      const answer = await stripe.api.post('/api/Checkout', { priceId, customerEmail: 'declined@example.com', tokenRef });
      expect(answer.status, answer.text).toBe(402);
      expect(answer.body).toMatchObject({ code: 'PAYMENT_DECLINED', declineCode: code, checkout: { status: 'failed', paid: false } });
      expect(answer.body.checkout.payment).toMatchObject({
        status: 'failed',
        failureCode: code,
        processor: { name: 'stripe', reference: expect.stringMatching(/^pi_/) },
      });
    }
  });

  it('answers requires_action with the 3-D Secure page Stripe gives; authenticating there pays the checkout', async () => {
    const priceId = await oneTimePrice(4000);
    const returnUrl = 'https://shop.example/return?checkout={CHECKOUT_ID}';
    const answer = await stripe.api.post('/api/Checkout', {
      priceId,
      customerEmail: 'threeds@example.com',
      tokenRef: 'pm_card_authenticationRequired',
      returnUrl,
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({ paid: false, payment: { status: 'requires_action', nextAction: { type: 'redirect_to_url' } } });
    const { url } = answer.body.payment.nextAction;
    expect(url.startsWith(`${stripe.emulator.baseUrl}/emulator/authenticate/pi_`)).toBe(true);
    const intent = intents().find((pi) => pi.id === answer.body.payment.processor.reference)!;
    expect((intent.next_action as { redirect_to_url: { return_url: string } }).redirect_to_url.return_url).toBe(
      `https://shop.example/return?checkout=${answer.body.id}`,
    );

    const pressed = await fetch(url, {
      method: 'POST',
      body: new URLSearchParams({ secret: new URL(url).searchParams.get('secret')!, result: 'complete' }),
      redirect: 'manual',
    });
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toContain('redirect_status=succeeded');
    const paid = await waitFor(async () => {
      const read = await stripe.api.get(`/api/Checkout/${answer.body.id}`);
      return read.body.paid ? read.body : undefined;
    });
    expect(paid).toMatchObject({ status: 'paid', payment: { status: 'succeeded', nextAction: null } });
  });

  it('refunds through Stripe, keyed by our refund id, visible at the emulator', async () => {
    const priceId = await oneTimePrice(3000);
    const checkout = await stripe.api.post('/api/Checkout', { priceId, customerEmail: 'refund@example.com', tokenRef: 'pm_card_mastercard' });
    const payment = checkout.body.payment;
    const refund = await stripe.api.post(`/api/Payment/${payment.id}/Refund`, { amount: 1200, reason: 'damaged' });
    expect(refund.status, refund.text).toBe(201);
    expect(refund.body).toMatchObject({
      status: 'succeeded',
      amount: 1200,
      processor: { name: 'stripe', mode: 'test', reference: expect.stringMatching(/^re_/) },
    });
    const atStripe = stripe.emulator.store.refunds.get(refund.body.processor.reference)!;
    expect(atStripe).toMatchObject({ amount: 1200, status: 'succeeded', payment_intent: payment.processor.reference });
    expect(stripe.emulator.requests.find((r) => r.path === '/v1/refunds')?.idempotencyKey).toBe(refund.body.id);
    expect((await stripe.api.get(`/api/Payment/${payment.id}`)).body).toMatchObject({ status: 'partially_refunded', amountRefunded: 1200 });
  });

  it("charges ISK in Stripe's hundredths of a króna", async () => {
    const priceId = await oneTimePrice(500, 'ISK');
    const answer = await stripe.api.post('/api/Checkout', { priceId, customerEmail: 'isk@example.com', tokenRef: 'pm_card_visa' });
    expect(answer.status, answer.text).toBe(201);
    expect(stripe.emulator.store.paymentIntents.get(answer.body.payment.processor.reference)).toMatchObject({ amount: 50000, currency: 'isk' });
    expect(answer.body.payment.amount).toBe(500);
  });
});
