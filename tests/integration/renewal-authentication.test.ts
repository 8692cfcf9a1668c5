import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { customers, outboundEmails, payments, refunds } from '@/lib/db/schema';
import { plainPhases } from '@/lib/db/phases';
import { customerText } from '@/lib/i18n/customer-text';
import { listDevMailbox } from '@/lib/email/dev-mailbox';
import { finishMoneyMove, Pinned } from '@/lib/payments/money-moves';
import { reconcilePayment } from '@/lib/payments/recovery';
import { processNextAction } from '@/lib/subscriptions/renewals';
// Settling a payment finds its kind of money move in the registry: every kind is loaded.
import '@/lib/server/jobs/money-move-kinds';
import { call } from '../helpers/api';
import { submitForm } from '../helpers/hosted-forms';
import { newMerchant } from '../helpers/merchants';
import { eventsOf, ik, waitFor } from '../helpers/payments';
import { advance, clockFor, recurringPrice, subscribe } from '../helpers/subscriptions';

/**
 * A renewal the bank wants the customer to authenticate, in sandbox mode (docs/processors.md,
 * "Renewals that need authentication"): the off-session charge of `tok_authentication_required`
 * declines `authentication_required`, the subscription is past_due and the customer is emailed
 * (once per record) the hosted invoice page, whose Pay now charges the card with them there and
 * sends them to the sandbox's authentication page. Dunning goes on meanwhile; a record is never
 * paid twice without the second charge refunded. The same flow against the Stripe emulator is
 * stripe-renewal-authentication.test.ts; in a browser, e2e/renewal-authentication.spec.ts.
 */

type Api = Awaited<ReturnType<typeof newMerchant>>['api'];

async function mailbox(to: string, category: string) {
  const answer = await call('GET', `/dev/mailbox?format=json&to=${encodeURIComponent(to)}`);
  expect(answer.status).toBe(200);
  return (answer.body.data as { category: string; subject: string; text: string; links: string[] }[]).filter((mail) => mail.category === category);
}

/** A customer (with `token` saved as their card) whose first renewal, at the end of a 7-day trial, has just been charged off-session. */
async function renewedSubscription(api: Api, token: string, options: { locale?: string } = {}) {
  const price = await recurringPrice(api, { amount: 1500, trialDays: 7, name: 'Studio plan' });
  const email = `renewal-${crypto.randomBytes(4).toString('hex')}@example.com`;
  const customer = await api.post('/api/Customer', { email, name: 'Ines' });
  expect(customer.status, customer.text).toBe(201);
  const customerId = customer.body.id as string;
  // The language a hosted checkout records for its customer.
  if (options.locale) await getDb().update(customers).set({ locale: options.locale }).where(eq(customers.id, customerId));
  const saved = await api.post(`/api/Customer/${customerId}/PaymentMethod`, { tokenRef: token }, ik());
  expect(saved.status, saved.text).toBe(201);
  const clock = await clockFor(api, customerId, '2025-06-01T00:00:00.000Z');
  const subscription = await subscribe(api, { customerId, priceId: price.id });
  expect(subscription.status, subscription.text).toBe(201);
  await advance(api, clock, '2025-06-08T00:00:00.000Z');
  const sub = (await api.get(`/api/Subscription/${subscription.body.id}`)).body;
  const record = (await api.get(`/api/BillingRecord?subscriptionId=${sub.id}&status=open`)).body.data[0];
  return { customerId, email, clock, sub, record };
}

/** The invoice page as the customer's browser gets it. */
async function invoicePage(url: string, language = 'en') {
  const answer = await fetch(url, { headers: { 'accept-language': language } });
  expect(answer.status).toBe(200);
  return answer.text();
}

/** The one link of the page's "confirm the payment with your bank" box. */
function authenticationLink(html: string): string {
  const box = /<section[^>]*data-testid="invoice-authentication"[\s\S]*?<\/section>/.exec(html);
  expect(box, 'the page links to the authentication page').not.toBeNull();
  return /href="([^"]+)"/.exec(box![0])![1]!.replaceAll('&amp;', '&');
}

