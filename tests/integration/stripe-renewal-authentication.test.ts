import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboundEmails } from '@/lib/db/schema';
import { call } from '../helpers/api';
import { submitForm } from '../helpers/hosted-forms';
import { waitFor } from '../helpers/payments';
import { serverDatabase, serverPool } from '../helpers/server-pool';
import { startStripeServer } from '../helpers/stripe';
import { saveAuthenticatedStripeCard } from '../helpers/stripe-saved-cards';

/**
 * A renewal that needs authentication, in Stripe mode against the emulator (docs/processors.md,
 * "Renewals that need authentication"): the saved card is Stripe's pm_card_authenticationRequired,
 * so the off-session renewal declines `authentication_required`; the subscription is past_due and
 * the customer gets one email linking to the record's hosted invoice page, whose Pay now confirms
 * a PaymentIntent with them there and sends them to Stripe's 3-D Secure page (the emulator's),
 * which returns to the invoice page, where the payment settles. The sandbox's flow and the races
 * with dunning are renewal-authentication.test.ts.
 */
let stripe: Awaited<ReturnType<typeof startStripeServer>>;
let pool: pg.Pool;
let db: ReturnType<typeof serverDatabase>;

beforeAll(async () => {
  stripe = await startStripeServer();
  pool = serverPool(stripe.server.databaseUrl, 2);
  db = serverDatabase(pool);
}, 240_000);

afterAll(async () => {
  await pool?.end();
  await stripe?.stop();
}, 60_000);

async function mailbox(to: string) {
  const answer = await call('GET', `/dev/mailbox?format=json&to=${encodeURIComponent(to)}`, { baseUrl: stripe.server.baseUrl });
  expect(answer.status).toBe(200);
  return answer.body.data as { category: string; subject: string; text: string; links: string[] }[];
}

async function page(url: string) {
  const answer = await fetch(url);
  expect(answer.status).toBe(200);
  return answer.text();
}

