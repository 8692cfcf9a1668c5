import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { customers } from '@/lib/db/schema';
import { customerText } from '@/lib/i18n/customer-text';
import { listDevMailbox } from '@/lib/email/dev-mailbox';
import { savePaymentMethod } from '@/lib/payments/payment-methods';
import { SandboxProcessor } from '@/lib/payments/processor/sandbox';
import { writeEventEmail } from '@/lib/lifecycle-emails/event-emails';
import { sendDueReminders } from '@/lib/lifecycle-emails/reminders';
import { call } from '../helpers/api';
import { newMerchant } from '../helpers/merchants';
import { ik, waitFor } from '../helpers/payments';
import { signInSeller } from '../helpers/sessions';
import { advance, CARDS, clockFor, recurringPrice, subscribe } from '../helpers/subscriptions';

/**
 * The lifecycle emails of issue 32 (docs/invoices.md, "Lifecycle emails"), as a customer gets
 * them: each once, at its moment on the subscription's test clock, in the customer's language,
 * and none when the seller turned it off. Mails are found by category, never by position: the
 * receipts of the same charges are written by jobs and arrive in any order.
 */

type Api = Awaited<ReturnType<typeof newMerchant>>['api'];
type Mail = { category: string; subject: string; text: string; links: string[] };

async function mails(to: string, category: string): Promise<Mail[]> {
  const answer = await call('GET', `/dev/mailbox?format=json&to=${encodeURIComponent(to)}`);
  expect(answer.status).toBe(200);
  return (answer.body.data as Mail[]).filter((mail) => mail.category === category);
}

/** The one mail of this category, once its job has written it. */
async function mailOf(to: string, category: string): Promise<Mail> {
  const [mail] = await waitFor(async () => {
    const found = await mails(to, category);
    return found.length > 0 ? found : undefined;
  });
  return mail!;
}

/** A customer with a card (`number`, expiring `expiry`) saved as their default, in `locale` as a hosted checkout records it. */
async function customer(api: Api, merchantId: string, options: { locale?: string; number?: string; expiry?: { month: number; year: number } } = {}) {
  const email = `life-${crypto.randomBytes(5).toString('hex')}@example.com`;
  const created = await api.post('/api/Customer', { email, name: 'Lena' });
  expect(created.status, created.text).toBe(201);
  const customerId = created.body.id as string;
  if (options.locale) await getDb().update(customers).set({ locale: options.locale }).where(eq(customers.id, customerId));
  const expiry = options.expiry ?? { month: 12, year: 2040 };
  const card = await new SandboxProcessor().tokenizeCard({ number: options.number ?? CARDS.visa, expMonth: expiry.month, expYear: expiry.year, cvc: '123' });
  await getDb().transaction((tx) => savePaymentMethod(tx, merchantId, customerId, card));
  return { customerId, email };
}