/** Presses a button of the sandbox's authentication page, as the browser's form post does; answers where it returns to. */
async function pressOnAuthenticationPage(url: string, result: 'complete' | 'fail') {
  const answer = await fetch(`${url}/settle`, { method: 'POST', body: new URLSearchParams({ result }), redirect: 'manual' });
  expect(answer.status).toBe(303);
  return answer.headers.get('location')!;
}

const paymentsOf = (customerId: string) => getDb().select().from(payments).where(eq(payments.customerId, customerId)).orderBy(payments.createdAt);

describe('a renewal that needs the customer to authenticate (sandbox)', () => {
  it('makes it past_due, emails the invoice page once, and Pay now there with the sandbox’s authentication pays the record', async () => {
    const { api, merchant } = await newMerchant();
    const { customerId, email, clock, sub, record } = await renewedSubscription(api, 'tok_authentication_required', { locale: 'fr' });
    expect(sub).toMatchObject({ status: 'past_due', latestBillingRecord: { status: 'open', attempts: 1, nextAttemptAt: '2025-06-09T00:00:00.000Z' } });
    const [declined] = await eventsOf(merchant.id, 'payment.failed');
    expect(declined!.data).toMatchObject({ object: { failureCode: 'authentication_required', subscriptionId: sub.id } });

    // One email, in the customer's language, naming the amount and the seller, linking to the record's page.
    const [mail, ...more] = await mailbox(email, 'payment.authentication');
    expect(more).toEqual([]);
    const { t, money } = customerText('fr');
    const seller = merchant.name as string;
    expect(mail!.subject).toBe(t('email.authenticationSubject', { seller }));
    expect(mail!.text).toContain(t('email.authenticationIntro', { seller, amount: money(1500, 'USD') }));
    expect(mail!.links).toEqual([record.hostedInvoiceUrl]);
    const [html] = await listDevMailbox(getDb(), { to: email, limit: 1 });
    expect(html!.htmlBody).toContain(`href="${record.hostedInvoiceUrl}"`);
    // Stored with its link sealed, as a sign-in link is: the page's token is not in the outbox.
    const token = new URL(record.hostedInvoiceUrl).pathname.split('/').pop()!;
    const [stored] = await getDb()
      .select()
      .from(outboundEmails)
      .where(and(eq(outboundEmails.toAddress, email), eq(outboundEmails.category, 'payment.authentication')));
    expect(`${stored!.textBody}${stored!.htmlBody}`).not.toContain(token);

    // Dunning goes on: the first retry declines the same way, and no second email is sent.
    await advance(api, clock, '2025-06-09T12:00:00.000Z');
    expect((await api.get(`/api/Subscription/${sub.id}`)).body).toMatchObject({
      status: 'past_due',
      latestBillingRecord: { status: 'open', attempts: 2, nextAttemptAt: '2025-06-11T00:00:00.000Z' },
    });
    expect(await mailbox(email, 'payment.authentication')).toHaveLength(1);

    // The customer follows the link: Pay now, posted as a browser does before the page's scripts load.
    const link = record.hostedInvoiceUrl as string;
    const page = await invoicePage(link);
    expect(page).toContain('Pay this invoice');
    expect(page).toContain('Pay $15.00 with Visa •••• 3184.');
    const paid = await submitForm(link, page, 'Pay now');
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(new URL(link).pathname);
    // Without scripts the page links to the authentication page (a form post may not be redirected to another site).
    const authenticateAt = authenticationLink(await invoicePage(link));
    expect(authenticateAt).toMatch(/\/sandbox\/authenticate\/sbxauth_/);
    const waiting = (await paymentsOf(customerId)).at(-1)!;
    expect(waiting).toMatchObject({ status: 'requires_action', amount: 1500, nextActionUrl: authenticateAt });
    expect(waiting.intent).toMatchObject({
      kind: 'subscription-retry',
      plan: { customerPresent: true, billingRecordId: record.id },
      returnUrl: `${link}?payment=${waiting.id}`,
    });

    const back = await pressOnAuthenticationPage(authenticateAt, 'complete');
    expect(back).toBe(`${link}?payment=${waiting.id}`);
    const receipt = await invoicePage(back);
    expect(receipt).toContain('Thank you: your payment was received.');
    expect(receipt).toMatch(/data-testid="invoice-status"[^>]*>paid</);
    expect(receipt).not.toContain('Pay now');

    const after = (await api.get(`/api/Subscription/${sub.id}`)).body;
    expect(after).toMatchObject({ status: 'active', latestBillingRecord: { status: 'paid', attempts: 2, nextAttemptAt: null } });
    const billed = (await api.get(`/api/BillingRecord/${record.id}`)).body;
    expect(billed).toMatchObject({ status: 'paid', paymentId: waiting.id, amountDue: 0 });
    expect(billed.payments.map((p: { status: string }) => p.status)).toEqual(['failed', 'failed', 'succeeded']);
    const succeeded = await eventsOf(merchant.id, 'payment.succeeded');
    expect(succeeded.map((event) => event.data)).toEqual([
      expect.objectContaining({ object: expect.objectContaining({ id: waiting.id, subscriptionId: sub.id, periodIndex: record.periodIndex }) }),
    ]);
    expect((await eventsOf(merchant.id, 'billing_record.paid')).map((event) => (event.data as any).object.id)).toEqual([record.id]);
    const updates = await eventsOf(merchant.id, 'subscription.updated');
    expect(updates.at(-1)!.data).toMatchObject({ object: { status: 'active' }, previousAttributes: { status: 'past_due' } });
    await waitFor(async () => ((await mailbox(email, 'receipt')).length === 1 ? true : undefined));

    // Paid by the customer: the scheduled retries stop.
    await advance(api, clock, '2025-06-16T00:00:00.000Z');
    expect(await paymentsOf(customerId)).toHaveLength(3);
    expect((await api.get(`/api/Subscription/${sub.id}`)).body).toMatchObject({ status: 'active' });
  });

  it('an ordinary decline sends no such email; Pay now’s decline is shown in the reader’s language and leaves dunning as it was', async () => {
    const { api } = await newMerchant();
    const { customerId, email, sub, record } = await renewedSubscription(api, 'tok_charge_customer_fail');
    expect(sub).toMatchObject({ status: 'past_due', latestBillingRecord: { attempts: 1, nextAttemptAt: '2025-06-09T00:00:00.000Z' } });
    expect(await mailbox(email, 'payment.authentication')).toEqual([]);

    const link = record.hostedInvoiceUrl as string;
    const paid = await submitForm(link, await invoicePage(link, 'fr'), 'Payer maintenant');
    expect(paid.status).toBe(303);
    const declined = (await paymentsOf(customerId)).at(-1);
    expect(declined).toMatchObject({ status: 'failed', failureCode: 'card_declined' });
    expect(paid.headers.get('location')).toBe(`${new URL(link).pathname}?payment=${declined!.id}`);
    const page = await invoicePage(new URL(paid.headers.get('location')!, link).toString(), 'fr');
    expect(page).toContain('<strong>Paiement refusé.</strong> Votre carte a été refusée. Vérifiez vos informations');
    expect(page).toContain('Payer maintenant');
    expect((await api.get(`/api/Subscription/${sub.id}`)).body).toMatchObject({
      status: 'past_due',
      latestBillingRecord: { status: 'open', attempts: 1, nextAttemptAt: '2025-06-09T00:00:00.000Z' },
    });
  });

  it('a retry that pays the record while the customer authenticates: the customer’s payment, confirmed later, is refunded', async () => {
    const { api, merchant } = await newMerchant();
    const { customerId, clock, sub, record } = await renewedSubscription(api, 'tok_authentication_required');
    const link = record.hostedInvoiceUrl as string;
    await submitForm(link, await invoicePage(link), 'Pay now');
    const customerPayment = (await paymentsOf(customerId)).at(-1)!;
    expect(customerPayment.status).toBe('requires_action');

    // Meanwhile a card that needs no authentication becomes the default: the retry it causes pays the record.
    const visa = await api.post(`/api/Customer/${customerId}/PaymentMethod`, { tokenRef: 'tok_visa', makeDefault: true }, ik());
    expect(visa.status, visa.text).toBe(201);
    await advance(api, clock, '2025-06-08T01:00:00.000Z');
    const retry = (await paymentsOf(customerId)).at(-1)!;
    expect(retry).toMatchObject({ status: 'succeeded' });
    expect((await api.get(`/api/BillingRecord/${record.id}`)).body).toMatchObject({ status: 'paid', paymentId: retry.id });

    // Then the customer completes the authentication: that charge went through too, and is given back.
    await pressOnAuthenticationPage(customerPayment.nextActionUrl!, 'complete');
    await reconcilePayment(getDb(), customerPayment.id);
    const [settled] = await getDb().select().from(payments).where(eq(payments.id, customerPayment.id));
    // Charged (its refund, queued with the settlement, may have finished already).
    expect(['succeeded', 'refunded']).toContain(settled!.status);
    const [refund] = await waitFor(async () => {
      const rows = await getDb()
        .select()
        .from(refunds)
        .where(and(eq(refunds.paymentId, customerPayment.id), eq(refunds.status, 'succeeded')));
      return rows.length ? rows : undefined;
    });
    expect(refund).toMatchObject({ amount: 1500 });
    expect(await getDb().select().from(refunds).where(eq(refunds.paymentId, retry.id))).toEqual([]);
    expect((await api.get(`/api/BillingRecord/${record.id}`)).body).toMatchObject({ status: 'paid', paymentId: retry.id });
    expect((await eventsOf(merchant.id, 'refund.requested')).map((event) => (event.data as any).object.paymentId)).toEqual([customerPayment.id]);
    expect((await api.get(`/api/Subscription/${sub.id}`)).body).toMatchObject({ status: 'active' });
    // The page thanks no one for the refunded charge.
    expect(await invoicePage(`${link}?payment=${customerPayment.id}`)).not.toContain('Thank you: your payment was received.');
  });

  it('the customer’s payment that pays the record while a retry is being charged: the retry is refunded', async () => {
    const { api } = await newMerchant();
    const { customerId, sub, record } = await renewedSubscription(api, 'tok_authentication_required');
    const link = record.hostedInvoiceUrl as string;
    await submitForm(link, await invoicePage(link), 'Pay now');
    const customerPayment = (await paymentsOf(customerId)).at(-1)!;
    expect(customerPayment.status).toBe('requires_action');
    const visa = await api.post(`/api/Customer/${customerId}/PaymentMethod`, { tokenRef: 'tok_visa', makeDefault: true }, ik());
    expect(visa.status, visa.text).toBe(201);

    // The retry's phase 1 runs (as the billing engine does) and its charge is out when the customer's payment is confirmed.
    const step = await getDb().transaction((tx) => processNextAction(tx, sub.id));
    expect(step).toBeInstanceOf(Pinned);
    await pressOnAuthenticationPage(customerPayment.nextActionUrl!, 'complete');
    await reconcilePayment(getDb(), customerPayment.id);
    expect((await api.get(`/api/BillingRecord/${record.id}`)).body).toMatchObject({ status: 'paid', paymentId: customerPayment.id });
    await finishMoneyMove(plainPhases(getDb()), (step as Pinned).payment);

    const retry = (step as Pinned).payment;
    const [charged] = await getDb().select().from(payments).where(eq(payments.id, retry.id));
    expect(['succeeded', 'refunded']).toContain(charged!.status);
    const [refund] = await waitFor(async () => {
      const rows = await getDb()
        .select()
        .from(refunds)
        .where(and(eq(refunds.paymentId, retry.id), eq(refunds.status, 'succeeded')));
      return rows.length ? rows : undefined;
    });
    expect(refund).toMatchObject({ amount: 1500 });
    expect(await getDb().select().from(refunds).where(eq(refunds.paymentId, customerPayment.id))).toEqual([]);
    expect((await api.get(`/api/Subscription/${sub.id}`)).body).toMatchObject({ status: 'active', latestBillingRecord: { status: 'paid' } });
  });
});
