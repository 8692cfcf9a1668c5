import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { billingRecords, payments, sandboxProcessorOperations } from '@/lib/db/schema';
import { config } from '@/lib/config';
import { reconcilePayment } from '@/lib/payments/recovery';
import { payHostedCheckout } from '@/lib/checkout/hosted';
// Reconciliation settles a payment through its kind of money move: every kind is loaded.
import '@/lib/server/jobs/money-move-kinds';
import { baseUrl } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { adHocLink, eventsOf, ik, oneTimePrice, waitFor } from '../helpers/payments';
import { advance, clockFor, customerWithCard, recurringPrice, subscribe } from '../helpers/subscriptions';

/**
 * A charge that asks the customer to authenticate (3-D Secure, docs/payments.md "Authentication"):
 * the sandbox card tok_authentication_required / 4000 0027 6000 3184, its authentication page,
 * and how the payment settles — like an unknown one — or is abandoned.
 */

const AUTH_CARD = '4000002760003184';

/** Presses a button of the sandbox's authentication page, as the browser's form post does. */
async function pressOnAuthenticationPage(url: string, result: 'complete' | 'fail') {
  return fetch(`${url}/settle`, { method: 'POST', body: new URLSearchParams({ result }), redirect: 'manual' });
}

/** The test server's PUBLIC_URL default: localhost on the port the tests reach as 127.0.0.1. */
function publicOrigin() {
  const url = new URL(baseUrl());
  url.hostname = 'localhost';
  return url.origin;
}

async function operationOf(paymentId: string) {
  const [row] = await getDb().select().from(sandboxProcessorOperations).where(eq(sandboxProcessorOperations.idempotencyKey, paymentId));
  return row!;
}