/** The seller's Settings, changed as the console (a signed-in Owner) changes them. */
async function putSettings(merchant: { email: string }, body: Record<string, unknown>) {
  const { accessToken } = await signInSeller(merchant.email);
  const answer = await call('PUT', '/api/MerchantSettings', { key: accessToken, body });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

const portalUrl = (customerId: string) => expect.stringMatching(new RegExp(`/portal/${customerId}$`));

describe('lifecycle emails', () => {
  it('trial ending: once, 3 days before the trial ends, in German, with the first charge and the portal link', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 2500, currency: 'EUR', trialDays: 14, name: 'Atelier' });
    const { customerId, email } = await customer(api, merchant.id, { locale: 'de' });
    const clock = await clockFor(api, customerId, '2025-06-01T00:00:00.000Z');
    const sub = await subscribe(api, { customerId, priceId: price.id });
    expect(sub.body).toMatchObject({ status: 'trialing', trialEnd: '2025-06-15T00:00:00.000Z' });

    // Four days before: not yet.
    await advance(api, clock, '2025-06-11T00:00:00.000Z');
    expect((await sendDueReminders(getDb(), { testClockId: clock })).written).toBe(0);
    expect(await mails(email, 'trial.ending')).toEqual([]);

    // Three days before: the Advance's sweep writes it.
    await advance(api, clock, '2025-06-12T06:00:00.000Z');
    const mail = await mailOf(email, 'trial.ending');
    const { t, date, money } = customerText('de');
    const words = { seller: merchant.name, product: 'Atelier', date: date('2025-06-15T00:00:00.000Z'), amount: money(2500, 'EUR') };
    expect(mail.subject).toBe(t('lifecycle.trialEndingSubject', words));
    expect(mail.subject).toBe(`Ihre Testphase für Atelier bei ${merchant.name} endet am 15.06.2025`);
    expect(mail.text).toContain(t('lifecycle.trialEndingCharge', words));
    expect(mail.text).toContain('25,00');
    expect(mail.links).toEqual([portalUrl(customerId)]);

    // A sweep run again (another node, the hourly cron), or a later Advance in the window, writes no second one.
    expect((await sendDueReminders(getDb(), { testClockId: clock })).written).toBe(0);
    await advance(api, clock, '2025-06-13T00:00:00.000Z');
    await advance(api, clock, '2025-06-16T00:00:00.000Z');
    expect((await api.get(`/api/Subscription/${sub.body.id}`)).body.status).toBe('active');
    expect(await mails(email, 'trial.ending')).toHaveLength(1);
    // In the seller's design when there is one; always with a button to the portal.
    const [stored] = (await listDevMailbox(getDb(), { to: email })).filter((row) => row.category === 'trial.ending');
    expect(stored!.htmlBody).toContain(t('lifecycle.portalButton'));
  });

  it('cancellation: says when a cancellation at the period end ends it, then that it has ended; each once', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1200, name: 'Studio' });
    const { customerId, email } = await customer(api, merchant.id);
    const clock = await clockFor(api, customerId, '2025-03-01T00:00:00.000Z');
    const sub = await subscribe(api, { customerId, priceId: price.id });
    expect(sub.body.status, sub.text).toBe('active');

    const canceled = await api.post(`/api/Subscription/${sub.body.id}/Cancel`, { immediate: false }, ik());
    expect(canceled.status, canceled.text).toBe(200);
    const notice = await mailOf(email, 'subscription.canceled');
    const { t, date } = customerText('en');
    const words = { seller: merchant.name, product: 'Studio', date: date('2025-04-01T00:00:00.000Z') };
    expect(notice.subject).toBe(t('lifecycle.canceledSubject', words));
    expect(notice.text).toContain(t('lifecycle.canceledIntro', words));
    expect(notice.text).toContain('1 Apr 2025');
    expect(notice.links).toEqual([portalUrl(customerId)]);

    await advance(api, clock, '2025-04-02T00:00:00.000Z');
    const ended = await mailOf(email, 'subscription.ended');
    expect(ended.subject).toBe(t('lifecycle.endedSubject', words));
    expect(ended.text).toContain(t('lifecycle.endedIntro', words));
    expect(ended.text).not.toContain(t('lifecycle.endedUnpaid'));

    // The jobs run again: nothing more.
    expect(await writeEventEmail(getDb(), { kind: 'subscription_ended', subscriptionId: sub.body.id, unpaid: false })).toBe('written_before');
    expect(await writeEventEmail(getDb(), { kind: 'subscription_canceled', subscriptionId: sub.body.id, version: canceled.body.version })).toBe(
      'written_before',
    );
    expect(await mails(email, 'subscription.canceled')).toHaveLength(1);
    expect(await mails(email, 'subscription.ended')).toHaveLength(1);
  });

  it('renewal failed: once per declined renewal with the next try and the portal link, then ended by dunning', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1500, trialDays: 7, name: 'Press' });
    const { customerId, email } = await customer(api, merchant.id, { locale: 'fr', number: CARDS.declined });
    const clock = await clockFor(api, customerId, '2025-06-01T00:00:00.000Z');
    const sub = await subscribe(api, { customerId, priceId: price.id });
    expect(sub.status, sub.text).toBe(201);

    await advance(api, clock, '2025-06-08T00:00:00.000Z');
    expect((await api.get(`/api/Subscription/${sub.body.id}`)).body.status).toBe('past_due');
    const failed = await mailOf(email, 'renewal.failed');
    const { t, date, money } = customerText('fr');
    const words = { seller: merchant.name, product: 'Press', amount: money(1500, 'USD') };
    expect(failed.subject).toBe(t('lifecycle.failedSubject', words));
    expect(failed.text).toContain(t('lifecycle.failedIntro', words));
    expect(failed.text).toContain(t('lifecycle.failedRetry', { date: date('2025-06-09T00:00:00.000Z') }));
    expect(failed.links).toEqual([portalUrl(customerId)]);

    // Dunning's retries decline too: no second email for the same renewal, and no "confirm your payment" one.
    await advance(api, clock, '2025-06-10T00:00:00.000Z');
    expect((await api.get(`/api/Subscription/${sub.body.id}`)).body.latestBillingRecord).toMatchObject({ attempts: 2 });
    // Until every retry failed: the subscription ends, unpaid.
    await advance(api, clock, '2025-06-20T00:00:00.000Z');
    expect((await api.get(`/api/Subscription/${sub.body.id}`)).body.status).toBe('ended');
    const ended = await mailOf(email, 'subscription.ended');
    expect(ended.text).toContain(t('lifecycle.endedUnpaid'));
    expect(await mails(email, 'renewal.failed')).toHaveLength(1);
    expect(await mails(email, 'payment.authentication')).toEqual([]);
  });

  it('a renewal that needs authentication gets its own email, not a second one saying it failed', async () => {
    const { api } = await newMerchant();
    const price = await recurringPrice(api, { amount: 1500, trialDays: 7 });
    const email = `life-${crypto.randomBytes(5).toString('hex')}@example.com`;
    const created = await api.post('/api/Customer', { email });
    const saved = await api.post(`/api/Customer/${created.body.id}/PaymentMethod`, { tokenRef: 'tok_authentication_required' }, ik());
    expect(saved.status, saved.text).toBe(201);
    const clock = await clockFor(api, created.body.id, '2025-06-01T00:00:00.000Z');
    await subscribe(api, { customerId: created.body.id, priceId: price.id });
    await advance(api, clock, '2025-06-08T00:00:00.000Z');
    await mailOf(email, 'payment.authentication');
    // Until dunning ends it: the end's email comes after any queued before it.
    await advance(api, clock, '2025-06-20T00:00:00.000Z');
    await mailOf(email, 'subscription.ended');
    expect(await mails(email, 'renewal.failed')).toEqual([]);
    expect(await mails(email, 'payment.authentication')).toHaveLength(1);
  });

  it('refund issued: names the amount, the invoice and its credit note, in German, once', async () => {
    const { api, merchant } = await newMerchant();
    await putSettings(merchant, { invoicePrefix: 'LIFE' });
    const price = await recurringPrice(api, { amount: 4000, currency: 'EUR', name: 'Kurs' });
    const { customerId, email } = await customer(api, merchant.id, { locale: 'de' });
    const sub = await subscribe(api, { customerId, priceId: price.id });
    expect(sub.status, sub.text).toBe(201);
    const [billing] = (await api.get(`/api/BillingRecord?subscriptionId=${sub.body.id}`)).body.data;
    const refund = await api.post(`/api/Payment/${billing.paymentId}/Refund`, { amount: 1500 }, ik());
    expect(refund.status, refund.text).toBe(201);

    const mail = await mailOf(email, 'refund.issued');
    const [note] = (await api.get(`/api/CreditNote?billingRecordId=${billing.id}`)).body.data;
    expect(note).toMatchObject({ number: 'LIFE-CN-0001', invoiceNumber: 'LIFE-0001' });
    const { t, money } = customerText('de');
    expect(mail.subject).toBe(t('lifecycle.refundSubject', { seller: merchant.name, amount: money(1500, 'EUR') }));
    expect(mail.text).toContain(t('lifecycle.refundIntro', { seller: merchant.name, amount: money(1500, 'EUR') }));
    expect(mail.text).toContain('Rechnung: LIFE-0001');
    expect(mail.text).toContain('Gutschrift: LIFE-CN-0001');
    // The credit note itself, a link away (its hosted page, with its PDF).
    expect(mail.text).toContain(`Ihre Gutschrift, zur Rechnung abzulegen:\n${note.hostedUrl}`);

    expect(await writeEventEmail(getDb(), { kind: 'refund_issued', refundId: refund.body.id })).toBe('written_before');
    expect(await mails(email, 'refund.issued')).toHaveLength(1);
  });

  it('card expiring: once per card and expiry, the month before, to customers with a running subscription', async () => {
    const { api, merchant } = await newMerchant();
    const price = await recurringPrice(api, { amount: 900, name: 'Radio' });
    const { customerId, email } = await customer(api, merchant.id, { locale: 'es', expiry: { month: 12, year: 2034 } });
    const clock = await clockFor(api, customerId, '2034-10-20T00:00:00.000Z');
    const sub = await subscribe(api, { customerId, priceId: price.id });
    expect(sub.body.status, sub.text).toBe('active');
    // In October, December is not next month yet.
    expect((await sendDueReminders(getDb(), { testClockId: clock })).written).toBe(0);

    await advance(api, clock, '2034-11-01T00:00:00.000Z');
    const mail = await mailOf(email, 'card.expiring');
    const text = customerText('es');
    expect(mail.subject).toBe(text.t('lifecycle.expiringSubject', { last4: '4242' }));
    expect(mail.text).toContain(text.t('lifecycle.expiringIntro', { seller: merchant.name, card: text.card('visa', '4242'), month: text.month(2034, 12) }));
    expect(mail.text).toContain('diciembre de 2034');
    expect(mail.links).toEqual([portalUrl(customerId)]);

    // The renewal in November, and sweeps again: still one.
    await advance(api, clock, '2034-11-25T00:00:00.000Z');
    expect((await sendDueReminders(getDb(), { testClockId: clock })).written).toBe(0);
    expect(await mails(email, 'card.expiring')).toHaveLength(1);
  });

  it('upcoming renewal: 7 days before a yearly plan renews, with the date and the amount; never for a monthly one', async () => {
    const { api, merchant } = await newMerchant();
    const yearly = await recurringPrice(api, { amount: 12000, interval: 'year', name: 'Annual' });
    const { customerId, email } = await customer(api, merchant.id, { locale: 'ja' });
    const clock = await clockFor(api, customerId, '2025-01-01T00:00:00.000Z');
    const sub = await subscribe(api, { customerId, priceId: yearly.id });
    expect(sub.body.status, sub.text).toBe('active');

    await advance(api, clock, '2025-12-24T00:00:00.000Z');
    expect((await sendDueReminders(getDb(), { testClockId: clock })).written).toBe(0);
    await advance(api, clock, '2025-12-26T00:00:00.000Z');
    const mail = await mailOf(email, 'renewal.upcoming');
    const { t, date, money } = customerText('ja');
    const words = { seller: merchant.name, product: 'Annual', date: date('2026-01-01T00:00:00.000Z'), amount: money(12000, 'USD') };
    expect(mail.subject).toBe(t('lifecycle.upcomingSubject', words));
    expect(mail.text).toContain(t('lifecycle.upcomingIntro', words));
    expect(mail.links).toEqual([portalUrl(customerId)]);
    // Swept again within the 7 days, then renewed: still one.
    expect((await sendDueReminders(getDb(), { testClockId: clock })).written).toBe(0);
    await advance(api, clock, '2026-01-02T00:00:00.000Z');
    expect((await sendDueReminders(getDb(), { testClockId: clock })).written).toBe(0);
    expect(await mails(email, 'renewal.upcoming')).toHaveLength(1);

    // A monthly subscription renews within 7 days every month: no reminder.
    const monthly = await recurringPrice(api, { amount: 1000, name: 'Monthly' });
    const other = await customer(api, merchant.id);
    const otherClock = await clockFor(api, other.customerId, '2025-01-01T00:00:00.000Z');
    await subscribe(api, { customerId: other.customerId, priceId: monthly.id });
    await advance(api, otherClock, '2025-01-28T00:00:00.000Z');
    expect((await sendDueReminders(getDb(), { testClockId: otherClock })).written).toBe(0);
    expect(await mails(other.email, 'renewal.upcoming')).toEqual([]);
  });

  it('a seller who turned them off sends none, and Settings show each setting', async () => {
    const { api, merchant } = await newMerchant();
    const settings = await putSettings(merchant, {
      sendTrialEndingEmails: false,
      sendCancellationEmails: false,
      sendRefundEmails: false,
      sendPaymentFailedEmails: false,
      sendCardExpiringEmails: false,
      sendRenewalReminderEmails: false,
    });
    expect(settings).toMatchObject({ sendReceipts: true, sendTrialEndingEmails: false, sendRenewalReminderEmails: false });
    const price = await recurringPrice(api, { amount: 2500, trialDays: 14 });
    const { customerId, email } = await customer(api, merchant.id, { expiry: { month: 7, year: 2030 } });
    const clock = await clockFor(api, customerId, '2030-06-01T00:00:00.000Z');
    const sub = await subscribe(api, { customerId, priceId: price.id });

    // In the trial's last 3 days, with the card expiring next month: no reminder is due for this seller.
    await advance(api, clock, '2030-06-13T00:00:00.000Z');
    expect(await sendDueReminders(getDb(), { testClockId: clock })).toMatchObject({ written: 0, written_before: 0 });
    const canceled = await api.post(`/api/Subscription/${sub.body.id}/Cancel`, { immediate: true }, ik());
    expect(canceled.status, canceled.text).toBe(200);
    // The job of the end finds the email off (run by hand: the same answer whether or not it ran already).
    expect(await writeEventEmail(getDb(), { kind: 'subscription_ended', subscriptionId: sub.body.id, unpaid: false })).toBe('off');
    const lifecycle = ['trial.ending', 'card.expiring', 'subscription.ended'];
    expect((await listDevMailbox(getDb(), { to: email })).filter((mail) => lifecycle.includes(mail.category))).toEqual([]);

    // Turned on again, the same end is emailed.
    await putSettings(merchant, { sendCancellationEmails: true });
    expect(await writeEventEmail(getDb(), { kind: 'subscription_ended', subscriptionId: sub.body.id, unpaid: false })).toBe('written');
    expect(await mails(email, 'subscription.ended')).toHaveLength(1);
  });
});
