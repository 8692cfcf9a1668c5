import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { payments } from '../../db/schema';
import { advanceClock, now } from '../../clock';
import { createProduct } from '../../catalog/products';
import { createPrice } from '../../catalog/prices';
import { CreatePriceBody, CreateProductBody } from '../../catalog/schemas';
import { createCustomer } from '../../customers/customers';
import { CreateCustomerBody } from '../../customers/schemas';
import { completeCheckout } from '../../checkout/checkouts';
import { refundPayment } from '../../payments/refunds';
import { createPaymentLink } from '../../payment-links/payment-links';
import { CreatePaymentLinkBody } from '../../payment-links/schemas';
import { RefundBody } from '../../payments/schemas';
import { savePaymentMethod } from '../../payments/payment-methods';
import { SandboxProcessor } from '../../payments/processor/sandbox';
import { cancelSubscription } from '../../subscriptions/commands';
import { commandSubscriptionInPhases, createSubscriptionInPhases } from '../../subscriptions/charging-requests';
import { plainPhases } from '../../db/phases';
import { CommandBody, CreateSubscriptionBody } from '../../subscriptions/schemas';
import { advanceTestClock, attachCustomerToTestClock, createTestClock } from '../../subscriptions/test-clocks';
import { log } from '../../log';
import { startSampleWebhooks } from './sample-webhooks';

const DAY = 86_400_000;
const ACTOR = 'system';
const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Ken', 'Radia', 'Linus', 'Margaret', 'Dennis', 'Frances', 'Tim'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Thompson', 'Perlman', 'Torvalds', 'Hamilton', 'Ritchie', 'Allen', 'Berners-Lee'];

/** A small deterministic generator, so every install shows the same sample business. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/**
 * Fills a seller with a realistic `days` of business through the domain functions (the same
 * ones the API calls): products and prices, customers, one-time payments with declines and
 * refunds (some through a payment link), subscriptions on a test clock with renewals, upgrades and churn, and webhook
 * deliveries to a sample receiver that sometimes fails (sample-webhooks.ts). The process
 * clock is walked forward from `days` ago so every row carries the day it simulates; call it
 * only before the server takes requests. Does nothing when the seller already has payments.
 */
