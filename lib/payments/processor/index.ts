import { and, eq, isNull } from 'drizzle-orm';
import type Stripe from 'stripe';
import { config } from '../../config';
import type { Db } from '../../db/client';
import { payments, PLATFORM_CONNECTION, processorConnections } from '../../db/schema';
import { decryptSecret } from '../../secret-box';
import { SandboxProcessor } from './sandbox';
import { StripeProcessor, stripeClient } from './stripe';
import type { PaymentProcessor } from './types';

export type { PaymentProcessor } from './types';

let platform: PaymentProcessor | undefined;

/** The platform's processor: `PAYMENT_PROCESSOR` (docs/processors.md), made on first use. */
export function platformProcessor(): PaymentProcessor {
  platform ??= makePlatformProcessor();
  return platform;
}

function makePlatformProcessor(): PaymentProcessor {
  if (config.processor.name === 'sandbox') return new SandboxProcessor();
  const key = config.processor.stripe.secretKey!;
  return new StripeProcessor(stripeClient(key), key);
}

/** The sealed secret key of a connection is bound to its row (lib/secret-box.ts). */
export const connectionKeyContext = (connectionId: string) => `processor-connection:${connectionId}`;

type ConnectionRow = typeof processorConnections.$inferSelect;
const connected = new Map<string, { sealed: string; processor: StripeProcessor }>();

/** The processor of a seller connection while it holds a key; undefined once disconnected. */
function connectionProcessor(row: ConnectionRow): StripeProcessor | undefined {
  if (!row.sealedSecretKey) return undefined;
  const known = connected.get(row.id);
  if (known?.sealed === row.sealedSecretKey) return known.processor;
  const key = decryptSecret(row.sealedSecretKey, connectionKeyContext(row.id));
  const processor = new StripeProcessor(stripeClient(key), key, row.id);
  connected.set(row.id, { sealed: row.sealedSecretKey, processor });
  return processor;
}

/** The seller's connected account, if any (docs/processors.md, "Connecting a seller's Stripe account"). */
export async function activeConnectionOf(db: Db, merchantId: string): Promise<ConnectionRow | undefined> {
  const [row] = await db
    .select()
    .from(processorConnections)
    .where(and(eq(processorConnections.merchantId, merchantId), isNull(processorConnections.disconnectedAt)));
  return row;
}

/**
 * The processor a seller's new payments go through: their own connected Stripe account, else the
 * platform's. Read from the database every time (one indexed query), so a disconnect takes effect
 * at once on every node. A payment records it (`processorConnection`) in phase 1; everything
 * after that uses `processorOf(payment)`.
 */
export async function processorForSeller(db: Db, merchantId: string): Promise<PaymentProcessor> {
  const row = await activeConnectionOf(db, merchantId);
  return (row && connectionProcessor(row)) ?? platformProcessor();
}

let sandbox: SandboxProcessor | undefined;

/**
 * The processor that made a payment, to charge, settle or refund it: its seller connection while
 * it is connected; the platform's when it is the same processor in the same mode; the sandbox for
 * a sandbox payment (it keeps its book in our database); none for a payment of a processor, mode
 * or connection this installation no longer holds a key for: its money is not reachable from here.
 */
export async function processorOf(
  db: Db,
  payment: { merchantId: string; processor: string; processorMode: string; processorConnection: string },
): Promise<PaymentProcessor | undefined> {
  if (payment.processorConnection !== PLATFORM_CONNECTION) {
    const [row] = await db
      .select()
      .from(processorConnections)
      .where(and(eq(processorConnections.id, payment.processorConnection), eq(processorConnections.merchantId, payment.merchantId)));
    const processor = row && connectionProcessor(row);
    return processor?.mode === payment.processorMode ? processor : undefined;
  }
  const current = platformProcessor();
  if (payment.processor === current.name && payment.processorMode === current.mode) return current;
  if (payment.processor === 'sandbox') {
    sandbox ??= new SandboxProcessor();
    return sandbox;
  }
  return undefined;
}

/** The Stripe client of a connection (`platform` or a seller's), for webhooks and disputes; undefined when it holds no key. */
export async function stripeClientOfConnection(db: Db, connection: string): Promise<Stripe | undefined> {
  if (connection === PLATFORM_CONNECTION) return config.processor.name === 'stripe' ? platformStripeClient() : undefined;
  const [row] = await db.select().from(processorConnections).where(eq(processorConnections.id, connection));
  return row ? connectionProcessor(row)?.stripe : undefined;
}

/** The Stripe client of the connection a payment was made through (its disputes live there); undefined when it is not reachable. */
export async function stripeClientOfPayment(db: Db, merchantId: string, paymentId: string): Promise<Stripe | undefined> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.merchantId, merchantId)));
  const processor = payment && (await processorOf(db, payment));
  return processor instanceof StripeProcessor ? processor.stripe : undefined;
}

let platformStripe: Stripe | undefined;

/** The SDK client of the platform's Stripe connection (STRIPE_SECRET_KEY), for what is not a payment: webhooks and their endpoint. */
export function platformStripeClient(): Stripe {
  if (config.processor.name !== 'stripe') throw new Error('PAYMENT_PROCESSOR is not stripe');
  platformStripe ??= stripeClient(config.processor.stripe.secretKey!);
  return platformStripe;
}
