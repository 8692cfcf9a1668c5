import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, processorCustomers } from '../db/schema';
import { paymentProcessor } from './processor';

/**
 * The processor's customer of one of ours (Stripe: the Customer its saved cards are attached to),
 * made on first need (docs/processors.md, "Saved cards and renewals"). It may call the processor,
 * so it runs with no transaction open; a repeated or concurrent first call makes one customer
 * (the idempotency key is derived from ours). Undefined for a processor without customers (the sandbox).
 */
export async function processorCustomerOf(db: Db, merchantId: string, customerId: string): Promise<string | undefined> {
  const processor = paymentProcessor();
  if (!processor.ensureCustomer) return undefined;
  const known = await storedProcessorCustomer(db, merchantId, customerId);
  if (known) return known;
  const [customer] = await db
    .select({ email: customers.email, name: customers.name })
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.merchantId, merchantId)));
  if (!customer) return undefined;
  const reference = await processor.ensureCustomer({ customerId, email: customer.email, name: customer.name, idempotencyKey: `customer:${customerId}` });
  await linkProcessorCustomer(db, merchantId, customerId, reference);
  return (await storedProcessorCustomer(db, merchantId, customerId)) ?? reference;
}

/** Records `reference` as the customer's processor customer unless one is recorded already (the first wins). */
export async function linkProcessorCustomer(db: Db, merchantId: string, customerId: string, reference: string): Promise<void> {
  const processor = paymentProcessor();
  if (processor.name === 'sandbox') return;
  await db.insert(processorCustomers).values({ merchantId, customerId, processor: processor.name, mode: processor.mode, reference }).onConflictDoNothing();
}

async function storedProcessorCustomer(db: Db, merchantId: string, customerId: string): Promise<string | undefined> {
  const processor = paymentProcessor();
  if (processor.name === 'sandbox') return undefined;
  const [row] = await db
    .select({ reference: processorCustomers.reference })
    .from(processorCustomers)
    .where(
      and(
        eq(processorCustomers.merchantId, merchantId),
        eq(processorCustomers.customerId, customerId),
        eq(processorCustomers.processor, processor.name),
        eq(processorCustomers.mode, processor.mode),
      ),
    );
  return row?.reference;
}