export async function seedSampleData(db: Database, merchantId: string, days = 90): Promise<boolean> {
  const [existing] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.merchantId, merchantId)))
    .limit(1);
  if (existing) return false;
  const rand = random(42);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
  const tx = <T>(work: (tx: Database) => Promise<T>) => db.transaction((t) => work(t as unknown as Database));
  const end = now();
  let shifted = 0;
  const shift = (ms: number) => {
    advanceClock(ms);
    shifted += ms;
  };
  // Start just inside the range's first day, so the whole history falls in the last `days` days.
  shift(-(days - 1) * DAY - DAY / 2);
  // Three days in the second half when the sample receiver is down: retries, some that die.
  const outage = [0, 1, 2].map((offset) => Math.floor(days * 0.6) + offset);
  let webhooks: Awaited<ReturnType<typeof startSampleWebhooks>> | undefined;
  try {
    webhooks = await startSampleWebhooks(db, merchantId);
    const product = (name: string, description: string) => tx((t) => createProduct(t, merchantId, CreateProductBody.parse({ name, description })));
    const price = (productId: string, body: Record<string, unknown>) => tx((t) => createPrice(t, merchantId, CreatePriceBody.parse({ productId, ...body })));
    const tee = await product('Organic T-shirt', 'Soft cotton, printed to order');
    const mug = await product('Enamel mug', '350 ml, dishwasher safe');
    const poster = await product('Art print', 'A3, for our European shop');
    const plans = await product('Cloud Notes', 'Notes that sync everywhere');
    const oneTime = [
      await price(tee.id, { type: 'OneTime', amount: 2500, currency: 'USD' }),
      await price(mug.id, { type: 'OneTime', amount: 1200, currency: 'USD' }),
      await price(poster.id, { type: 'OneTime', amount: 1800, currency: 'EUR' }),
    ];
    const starter = await price(plans.id, { type: 'Recurring', amount: 900, currency: 'USD', interval: 'month' });
    const pro = await price(plans.id, { type: 'Recurring', amount: 2900, currency: 'USD', interval: 'month' });
    const team = await price(plans.id, { type: 'Recurring', amount: 29_000, currency: 'USD', interval: 'year' });
    // A shareable link for the mug: some orders come through it.
    const mugLink = await tx((t) =>
      createPaymentLink(
        t,
        merchantId,
        CreatePaymentLinkBody.parse({ priceId: oneTime[1]!.id, name: 'Enamel mug (shop link)', adjustableQuantity: { enabled: true, maximum: 10 } }),
      ),
    );
    const clock = await tx((t) => createTestClock(t, merchantId, { name: 'Sample data', frozenTime: now() }));
    const subscribers: { subscriptionId: string; priceId: string }[] = [];
    const card = new SandboxProcessor();

    for (let day = 0; day < days; day += 1) {
      webhooks.setOutage(outage.includes(day));
      // Business grows: more orders and sign-ups as the weeks go by.
      const orders = 2 + Math.floor(rand() * (3 + day / 15));
      for (let i = 0; i < orders; i += 1) {
        shift(Math.floor(rand() * (DAY / (orders + 1))));
        const name = `${pick(FIRST)} ${pick(LAST)}`;
        const email = `${name.toLowerCase().replace(/[^a-z]+/g, '.')}.${Math.floor(rand() * 40)}@example.com`;
        const tokenRef = rand() < 0.08 ? 'tok_declined' : rand() < 0.02 ? 'tok_insufficient_funds' : 'tok_visa';
        const item = rand() < 0.15 ? { paymentLinkToken: mugLink.token } : { priceId: pick(oneTime).id };
        const result = await completeCheckout(plainPhases(db), merchantId, {
          ...item,
          customerEmail: email,
          customerName: name,
          tokenRef,
          quantity: 1 + Math.floor(rand() * 2),
        });
        const payment = result.checkout.payment;
        if (payment?.status === 'succeeded' && rand() < 0.07) {
          const amount = rand() < 0.5 ? payment.amount : Math.floor(payment.amount / 2);
          await refundPayment(plainPhases(db), merchantId, payment.id, RefundBody.parse({ amount, reason: 'requested_by_customer' }));
        }
        await webhooks.deliverDue();
      }
      if (rand() < 0.55) {
        const name = `${pick(FIRST)} ${pick(LAST)}`;
        const customer = await tx((t) =>
          createCustomer(t, merchantId, CreateCustomerBody.parse({ email: `${name.toLowerCase().replace(/[^a-z]+/g, '.')}.sub${day}@example.com`, name })),
        );
        await tx((t) => attachCustomerToTestClock(t, merchantId, clock.id, customer.id));
        const number = rand() < 0.1 ? '4000000000009995' : '4242424242424242';
        const tokenized = await card.tokenizeCard({ number, expMonth: 12, expYear: 2040, cvc: '123' });
        const method = await tx((t) => savePaymentMethod(t, merchantId, customer.id, { ...tokenized, account: card }));
        const plan = rand() < 0.6 ? starter : rand() < 0.8 ? pro : team;
        const created = await createSubscriptionInPhases(
          plainPhases(db),
          merchantId,
          CreateSubscriptionBody.parse({ customerId: customer.id, priceId: plan.id, paymentMethodId: method.id }),
          { actor: ACTOR },
        );
        if (!created.declined) subscribers.push({ subscriptionId: created.subscription.id, priceId: plan.id });
      }
      // Some upgrade, a few leave.
      for (const sub of subscribers.filter((s) => s.priceId === starter.id && rand() < 0.01)) {
        await commandSubscriptionInPhases(
          plainPhases(db),
          merchantId,
          sub.subscriptionId,
          CommandBody.parse({ type: 'ChangePrice', priceId: pro.id }),
          ACTOR,
        ).catch(() => undefined);
        sub.priceId = pro.id;
      }
      const leaving = subscribers.filter(() => rand() < 0.004);
      for (const sub of leaving) {
        await tx((t) => cancelSubscription(t, merchantId, sub.subscriptionId, true, ACTOR)).catch(() => undefined);
        subscribers.splice(subscribers.indexOf(sub), 1);
      }
      const dayEnd = end.getTime() - (days - day - 1) * DAY;
      if (now().getTime() < dayEnd) shift(dayEnd - now().getTime());
      await advanceTestClock(plainPhases(db), merchantId, clock.id, { frozenTime: now() }).catch(() => undefined);
      await webhooks.deliverDue();
    }
    await webhooks.finish();
    log.info({ merchantId, days, subscriptions: subscribers.length }, 'sample data created');
    return true;
  } finally {
    await webhooks?.stop();
    advanceClock(-shifted);
  }
}
