import { and, type AnyColumn, eq, gte, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customers, lifecycleEmails, merchants, paymentMethods, prices, subscriptions, testClockCustomers, testClocks } from '../db/schema';
import type { LifecycleEmailKind } from '../db/schema';
import { now } from '../clock';
import { findUpcomingInvoice } from '../subscriptions/upcoming-invoice';
import { subscriptionWithProduct } from './event-emails';
import { writeLifecycleEmail, type LifecycleOutcome } from './write';

/**
 * The lifecycle emails that time brings (docs/invoices.md, "Lifecycle emails"): a trial ending in
 * 3 days, a yearly renewal in 7 days, a default card expiring next month. A sweep finds what is
 * due and not written yet, at each subscription's (customer's) own time: its test clock's when it
 * has one, else now. The worker runs it every hour for everyone (crontab) and after each test
 * clock Advance for that clock's customers. Each email is claimed once (write.ts), so a sweep run
 * twice, or on two nodes, writes none twice.
 */

/** How many of each kind one sweep writes at most; the next sweep goes on with the rest. */
const BATCH = 500;
const TRIAL_ENDING_NOTICE = '3 days';
const RENEWAL_NOTICE = '7 days';

export type ReminderScope = { testClockId?: string };

export async function sendDueReminders(db: Database, scope: ReminderScope = {}): Promise<Record<LifecycleOutcome, number>> {
  const outcomes: Record<LifecycleOutcome, number> = { written: 0, written_before: 0, off: 0, no_email: 0, not_due: 0 };
  const count = (outcome: LifecycleOutcome) => {
    outcomes[outcome]++;
  };
  for (const due of await trialsEnding(db, scope)) count(await writeTrialEndingEmail(db, due));
  for (const due of await yearlyRenewals(db, scope)) count(await writeRenewalUpcomingEmail(db, due));
  for (const due of await cardsExpiring(db, scope)) count(await writeCardExpiringEmail(db, due));
  return outcomes;
}

/** The time a subscription (or a customer) lives on: its test clock's, else now. */
const clockTime = () => sql`coalesce(${testClocks.frozenTime}, ${now().toISOString()}::timestamptz)`;

/** No email of this kind about this subject yet. */
function notWritten(kind: LifecycleEmailKind, merchantId: AnyColumn, subjectKey: SQL) {
  return sql`not exists (select 1 from ${lifecycleEmails} where ${lifecycleEmails.merchantId} = ${merchantId} and ${lifecycleEmails.kind} = ${kind} and ${lifecycleEmails.subjectKey} = ${subjectKey})`;
}

interface DueSubscription {
  id: string;
  merchantId: string;
  customerId: string;
}

function dueSubscriptions(db: Database, where: (SQL | undefined)[], scope: ReminderScope) {
  return db
    .select({ id: subscriptions.id, merchantId: subscriptions.merchantId, customerId: subscriptions.customerId })
    .from(subscriptions)
    .innerJoin(merchants, eq(merchants.id, subscriptions.merchantId))
    .innerJoin(customers, eq(customers.id, subscriptions.customerId))
    .innerJoin(prices, eq(prices.id, subscriptions.priceId))
    .leftJoin(testClocks, eq(testClocks.id, subscriptions.testClockId))
    .where(and(isNotNull(customers.email), scope.testClockId ? eq(subscriptions.testClockId, scope.testClockId) : undefined, ...where))
    .limit(BATCH);
}

/** Trials that end within 3 days of their time (and will be charged: canceling ones are `canceled`, paused ones charge nothing). */
function trialsEnding(db: Database, scope: ReminderScope) {
  const at = clockTime();
  return dueSubscriptions(
    db,
    [
      eq(subscriptions.status, 'trialing'),
      isNull(subscriptions.pausedAt),
      eq(merchants.sendTrialEndingEmails, true),
      sql`${subscriptions.trialEnd} > ${at} and ${subscriptions.trialEnd} <= ${at} + ${TRIAL_ENDING_NOTICE}::interval`,
      notWritten('trial_ending', subscriptions.merchantId, sql`${subscriptions.id}`),
    ],
    scope,
  );
}

/** Yearly subscriptions that renew within 7 days of their time (and will: not canceled, not paused). */
function yearlyRenewals(db: Database, scope: ReminderScope) {
  const at = clockTime();
  return dueSubscriptions(
    db,
    [
      eq(subscriptions.status, 'active'),
      eq(subscriptions.cancelAtPeriodEnd, false),
      isNull(subscriptions.pausedAt),
      gte(subscriptions.currentPeriodIndex, 0),
      eq(prices.interval, 'year'),
      eq(merchants.sendRenewalReminderEmails, true),
      sql`${subscriptions.currentPeriodEnd} > ${at} and ${subscriptions.currentPeriodEnd} <= ${at} + ${RENEWAL_NOTICE}::interval`,
      notWritten('renewal_upcoming', subscriptions.merchantId, renewalKey()),
    ],
    scope,
  );
}

/** The renewal a reminder is about: the period it starts. */
const renewalKey = () => sql`${subscriptions.id} || ':p' || (${subscriptions.currentPeriodIndex} + 1)`;

