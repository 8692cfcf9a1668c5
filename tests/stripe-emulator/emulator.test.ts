import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StripeEmulator } from './server';

/** The Stripe emulator itself, driven through the official SDK as Paybase drives Stripe. */
let emulator: StripeEmulator;
let stripe: Stripe;
const received: { body: string; signature: string }[] = [];
let receiver: http.Server;
let receiverUrl: string;

beforeAll(async () => {
  emulator = new StripeEmulator({ webhookRetryDelayMs: 50, webhookMaxAttempts: 2 });
  const url = new URL(await emulator.start());
  stripe = new Stripe('sk_test_emulatortests1', { host: url.hostname, port: url.port, protocol: 'http', maxNetworkRetries: 0 });
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ body, signature: String(req.headers['stripe-signature']) });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/stripe`;
});

afterAll(async () => {
  await emulator?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const error = async (promise: Promise<unknown>) =>
  promise.then(
    () => expect.unreachable('Stripe answered without an error'),
    (e: Stripe.errors.StripeError) => e,
  );

describe('the Stripe emulator', () => {
  it('refuses parameters the stripe package does not declare, or of the wrong type, as Stripe does', async () => {
    const unknown = await error(stripe.paymentIntents.create({ amount: 1000, currency: 'usd', colour: 'blue' } as Stripe.PaymentIntentCreateParams));
    expect(unknown).toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400, code: 'parameter_unknown', param: 'colour' });
    const nested = await error(
      stripe.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method_options: { card: { colour: 'blue' } } } as Stripe.PaymentIntentCreateParams),
    );
    expect(nested).toMatchObject({ statusCode: 400, param: 'payment_method_options[card][colour]' });
    const mistyped = await error(stripe.paymentIntents.create({ amount: 'ten' as unknown as number, currency: 'usd' }));
    expect(mistyped).toMatchObject({ statusCode: 400, code: 'parameter_invalid_integer', param: 'amount' });
    const missing = await error(stripe.refunds.create({ amount: 5 }));
    expect(missing).toMatchObject({ statusCode: 400, code: 'parameter_missing' });
    const noKey = await error(
      new Stripe('nonsense', { host: new URL(emulator.baseUrl).hostname, port: new URL(emulator.baseUrl).port, protocol: 'http' }).balance.retrieve(),
    );
    expect(noKey).toMatchObject({ statusCode: 401 });
  });

  it('replays an Idempotency-Key with the same parameters and refuses it with others', async () => {
    const params = { amount: 1500, currency: 'eur', payment_method: 'pm_card_visa', confirm: true, off_session: true } as const;
    const first = await stripe.paymentIntents.create(params, { idempotencyKey: 'emulator-replay-1' });
    const again = await stripe.paymentIntents.create(params, { idempotencyKey: 'emulator-replay-1' });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect([...emulator.store.paymentIntents.values()].filter((pi) => pi.id === first.id)).toHaveLength(1);
    const other = await error(stripe.paymentIntents.create({ ...params, amount: 1600 }, { idempotencyKey: 'emulator-replay-1' }));
    expect(other).toMatchObject({ type: 'StripeIdempotencyError', statusCode: 400 });
    // A decline is an answer too: replayed, not charged again.
    const declined = await error(
      stripe.paymentIntents.create({ ...params, payment_method: 'pm_card_chargeDeclined' }, { idempotencyKey: 'emulator-replay-2' }),
    );
    const declinedAgain = await error(
      stripe.paymentIntents.create({ ...params, payment_method: 'pm_card_chargeDeclined' }, { idempotencyKey: 'emulator-replay-2' }),
    );
    expect(declined).toMatchObject({ type: 'StripeCardError', statusCode: 402, code: 'card_declined', decline_code: 'generic_decline' });
    expect(declinedAgain.payment_intent?.id).toBe(declined.payment_intent?.id);
    expect(declinedAgain.headers!['idempotent-replayed']).toBe('true');
  });

  it("knows Stripe's test payment methods", async () => {
    const funds = await error(
      stripe.paymentIntents.create({ amount: 100, currency: 'usd', payment_method: 'pm_card_chargeDeclinedInsufficientFunds', confirm: true }),
    );
    expect(funds).toMatchObject({ code: 'card_declined', decline_code: 'insufficient_funds' });
    const offSession = await error(
      stripe.paymentIntents.create({ amount: 100, currency: 'usd', payment_method: 'pm_card_authenticationRequired', confirm: true, off_session: true }),
    );
    expect(offSession).toMatchObject({ code: 'authentication_required' });
    const present = await stripe.paymentIntents.create({
      amount: 100,
      currency: 'usd',
      payment_method: 'pm_card_authenticationRequired',
      confirm: true,
      return_url: 'https://shop.example/back',
    });
    expect(present.status).toBe('requires_action');
    const page = present.next_action!.redirect_to_url!.url!;
    expect(await (await fetch(page)).text()).toContain('Complete authentication');
    const secret = new URL(page).searchParams.get('secret')!;
    const completed = await fetch(page, { method: 'POST', body: new URLSearchParams({ secret, result: 'complete' }), redirect: 'manual' });
    expect(completed.status).toBe(303);
    expect(completed.headers.get('location')).toMatch(/^https:\/\/shop\.example\/back\?payment_intent=pi_.*redirect_status=succeeded/);
    expect((await stripe.paymentIntents.retrieve(present.id)).status).toBe('succeeded');
  });

  it('asks for 3-D Secure when a card that needs it is set up: Stripe.js’s challenge (use_stripe_sdk) or a redirect (return_url), then setup_intent.* events', async () => {
    const endpoint = await stripe.webhookEndpoints.create({ url: receiverUrl, enabled_events: ['setup_intent.succeeded', 'setup_intent.setup_failed'] });
    const customer = await stripe.customers.create({ email: 'secure@example.com' });
    const setUp = (params: Partial<Stripe.SetupIntentCreateParams> = {}) =>
      stripe.setupIntents.create({ customer: customer.id, payment_method: 'pm_card_authenticationRequired', confirm: true, usage: 'off_session', ...params });

    // Confirmed by a server without return_url: Stripe.js carries out the challenge in the page.
    const present = await setUp({ metadata: { paybase_key: 'pm_one' } });
    expect(present).toMatchObject({ status: 'requires_action', next_action: { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } } });
    const challenge = (present.next_action!.use_stripe_sdk as { stripe_js: string }).stripe_js;
    expect((await stripe.paymentMethods.retrieve(String(present.payment_method))).customer).toBeNull();
    // Stripe.js reads the intent with the publishable key and its client secret only, and sees no customer or metadata.
    const url = new URL(emulator.baseUrl);
    const browser = new Stripe('pk_test_emulatortests1', { host: url.hostname, port: url.port, protocol: 'http', maxNetworkRetries: 0 });
    const seen = await browser.setupIntents.retrieve(present.id, { client_secret: present.client_secret! });
    expect(seen).toMatchObject({ id: present.id, status: 'requires_action', next_action: { type: 'use_stripe_sdk' } });
    expect(seen).not.toHaveProperty('customer');
    expect(seen).not.toHaveProperty('metadata');
    expect(await error(browser.setupIntents.retrieve(present.id, { client_secret: `${present.id}_secret_guessed` }))).toMatchObject({
      statusCode: 400,
      param: 'client_secret',
    });
    expect(await error(browser.setupIntents.retrieve(present.id))).toMatchObject({ statusCode: 400, param: 'client_secret' });
    expect(await error(browser.setupIntents.create({ customer: customer.id }))).toMatchObject({ statusCode: 401 });

    // The challenge page in Stripe.js's frame: completing it tells the page that opened it, and the card is set up on the customer.
    const framed = `${challenge}&origin=${encodeURIComponent('https://shop.example')}`;
    expect(await (await fetch(framed)).text()).toContain('3D Secure test card setup');
    const secret = new URL(challenge).searchParams.get('secret')!;
    const done = await (await fetch(framed, { method: 'POST', body: new URLSearchParams({ secret, result: 'complete' }) })).text();
    expect(done).toContain('Authentication completed.');
    expect(done).toContain(`window.parent.postMessage({"type":"stripe-emulator:authentication-finished","intent":"${present.id}"}, "https://shop.example")`);
    const succeeded = await stripe.setupIntents.retrieve(present.id);
    expect(succeeded).toMatchObject({ status: 'succeeded', next_action: null, customer: customer.id, metadata: { paybase_key: 'pm_one' } });
    expect((await stripe.paymentMethods.retrieve(String(succeeded.payment_method))).customer).toBe(customer.id);
    // Once settled, the page changes nothing.
    await fetch(framed, { method: 'POST', body: new URLSearchParams({ secret, result: 'fail' }) });
    expect((await stripe.setupIntents.retrieve(present.id)).status).toBe('succeeded');

    // Failed: the intent needs another card, with Stripe's reason, and the card is not attached.
    const failing = await setUp();
    const failingPage = (failing.next_action!.use_stripe_sdk as { stripe_js: string }).stripe_js;
    const failedCard = String(failing.payment_method);
    await fetch(failingPage, { method: 'POST', body: new URLSearchParams({ secret: new URL(failingPage).searchParams.get('secret')!, result: 'fail' }) });
    expect(await stripe.setupIntents.retrieve(failing.id)).toMatchObject({
      status: 'requires_payment_method',
      payment_method: null,
      next_action: null,
      last_setup_error: { type: 'invalid_request_error', code: 'setup_intent_authentication_failure', payment_method: { id: failedCard } },
    });
    expect((await stripe.paymentMethods.retrieve(failedCard)).customer).toBeNull();

    // With a return_url, Stripe answers its page to redirect to, which comes back with Stripe's parameters.
    const redirected = await setUp({ return_url: 'https://shop.example/saved' });
    expect(redirected).toMatchObject({
      status: 'requires_action',
      next_action: { type: 'redirect_to_url', redirect_to_url: { return_url: 'https://shop.example/saved' } },
    });
    const redirectPage = redirected.next_action!.redirect_to_url!.url!;
    const back = await fetch(redirectPage, {
      method: 'POST',
      body: new URLSearchParams({ secret: new URL(redirectPage).searchParams.get('secret')!, result: 'complete' }),
      redirect: 'manual',
    });
    expect(back.status).toBe(303);
    const location = new URL(back.headers.get('location')!);
    expect(Object.fromEntries(location.searchParams)).toEqual({
      setup_intent: redirected.id,
      setup_intent_client_secret: redirected.client_secret,
      redirect_status: 'succeeded',
    });

    await emulator.webhooks.settled();
    // This endpoint's deliveries, taken out of those the other tests read.
    const events = received.splice(0).map(({ body, signature }) => stripe.webhooks.constructEvent(body, signature, endpoint.secret!));
    expect(events.map((e) => [e.type, (e.data.object as Stripe.SetupIntent).id])).toEqual([
      ['setup_intent.succeeded', present.id],
      ['setup_intent.setup_failed', failing.id],
      ['setup_intent.succeeded', redirected.id],
    ]);
    await stripe.webhookEndpoints.del(endpoint.id);
  });

  it('makes PaymentMethods of test card numbers for Stripe.js (publishable key), and nothing else with that key', async () => {
    const url = new URL(emulator.baseUrl);
    const browser = new Stripe('pk_test_emulatortests1', { host: url.hostname, port: url.port, protocol: 'http', maxNetworkRetries: 0 });
    const year = new Date().getUTCFullYear() + 2;
    const typed = (number: string, more: Partial<Stripe.PaymentMethodCreateParams.Card> = {}) =>
      browser.paymentMethods.create({ type: 'card', card: { number, exp_month: 7, exp_year: year, cvc: '123', ...more }, billing_details: { name: 'Ana' } });
    const visa = await typed('4242424242424242');
    expect(visa).toMatchObject({
      id: expect.stringMatching(/^pm_/),
      card: { brand: 'visa', last4: '4242', exp_month: 7, exp_year: year },
      billing_details: { name: 'Ana' },
    });
    expect(JSON.stringify(visa)).not.toContain('4242424242424242');
    // The card behaves as its test PaymentMethod: this one asks for 3-D Secure when charged.
    const secure = await typed('4000002500003155');
    const charged = await stripe.paymentIntents.create({
      amount: 500,
      currency: 'usd',
      payment_method: secure.id,
      confirm: true,
      return_url: 'https://shop.example/back',
    });
    expect(charged).toMatchObject({ status: 'requires_action', next_action: { type: 'redirect_to_url' } });
    const declined = await typed('4000000000000002');
    expect(await error(stripe.paymentIntents.create({ amount: 500, currency: 'usd', payment_method: declined.id, confirm: true }))).toMatchObject({
      decline_code: 'generic_decline',
    });

    expect(await error(typed('4242424242424241'))).toMatchObject({ type: 'StripeCardError', statusCode: 402, code: 'incorrect_number' });
    expect(await error(typed('4242424242424242', { cvc: '1' }))).toMatchObject({ code: 'invalid_cvc' });
    expect(await error(typed('4242424242424242', { exp_year: 2001 }))).toMatchObject({ code: 'invalid_expiry_year' });
    expect(await error(typed('5105105105105100'))).toMatchObject({ code: 'card_declined', decline_code: 'test_mode_live_card' });
    // The SDK's types hold the browser's request as they hold the server's.
    expect(await error(typed('4242424242424242', { colour: 'red' } as never))).toMatchObject({ statusCode: 400, param: 'card[colour]' });
    // A publishable key may do nothing else; a secret key may not send card numbers.
    expect(await error(browser.paymentIntents.create({ amount: 500, currency: 'usd' }))).toMatchObject({ type: 'StripeAuthenticationError', statusCode: 401 });
    expect(await error(browser.paymentMethods.retrieve(visa.id))).toMatchObject({ statusCode: 401 });
    expect(
      await error(stripe.paymentMethods.create({ type: 'card', card: { number: '4242424242424242', exp_month: 7, exp_year: year, cvc: '123' } })),
    ).toMatchObject({ statusCode: 400, param: 'card[number]', message: expect.stringContaining('Sending credit card numbers directly') });
  });

  it('serves its stand-in for Stripe.js and the card frame to browsers', async () => {
    const script = await fetch(emulator.stripeJsUrl);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const code = await script.text();
    expect(code).toContain('window.Stripe = StripeStandIn');
    expect(() => new Function(code)).not.toThrow();
    const frame = await (await fetch(`${emulator.baseUrl}/emulator/elements/card`)).text();
    expect(frame).toContain('placeholder="Card number"');
    expect(frame).not.toMatch(/^\s*(import|export)\b/m);
  });

  it('keeps customers, attached payment methods, setup intents, refunds and disputes', async () => {
    const customer = await stripe.customers.create({ email: 'buyer@example.com' });
    const method = await stripe.paymentMethods.attach('pm_card_mastercard', { customer: customer.id });
    expect(method).toMatchObject({ customer: customer.id, card: { brand: 'mastercard', last4: '4444' } });
    const setup = await stripe.setupIntents.create({ customer: customer.id, payment_method: method.id, confirm: true, usage: 'off_session' });
    expect(setup.status).toBe('succeeded');
    expect((await stripe.paymentMethods.detach(method.id)).customer).toBeNull();

    const paid = await stripe.paymentIntents.create({ amount: 2000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, off_session: true });
    const refund = await stripe.refunds.create({ payment_intent: paid.id, amount: 500 }, { idempotencyKey: 'emulator-refund-1' });
    expect(refund).toMatchObject({ status: 'succeeded', amount: 500, payment_intent: paid.id });
    expect(await error(stripe.refunds.create({ payment_intent: paid.id, amount: 1600 }))).toMatchObject({ code: 'amount_too_large' });

    const disputed = await stripe.paymentIntents.create({ amount: 3000, currency: 'usd', payment_method: 'pm_card_createDispute', confirm: true });
    expect(disputed.status).toBe('succeeded');
    await new Promise((resolve) => setImmediate(resolve));
    const [dispute] = (await stripe.disputes.list({ payment_intent: disputed.id })).data;
    expect(dispute).toMatchObject({ status: 'needs_response', amount: 3000, reason: 'fraudulent' });
    const submitted = await stripe.disputes.update(dispute!.id, { evidence: { uncategorized_text: 'winning_evidence' } });
    expect(submitted.status).toBe('under_review');
    await new Promise((resolve) => setImmediate(resolve));
    expect((await stripe.disputes.retrieve(dispute!.id)).status).toBe('won');
  });

  it("opens a dispute for pm_card_createDispute and decides it by Stripe's test evidence, or by the test-only close", async () => {
    const disputeOf = async (amount: number) => {
      const paid = await stripe.paymentIntents.create({ amount, currency: 'eur', payment_method: 'pm_card_createDispute', confirm: true });
      await new Promise((resolve) => setImmediate(resolve));
      const [dispute] = (await stripe.disputes.list({ payment_intent: paid.id })).data;
      return dispute!;
    };
    const opened = await disputeOf(4000);
    expect(opened).toMatchObject({ id: expect.stringMatching(/^dp_/), status: 'needs_response', amount: 4000, currency: 'eur' });
    expect(opened.evidence_details.due_by).toBeGreaterThan(Date.now() / 1000);
    expect(opened.balance_transactions).toEqual([
      expect.objectContaining({ object: 'balance_transaction', amount: -4000, fee: 1500, net: -5500, reporting_category: 'dispute' }),
    ]);
    expect((await stripe.disputes.retrieve(opened.id, { expand: ['payment_intent'] })).payment_intent).toMatchObject({ object: 'payment_intent' });

    // The request is held to DisputeUpdateParams: evidence has no such field.
    expect(await error(stripe.disputes.update(opened.id, { evidence: { made_up: 'x' } as Stripe.DisputeUpdateParams.Evidence }))).toMatchObject({
      type: 'StripeInvalidRequestError',
    });
    const staged = await stripe.disputes.update(opened.id, { evidence: { product_description: 'A poster' }, submit: false });
    expect(staged).toMatchObject({ status: 'needs_response', evidence: { product_description: 'A poster' }, evidence_details: { has_evidence: true } });
    const submitted = await stripe.disputes.update(opened.id, { evidence: { uncategorized_text: 'losing_evidence' } });
    expect(submitted).toMatchObject({ status: 'under_review', evidence_details: { submission_count: 1 } });
    await new Promise((resolve) => setImmediate(resolve));
    const lost = await stripe.disputes.retrieve(opened.id);
    expect(lost.status).toBe('lost');
    expect(lost.balance_transactions).toHaveLength(1);
    expect(await error(stripe.disputes.update(opened.id, { evidence: { uncategorized_text: 'more' } }))).toMatchObject({ code: 'dispute_already_closed' });

    const close = (id: string, outcome: string) =>
      fetch(`${emulator.baseUrl}/emulator/test-helpers/disputes/${id}/close`, { method: 'POST', body: new URLSearchParams({ outcome }) });
    const second = await disputeOf(2500);
    expect((await close(second.id, 'maybe')).status).toBe(404);
    const closed = await close(second.id, 'won');
    expect(closed.status).toBe(200);
    expect(await closed.json()).toMatchObject({ id: second.id, status: 'won' });
    const won = await stripe.disputes.retrieve(second.id);
    expect(won.balance_transactions.map((t) => [t.amount, t.reporting_category])).toEqual([
      [-2500, 'dispute'],
      [2500, 'dispute_reversal'],
    ]);
    const types = (await stripe.events.list({ limit: 100 })).data.filter((e) => (e.data.object as { id?: string }).id === second.id).map((e) => e.type);
    expect(types.reverse()).toEqual(['charge.dispute.created', 'charge.dispute.funds_withdrawn', 'charge.dispute.funds_reinstated', 'charge.dispute.closed']);
    expect((await close(second.id, 'lost')).status).toBe(400);
  });

  it("maps Stripe's special-case currencies' amount rules", async () => {
    const fractionalKrona = await error(stripe.paymentIntents.create({ amount: 12345, currency: 'isk' }));
    expect(fractionalKrona).toMatchObject({ code: 'invalid_charge_amount_no_decimal_compatible', param: 'amount' });
    expect((await stripe.paymentIntents.create({ amount: 12300, currency: 'isk' })).amount).toBe(12300);
    expect(await error(stripe.paymentIntents.create({ amount: 5125, currency: 'kwd' }))).toMatchObject({ param: 'amount' });
  });

  it('sends events to registered endpoints, signed so that the SDK accepts them', async () => {
    const endpoint = await stripe.webhookEndpoints.create({ url: receiverUrl, enabled_events: ['payment_intent.succeeded', 'charge.dispute.created'] });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const paid = await stripe.paymentIntents.create({ amount: 700, currency: 'usd', payment_method: 'pm_card_createDispute', confirm: true });
    await new Promise((resolve) => setImmediate(resolve));
    await emulator.webhooks.settled();
    const events = received.map(({ body, signature }) => stripe.webhooks.constructEvent(body, signature, endpoint.secret!));
    expect(events.map((e) => e.type).sort()).toEqual(['charge.dispute.created', 'payment_intent.succeeded']);
    expect(events.find((e) => e.type === 'payment_intent.succeeded')!.data.object).toMatchObject({ id: paid.id, status: 'succeeded' });
    // A changed body, or another secret, fails verification.
    const { body, signature } = received[0]!;
    expect(() => stripe.webhooks.constructEvent(body.replace('"livemode": false', '"livemode": true'), signature, endpoint.secret!)).toThrow();
    expect(() => stripe.webhooks.constructEvent(body, signature, 'whsec_another')).toThrow();
    expect((await stripe.events.retrieve(events[0]!.id)).id).toBe(events[0]!.id);
    await stripe.webhookEndpoints.del(endpoint.id);
  });
});