describe('a renewal that needs 3-D Secure, in Stripe mode', () => {
  it('is past_due with one email; Pay now on the invoice page, with 3-D Secure completed on Stripe’s page, pays the record', async () => {
    const email = 'noor@example.com';
    const customer = await stripe.api.post('/api/Customer', { email, name: 'Noor' });
    expect(customer.status, customer.text).toBe(201);
    const customerId = customer.body.id as string;
    const { stripePaymentMethod } = await saveAuthenticatedStripeCard({ emulator: stripe.emulator, databaseUrl: stripe.server.databaseUrl }, customerId);
    const product = await stripe.api.post('/api/Product', { name: 'Atelier' });
    const price = await stripe.api.post('/api/Price', {
      productId: product.body.id,
      type: 'Recurring',
      amount: 2400,
      currency: 'EUR',
      interval: 'month',
      trialDays: 14,
    });
    const clock = await stripe.api.post('/api/TestClock', { name: 'renewal', frozenTime: '2030-01-10T10:00:00.000Z' });
    expect((await stripe.api.post(`/api/TestClock/${clock.body.id}/Customer`, { customerId })).status).toBe(200);
    const subscription = await stripe.api.post('/api/Subscription', { customerId, priceId: price.body.id });
    expect(subscription.status, subscription.text).toBe(201);

    // The trial ends: Stripe declines the off-session charge, the subscription is past_due.
    expect((await stripe.api.post(`/api/TestClock/${clock.body.id}/Advance`, { frozenTime: '2030-01-24T11:00:00.000Z' })).status).toBe(200);
    const pastDue = (await stripe.api.get(`/api/Subscription/${subscription.body.id}`)).body;
    expect(pastDue).toMatchObject({ status: 'past_due', latestBillingRecord: { status: 'open', attempts: 1 } });
    const charges = (await stripe.api.get(`/api/Payment?customerId=${customerId}`)).body.data;
    expect(charges).toMatchObject([{ status: 'failed', failureCode: 'authentication_required', processor: { name: 'stripe' } }]);
    // A retry declines the same way: still one email.
    expect((await stripe.api.post(`/api/TestClock/${clock.body.id}/Advance`, { frozenTime: '2030-01-25T12:00:00.000Z' })).status).toBe(200);
    expect((await stripe.api.get(`/api/Subscription/${subscription.body.id}`)).body).toMatchObject({
      status: 'past_due',
      latestBillingRecord: { status: 'open', attempts: 2 },
    });
    const [mail, ...more] = (await mailbox(email)).filter((m) => m.category === 'payment.authentication');
    expect(more).toEqual([]);
    expect(mail!.subject).toMatch(/^Confirm your payment to /);
    expect(mail!.text).toContain('€24.00');
    const record = (await stripe.api.get(`/api/BillingRecord?subscriptionId=${subscription.body.id}&status=open`)).body.data[0];
    expect(mail!.links).toEqual([record.hostedInvoiceUrl]);
    const token = new URL(record.hostedInvoiceUrl).pathname.split('/').pop()!;
    const stored = await db.select().from(outboundEmails).where(eq(outboundEmails.category, 'payment.authentication'));
    expect(stored.map((row) => `${row.textBody}${row.htmlBody}`).join('')).not.toContain(token);

    // The customer opens the link (the server's own address, PUBLIC_URL) and presses Pay now.
    const link = mail!.links[0]!;
    const invoice = await page(link);
    expect(invoice).toContain('Pay €24.00 with Visa •••• 3184.');
    const pressed = await submitForm(link, invoice, 'Pay now');
    expect(pressed.status).toBe(303);
    const waiting = await page(link);
    const authenticateAt = /data-testid="invoice-authentication"[\s\S]*?href="([^"]+)"/.exec(waiting)![1]!.replaceAll('&amp;', '&');
    expect(authenticateAt).toMatch(new RegExp(`^${stripe.emulator.baseUrl}/emulator/authenticate/pi_`));
    // A PaymentIntent confirmed with the customer there, the card's customer named, returning to the invoice page.
    const intent = stripe.emulator.store.paymentIntents.get(/authenticate\/(pi_\w+)/.exec(authenticateAt)![1]!)!;
    expect(intent).toMatchObject({ status: 'requires_action', amount: 2400, currency: 'eur', payment_method: stripePaymentMethod });
    const confirm = stripe.emulator.requests.filter((r) => r.path === '/v1/payment_intents' && r.params.payment_method === stripePaymentMethod).at(-1)!;
    expect(confirm.params).toMatchObject({ customer: intent.customer, return_url: expect.stringMatching(new RegExp(`^${link}\\?payment=pay_`)) });
    expect(confirm.params.off_session).toBeUndefined();

    // Stripe's 3-D Secure page: completed; back on the invoice page, the payment settles at once.
    const done = await fetch(authenticateAt, { method: 'POST', body: new URLSearchParams({ result: 'complete' }), redirect: 'manual' });
    expect(done.status).toBe(303);
    const back = done.headers.get('location')!;
    expect(back.startsWith(`${link}?payment=pay_`)).toBe(true);
    const receipt = await page(back);
    expect(receipt).toContain('Thank you: your payment was received.');
    expect(receipt).toMatch(/data-testid="invoice-status"[^>]*>paid</);

    expect((await stripe.api.get(`/api/Subscription/${subscription.body.id}`)).body).toMatchObject({
      status: 'active',
      latestBillingRecord: { status: 'paid', attempts: 2 },
    });
    const paid = (await stripe.api.get(`/api/BillingRecord/${record.id}`)).body;
    expect(paid).toMatchObject({ status: 'paid', amountDue: 0 });
    expect(paid.payments.at(-1)).toMatchObject({ id: paid.paymentId, status: 'succeeded', processor: { name: 'stripe', reference: intent.id } });
    expect(stripe.emulator.store.paymentIntents.get(intent.id)).toMatchObject({ status: 'succeeded' });
    await waitFor(async () => ((await mailbox(email)).some((m) => m.category === 'receipt') ? true : undefined));
  });
});