async function writeTrialEndingEmail(db: Database, due: DueSubscription) {
  const claim = { merchantId: due.merchantId, customerId: due.customerId, kind: 'trial_ending' as const, subjectKey: due.id };
  return writeLifecycleEmail(db, claim, async ({ tx, seller, text: { t, date, money }, portalUrl }) => {
    const found = await subscriptionWithProduct(tx, due.id);
    if (found?.sub.status !== 'trialing' || !found.sub.trialEnd) return null;
    // What the first charge will be; none when it will not renew (canceled meanwhile, or paused).
    const upcoming = await findUpcomingInvoice(tx, due.merchantId, due.id);
    if (!upcoming) return null;
    const words = { seller: seller.name, product: found.product, date: date(found.sub.trialEnd), amount: money(upcoming.total, upcoming.currency) };
    return {
      subject: t('lifecycle.trialEndingSubject', words),
      paragraphs: [t('lifecycle.trialEndingIntro', words), t('lifecycle.trialEndingCharge', words)],
      action: { text: t('lifecycle.trialEndingAction'), url: portalUrl, button: t('lifecycle.portalButton') },
    };
  });
}

async function writeRenewalUpcomingEmail(db: Database, due: DueSubscription) {
  const found = await subscriptionWithProduct(db, due.id);
  if (!found) return 'not_due';
  const claim = {
    merchantId: due.merchantId,
    customerId: due.customerId,
    kind: 'renewal_upcoming' as const,
    subjectKey: `${due.id}:p${found.sub.currentPeriodIndex + 1}`,
  };
  return writeLifecycleEmail(db, claim, async ({ tx, seller, text: { t, date, money }, portalUrl }) => {
    const current = await subscriptionWithProduct(tx, due.id);
    if (current?.sub.currentPeriodIndex !== found.sub.currentPeriodIndex) return null;
    const upcoming = await findUpcomingInvoice(tx, due.merchantId, due.id);
    if (!upcoming) return null;
    const words = { seller: seller.name, product: current.product, date: date(current.sub.currentPeriodEnd), amount: money(upcoming.total, upcoming.currency) };
    return {
      subject: t('lifecycle.upcomingSubject', words),
      paragraphs: [t('lifecycle.upcomingIntro', words)],
      action: { text: t('lifecycle.upcomingAction'), url: portalUrl, button: t('lifecycle.portalButton') },
    };
  });
}

/** Subscriptions that still bill the customer's card. */
const RUNNING = ['trialing', 'active', 'past_due'] as const;

/**
 * Default cards that expire next month of their customer's time (a customer on a test clock lives
 * on the clock's), whose customer has a running subscription: once per card and expiry.
 */
function cardsExpiring(db: Database, scope: ReminderScope) {
  const at = sql`(${clockTime()} at time zone 'UTC')`;
  const monthOf = (year: SQL | AnyColumn, month: SQL | AnyColumn) => sql`(${year} * 12 + ${month})`;
  return db
    .select({ id: paymentMethods.id, merchantId: paymentMethods.merchantId, customerId: paymentMethods.customerId })
    .from(paymentMethods)
    .innerJoin(merchants, eq(merchants.id, paymentMethods.merchantId))
    .innerJoin(customers, eq(customers.id, paymentMethods.customerId))
    .leftJoin(testClockCustomers, eq(testClockCustomers.customerId, paymentMethods.customerId))
    .leftJoin(testClocks, eq(testClocks.id, testClockCustomers.testClockId))
    .where(
      and(
        eq(paymentMethods.isDefault, true),
        isNull(paymentMethods.detachedAt),
        isNotNull(customers.email),
        eq(merchants.sendCardExpiringEmails, true),
        scope.testClockId ? eq(testClockCustomers.testClockId, scope.testClockId) : undefined,
        sql`${monthOf(paymentMethods.expYear, paymentMethods.expMonth)} = ${monthOf(sql`extract(year from ${at})::int`, sql`extract(month from ${at})::int`)} + 1`,
        sql`exists (select 1 from ${subscriptions} where ${subscriptions.customerId} = ${paymentMethods.customerId} and ${inArray(subscriptions.status, [...RUNNING])})`,
        notWritten('card_expiring', paymentMethods.merchantId, cardKey()),
      ),
    )
    .limit(BATCH);
}

/** A card's expiry a reminder is about: a card updated to a new expiry (by its network) is reminded again. */
const cardKey = () => sql`${paymentMethods.id} || ':' || ${paymentMethods.expYear} || '-' || ${paymentMethods.expMonth}`;

async function writeCardExpiringEmail(db: Database, due: { id: string; merchantId: string; customerId: string }) {
  const [card] = await db.select().from(paymentMethods).where(eq(paymentMethods.id, due.id));
  if (!card) return 'not_due';
  const claim = {
    merchantId: due.merchantId,
    customerId: due.customerId,
    kind: 'card_expiring' as const,
    subjectKey: `${card.id}:${card.expYear}-${card.expMonth}`,
  };
  return writeLifecycleEmail(db, claim, async ({ tx, seller, text, portalUrl }) => {
    const [current] = await tx.select().from(paymentMethods).where(eq(paymentMethods.id, due.id));
    if (!current?.isDefault || current.detachedAt || current.expYear !== card.expYear || current.expMonth !== card.expMonth) return null;
    const { t } = text;
    return {
      subject: t('lifecycle.expiringSubject', { last4: card.last4 }),
      paragraphs: [
        t('lifecycle.expiringIntro', { seller: seller.name, card: text.card(card.brand, card.last4), month: text.month(card.expYear, card.expMonth) }),
      ],
      action: { text: t('lifecycle.expiringAction'), url: portalUrl, button: t('lifecycle.portalButton') },
    };
  });
}
