import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { customers, processorCustomers } from '@/lib/db/schema';
import { savePaymentMethod } from '@/lib/payments/payment-methods';
import type { StripeEmulator } from '../stripe-emulator/server';
import { serverDatabase, serverPool } from './server-pool';
import { STRIPE_TEST_SECRET_KEY } from './stripe-env';

/**
 * A Paybase customer of a Stripe-mode server whose saved card is one of Stripe's test
 * PaymentMethods attached to their Stripe Customer, as a card saved through a SetupIntent that the
 * customer authenticated (3-D Secure) in the browser is. Paybase's own card saving declines a card
 * that asks for authentication until that is built (docs/processors.md), so the test does at
 * Stripe what Stripe.js would (through the SDK, against the emulator) and records the card as
 * Paybase records a saved one (`savePaymentMethod`, on the server's database): the customer's
 * default card, which their subscriptions charge.
 */
export async function saveAuthenticatedStripeCard(
  target: { emulator: StripeEmulator; databaseUrl: string },
  customerId: string,
  testPaymentMethod = 'pm_card_authenticationRequired',
): Promise<{ paymentMethodId: string; stripePaymentMethod: string }> {
  const url = new URL(target.emulator.baseUrl);
  const stripe = new Stripe(STRIPE_TEST_SECRET_KEY, { host: url.hostname, port: url.port, protocol: 'http', maxNetworkRetries: 0 });
  const pool = serverPool(target.databaseUrl, 1);
  try {
    const db = serverDatabase(pool);
    const [customer] = await db.select().from(customers).where(eq(customers.id, customerId));
    if (!customer) throw new Error(`No customer ${customerId} on that server.`);
    // Their Stripe Customer, or the one Paybase would make on first need (lib/payments/processor-customers.ts), with its key.
    const [known] = await db.select().from(processorCustomers).where(eq(processorCustomers.customerId, customerId));
    const stripeCustomer =
      known?.reference ??
      (
        await stripe.customers.create(
          { ...(customer.email ? { email: customer.email } : {}), metadata: { paybase_customer: customerId } },
          { idempotencyKey: `customer:${customerId}` },
        )
      ).id;
    const card = await stripe.paymentMethods.attach(testPaymentMethod, { customer: stripeCustomer });
    const saved = await db.transaction(async (tx) => {
      if (!known) {
        await tx
          .insert(processorCustomers)
          .values({ merchantId: customer.merchantId, customerId, processor: 'stripe', mode: 'test', reference: stripeCustomer });
      }
      return savePaymentMethod(tx, customer.merchantId, customerId, {
        token: card.id,
        brand: card.card!.brand,
        last4: card.card!.last4,
        expMonth: card.card!.exp_month,
        expYear: card.card!.exp_year,
      });
    });
    return { paymentMethodId: saved.id, stripePaymentMethod: card.id };
  } finally {
    await pool.end();
  }
}
