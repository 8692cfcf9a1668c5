import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, processorCustomers } from '../db/schema';
import type { PaymentProcessor } from './processor';

/** The account a processor customer lives at: a Stripe Customer of one account or mode does not exist at another. */
export type ProcessorAccount = Pick<PaymentProcessor, 'name' | 'mode' | 'connection'>;

/** A processor customer and the account it was made at (carried from a verification to the checkout that links it). */
export interface ProcessorCustomerRef {
  reference: string;
  account: ProcessorAccount;
}

/**
 * The processor's customer of one of ours (Stripe: the Customer its saved cards are attached to)
 * at `processor`'s account, made on first need (docs/processors.md, "Saved cards and renewals").
 * It may call the processor, so it runs with no transaction open; a repeated or concurrent first
 * call makes one customer (the idempotency key is derived from ours and the connection).
 * Undefined for a processor without customers (the sandbox).
 */
export async function processorCustomerOf(db: Db, processor: PaymentProcessor, merchantId: string, customerId: string): Promise<string | undefined> {
  if (!processor.ensureCustomer) return undefined;
  const known = await storedProcessorCustomer(db, processor, merchantId, customerId);
  if (known) return known;
  const [customer] = await db
    .select({ email: customers.email, name: customers.name })
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.merchantId, merchantId)));
  if (!customer) return undefined;
  const reference = await processor.ensureCustomer({
    customerId,
    email: customer.email,
    name: customer.name,
    idempotencyKey: customerKey(processor, customerId),
  });
  await linkProcessorCustomer(db, merchantId, customerId, { reference, account: processor });
  return (await storedProcessorCustomer(db, processor, merchantId, customerId)) ?? reference;
}

/** The platform's keys stay what they were before seller connections existed; a connection's carry its id. */
export function customerKey(processor: ProcessorAccount, ownId: string): string {
  return processor.connection === 'platform' ? `customer:${ownId}` : `customer:${processor.connection}:${ownId}`;
}

/** Records `ref` as the customer's processor customer at its account unless one is recorded already (the first wins). */
export async function linkProcessorCustomer(db: Db, merchantId: string, customerId: string, { reference, account }: ProcessorCustomerRef): Promise<void> {
  if (account.name === 'sandbox') return;
  await db
    .insert(processorCustomers)
    .values({ merchantId, customerId, processor: account.name, mode: account.mode, connection: account.connection, reference })
    .onConflictDoNothing();
}

async function storedProcessorCustomer(db: Db, processor: ProcessorAccount, merchantId: string, customerId: string): Promise<string | undefined> {
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
        eq(processorCustomers.connection, processor.connection),
      ),
    );
  return row?.reference;
}