describe('payments that require the customer to authenticate', () => {
  it('answers requires_action with the authentication page; completing it there settles the checkout as paid', async () => {
    const { api, merchant } = await newMerchant();
    const price = await oneTimePrice(api, 2500);
    // The server's own address (PUBLIC_URL): a return there is redirected to straight away.
    const site = publicOrigin();
    const returnUrl = `${site}/shop/return?checkout={CHECKOUT_ID}`;
    const answer = await api.post(
      '/api/Checkout',
      { priceId: price.id, customerEmail: 'a@example.com', tokenRef: 'tok_authentication_required', returnUrl },
      ik(),
    );
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({
      status: 'open',
      paid: false,
      payment: { status: 'requires_action', settledAt: null, card: { brand: 'visa', last4: '3184' }, nextAction: { type: 'redirect_to_url' } },
    });
    const { url } = answer.body.payment.nextAction;
    expect(url).toMatch(new RegExp(`^${site}/sandbox/authenticate/sbxauth_[A-Za-z0-9_-]{32}$`));
    // The id is the page's only credential: nothing Paybase shows elsewhere leads to it.
    expect(url).not.toContain(answer.body.payment.id);
    const paymentId = answer.body.payment.id as string;
    // No payment event until it settles (the spec's are succeeded | failed | unknown).
    expect(await eventsOf(merchant.id, 'payment.unknown')).toHaveLength(0);
    expect(await eventsOf(merchant.id, 'payment.succeeded')).toHaveLength(0);
    expect((await api.get(`/api/Payment/${paymentId}`)).body).toMatchObject({ status: 'requires_action', nextAction: { url } });
    // The customer has not authenticated yet: nothing settles.
    expect(await reconcilePayment(getDb(), paymentId)).toBe('awaiting_customer');

    const page = await fetch(url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Complete authentication');
    expect(html).toContain('Fail authentication');
    expect(html).toContain('$25.00');

    const pressed = await pressOnAuthenticationPage(url, 'complete');
    expect(pressed.status).toBe(303);
    // Back to the return URL stored with the charge, with the checkout's id in it.
    expect(pressed.headers.get('location')).toBe(`${site}/shop/return?checkout=${answer.body.id}`);
    expect(await operationOf(paymentId)).toMatchObject({ status: 'succeeded' });
    // Pressed again (or "Fail" after it): the charge stays as it ended.
    expect((await pressOnAuthenticationPage(url, 'fail')).status).toBe(303);
    expect(await operationOf(paymentId)).toMatchObject({ status: 'succeeded' });

    // The return (or the reconcile-payment job, whichever is first) asks the processor.
    const outcome = await reconcilePayment(getDb(), paymentId);
    expect(['succeeded', 'not_unknown']).toContain(outcome);
    const checkout = (await api.get(`/api/Checkout/${answer.body.id}`)).body;
    expect(checkout).toMatchObject({ status: 'paid', paid: true, payment: { status: 'succeeded', nextAction: null } });
    const [record] = await getDb().select().from(billingRecords).where(eq(billingRecords.paymentId, paymentId));
    expect(record!.status).toBe('paid');
    expect(await eventsOf(merchant.id, 'payment.succeeded')).toHaveLength(1);
    expect(await eventsOf(merchant.id, 'billing_record.paid')).toHaveLength(1);
    // Settled, the page has nothing left to press.
    const after = await (await fetch(url)).text();
    expect(after).not.toContain('Complete authentication');
  });

  it('the reconcile-payment job settles it without the customer coming back', async () => {
    const { api } = await newMerchant();
    const price = await oneTimePrice(api, 700);
    const answer = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'j@example.com', tokenRef: 'tok_authentication_required' }, ik());
    expect(answer.body.payment.status).toBe('requires_action');
    const paymentId = answer.body.payment.id as string;
    // The job's first look (PAYMENT_RECONCILE_DELAY_MS later) finds the customer still at it and queues the next one.
    const [payment] = await getDb().select().from(payments).where(eq(payments.id, paymentId));
    // (A second after it: the first job was queued a few milliseconds after the payment was written.)
    const firstLook = payment!.updatedAt.getTime() + config.payments.reconcileDelayMs + 1000;
    await waitFor(async () => {
      const result = await getDb().execute(sql`select run_at from graphile_worker.jobs where key = ${`reconcile:${paymentId}`}`);
      const runAt = (result.rows[0] as { run_at?: Date } | undefined)?.run_at;
      return runAt && new Date(runAt).getTime() > firstLook ? true : undefined;
    });
    // No return URL: the page ends on its own words.
    const pressed = await pressOnAuthenticationPage(answer.body.payment.nextAction.url, 'complete');
    expect(pressed.headers.get('location')).toBe(`${answer.body.payment.nextAction.url}?ended=1`);
    expect(await (await fetch(pressed.headers.get('location')!)).text()).toContain('Authentication completed');
    const paid = await waitFor(async () => {
      const read = await api.get(`/api/Checkout/${answer.body.id}`);
      return read.body.paid ? read.body : undefined;
    });
    expect(paid).toMatchObject({ status: 'paid', payment: { status: 'succeeded' } });
  }, 60_000);

  it('"Fail authentication" fails the payment and gives back the link slot and the promotion redemption', async () => {
    const { api, merchant } = await newMerchant();
    const coupon = await api.post('/api/Coupon', { percentOff: 10, maxRedemptions: 1 });
    await api.post('/api/PromotionCode', { couponId: coupon.body.id, code: 'SECURE' });
    const link = await adHocLink(api, { maxCompletions: 1 });
    const answer = await api.post(
      `/api/PaymentLink/${link.id}/Complete`,
      { customerEmail: 'f@example.com', tokenRef: 'tok_authentication_required', promotionCode: 'SECURE', returnUrl: 'https://shop.example/back' },
      ik(),
    );
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({ status: 'open', total: 4500, payment: { status: 'requires_action', amount: 4500 } });
    // While the customer authenticates, the payment holds the link's only slot and the code's only redemption.
    expect((await api.get(`/api/PaymentLink/${link.id}`)).body).toMatchObject({ status: 'completed', completionCount: 1 });
    expect((await api.get(`/api/Coupon/${coupon.body.id}`)).body.timesRedeemed).toBe(1);

    const { url } = answer.body.payment.nextAction;
    const pressed = await pressOnAuthenticationPage(url, 'fail');
    // A return URL on another site is reached from the page (a form may only post to this one): never an open redirect.
    expect(pressed.status).toBe(303);
    expect(pressed.headers.get('location')).toBe(`${url}?ended=1`);
    const ended = await (await fetch(pressed.headers.get('location')!)).text();
    expect(ended).toContain('Authentication failed');
    expect(ended).toContain('https://shop.example/back');

    expect(await reconcilePayment(getDb(), answer.body.payment.id)).toBe('failed');
    const checkout = (await api.get(`/api/Checkout/${answer.body.id}`)).body;
    expect(checkout).toMatchObject({ status: 'failed', paid: false, payment: { status: 'failed', failureCode: 'authentication_failed', nextAction: null } });
    const [record] = await getDb().select().from(billingRecords).where(eq(billingRecords.paymentId, answer.body.payment.id));
    expect(record!.status).toBe('void');
    expect((await api.get(`/api/PaymentLink/${link.id}`)).body).toMatchObject({ status: 'active', completionCount: 0 });
    expect((await api.get(`/api/Coupon/${coupon.body.id}`)).body.timesRedeemed).toBe(0);
    expect(await eventsOf(merchant.id, 'payment.failed')).toHaveLength(1);
    expect(await eventsOf(merchant.id, 'payment_link.completed')).toHaveLength(0);
  });

  it('the hosted page sends the browser to authenticate; its result page asks the processor at once on return', async () => {
    const { api } = await newMerchant();
    const link = await adHocLink(api, { singleUse: true });
    const form = { token: link.token, attemptKey: `auth-${crypto.randomUUID()}`, email: 'h@example.com', name: 'Hana', promotionCode: '', saveCard: false };
    const hosted = await payHostedCheckout(getDb(), { ...form, cardNumber: AUTH_CARD, expiry: '12 / 34', cvc: '123' });
    expect(hosted).toMatchObject({ kind: 'requires_action', url: expect.stringMatching(/\/sandbox\/authenticate\/sbxauth_/) });
    if (hosted.kind !== 'requires_action') throw new Error('expected requires_action');
    const resultPage = `/pay/${link.token}/success?checkoutId=${hosted.checkoutId}`;
    // Back without finishing: still waiting, with the way back to the bank's page.
    const waiting = await (await fetch(`${baseUrl()}${resultPage}`)).text();
    expect(waiting).toContain('Confirm the payment with your bank');

    const actionId = new URL(hosted.url).pathname.split('/').pop()!;
    const pressed = await pressOnAuthenticationPage(`${baseUrl()}/sandbox/authenticate/${actionId}`, 'fail');
    expect(pressed.status).toBe(303);
    // The page sends the customer back to the hosted result page (this process's PUBLIC_URL is not the server's).
    const [operation] = await getDb().select().from(sandboxProcessorOperations).where(eq(sandboxProcessorOperations.actionId, actionId));
    expect(operation!.returnUrl).toMatch(new RegExp(`/pay/${link.token}/success\\?checkoutId=${hosted.checkoutId}$`));
    // The result page settles it before the reconcile-payment job's first look (PAYMENT_RECONCILE_DELAY_MS).
    const result = await (await fetch(`${baseUrl()}${resultPage}`)).text();
    expect(result).toContain('Payment failed');
    expect((await api.get(`/api/Checkout/${hosted.checkoutId}`)).body).toMatchObject({ status: 'failed', payment: { failureCode: 'authentication_failed' } });
    expect((await api.get(`/api/PaymentLink/${link.id}`)).body).toMatchObject({ status: 'active', completionCount: 0 });
  });

  it('refuses ids it did not hand out and anything but its two buttons', async () => {
    const { api } = await newMerchant();
    const price = await oneTimePrice(api, 300);
    const answer = await api.post('/api/Checkout', { priceId: price.id, customerEmail: 'g@example.com', tokenRef: 'tok_authentication_required' }, ik());
    const { url } = answer.body.payment.nextAction;
    const made = `${baseUrl()}/sandbox/authenticate/sbxauth_${'A'.repeat(32)}`;
    expect((await fetch(made)).status).toBe(404);
    expect((await pressOnAuthenticationPage(made, 'complete')).status).toBe(404);
    expect((await fetch(`${baseUrl()}/sandbox/authenticate/${answer.body.payment.id}`)).status).toBe(404);
    expect((await fetch(`${url}/settle`, { method: 'POST', body: new URLSearchParams({ result: 'succeed' }), redirect: 'manual' })).status).toBe(400);
    expect(await operationOf(answer.body.payment.id)).toMatchObject({ status: 'requires_action' });
  });

  it('an abandoned authentication is canceled at the processor after the timeout and fails, giving back the slot', async () => {
    const { api, merchant } = await newMerchant();
    const link = await adHocLink(api, { singleUse: true });
    const answer = await api.post(`/api/PaymentLink/${link.id}/Complete`, { customerEmail: 'l@example.com', tokenRef: 'tok_authentication_required' }, ik());
    const paymentId = answer.body.payment.id as string;
    expect(await reconcilePayment(getDb(), paymentId)).toBe('awaiting_customer');
    // The customer left: the payment has waited longer than PAYMENT_ACTION_TIMEOUT_MS.
    await getDb()
      .update(payments)
      .set({ updatedAt: sql`${payments.updatedAt} - make_interval(secs => ${config.payments.actionTimeoutMs / 1000 + 1})` })
      .where(eq(payments.id, paymentId));
    expect(await reconcilePayment(getDb(), paymentId)).toBe('failed');
    expect(await operationOf(paymentId)).toMatchObject({ status: 'failed', declineCode: 'canceled' });
    const checkout = (await api.get(`/api/Checkout/${answer.body.id}`)).body;
    expect(checkout).toMatchObject({ status: 'failed', payment: { status: 'failed', failureCode: 'authentication_abandoned' } });
    expect((await api.get(`/api/PaymentLink/${link.id}`)).body).toMatchObject({ status: 'active', completionCount: 0 });
    expect(await eventsOf(merchant.id, 'payment.failed')).toHaveLength(1);
    // The customer comes back to the page too late: nothing left to authenticate, nothing charged.
    const { url } = answer.body.payment.nextAction;
    expect(await (await fetch(url)).text()).not.toContain('Complete authentication');
    await pressOnAuthenticationPage(url, 'complete');
    expect(await operationOf(paymentId)).toMatchObject({ status: 'failed', declineCode: 'canceled' });
  });

  it('an off-session charge (a renewal) with that card fails authentication_required and goes into dunning', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1000, trialDays: 7 });
    const { customerId } = await customerWithCard(api, merchant.id, AUTH_CARD);
    const clock = await clockFor(api, customerId, '2025-06-01T00:00:00.000Z');
    const sub = (await subscribe(api, { customerId, priceId: price.id })).body;
    await advance(api, clock, '2025-06-08T00:00:00.000Z');
    const pastDue = (await api.get(`/api/Subscription/${sub.id}`)).body;
    expect(pastDue).toMatchObject({ status: 'past_due', latestBillingRecord: { status: 'open', attempts: 1, nextAttemptAt: '2025-06-09T00:00:00.000Z' } });
    const [failed] = await eventsOf(merchant.id, 'payment.failed');
    expect(failed!.data).toMatchObject({ object: { status: 'failed', failureCode: 'authentication_required', nextAction: null } });
    const rows = await getDb().select().from(payments).where(eq(payments.customerId, customerId));
    expect(rows.map((row) => row.status)).toEqual(['failed']);
  });

  it('a backend subscription create is off-session too: its first charge is declined, nothing waits', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1500 });
    const { customerId } = await customerWithCard(api, merchant.id, AUTH_CARD);
    const answer = await subscribe(api, { customerId, priceId: price.id });
    expect(answer.status, answer.text).toBe(402);
    expect(answer.body).toMatchObject({ code: 'PAYMENT_DECLINED', declineCode: 'authentication_required' });
  });
});
