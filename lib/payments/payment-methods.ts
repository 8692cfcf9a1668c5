import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, merchants, paymentMethods } from '../db/schema';
import { paginate, mapPage, numberedPage, type PageRequest } from '../db/paginate';
import { findCustomerRow } from '../customers/customers';
import { notFound } from '../errors';
import { newId } from '../ids';
import { now } from '../clock';
import { recordEvent } from '../events/record-event';
import type { TokenizedCard } from './processor/types';
import { processorForSeller } from './processor';
import type { ProcessorAccount } from './processor-customers';

type PaymentMethodRow = typeof paymentMethods.$inferSelect;

export function toPaymentMethodResponse(row: PaymentMethodRow) {
  return {
    id: row.id,
    customerId: row.customerId,
    type: 'card' as const,
    brand: row.brand,
    last4: row.last4,
    expMonth: row.expMonth,
    expYear: row.expYear,
    isDefault: row.isDefault,
    // The sandbox's token is a stand-in; Stripe's PaymentMethod id is the object in its dashboard.
    processor: { name: row.processor, mode: row.processorMode, reference: row.processor === 'sandbox' ? null : row.processorToken },
    createdAt: row.createdAt.toISOString(),
  };
}

/** The customer's saved, not detached payment method references. */
export async function listPaymentMethods(db: Db, merchantId: string, customerId: string, query: PageRequest) {
  await findCustomerRow(db, merchantId, customerId);
  const page = await paginate(db, paymentMethods, {
    ...query,
    scope: [eq(paymentMethods.merchantId, merchantId), eq(paymentMethods.customerId, customerId)],
    where: [isNull(paymentMethods.detachedAt)],
    orderBy: [paymentMethods.createdAt, paymentMethods.id],
  });
  return mapPage(page, toPaymentMethodResponse);
}

/**
 * A wallet's saved cards across sellers: the payment methods of every customer record whose
 * email is the member's verified email, with the seller's name.
 */
export async function listWalletPaymentMethods(db: Db, email: string, query: { page: number; pageSize: number }) {
  const where = and(sql`lower(${customers.email}) = ${email.toLowerCase()}`, isNull(paymentMethods.detachedAt));
  const [rows, [total]] = await Promise.all([
    db
      .select({ method: paymentMethods, sellerName: merchants.name })
      .from(paymentMethods)
      .innerJoin(customers, eq(customers.id, paymentMethods.customerId))
      .innerJoin(merchants, eq(merchants.id, paymentMethods.merchantId))
      .where(where)
      .orderBy(desc(paymentMethods.createdAt), desc(paymentMethods.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ value: count() }).from(paymentMethods).innerJoin(customers, eq(customers.id, paymentMethods.customerId)).where(where),
  ]);
  return numberedPage(
    rows.map((row) => ({ ...toPaymentMethodResponse(row.method), sellerName: row.sellerName })),
    query,
    total?.value ?? 0,
  );
}

export async function findPaymentMethodRow(db: Db, merchantId: string, customerId: string, paymentMethodId: string, fieldPath?: string) {
  const [row] = await db
    .select()
    .from(paymentMethods)
    .where(
      and(
        eq(paymentMethods.id, paymentMethodId),
        eq(paymentMethods.merchantId, merchantId),
        eq(paymentMethods.customerId, customerId),
        isNull(paymentMethods.detachedAt),
      ),
    );
  if (!row) throw notFound("customer's payment method", paymentMethodId, fieldPath);
  return row;
}

/** A card to keep, and the processor account that keeps its token (the seller's current one when not given). */
export type SavableCard = TokenizedCard & { account?: ProcessorAccount };

/**
 * Keeps a processor token with its display details for the customer's later payments and emits
 * `payment_method.attached`. The customer's first saved method becomes their default. Callers
 * save only cards the processor accepted (lib/payments/card-verification.ts, or a successful
 * charge of the same card); `id` is the one the verification's idempotency key was derived from.
 */
export async function savePaymentMethod(tx: Db, merchantId: string, customerId: string, card: SavableCard, id = newId('paymentMethod')) {
  const account = card.account ?? (await processorForSeller(tx, merchantId));
  const [existing] = await tx
    .select({ id: paymentMethods.id })
    .from(paymentMethods)
    .where(and(eq(paymentMethods.customerId, customerId), isNull(paymentMethods.detachedAt)))
    .limit(1);
  const [row] = await tx
    .insert(paymentMethods)
    .values({
      id,
      merchantId,
      customerId,
      processorToken: card.token,
      processor: account.name,
      processorMode: account.mode,
      processorConnection: account.connection,
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      isDefault: !existing,
      createdAt: now(),
    })
    .returning();
  await recordEvent(tx, { merchantId, type: 'payment_method.attached', object: toPaymentMethodResponse(row!) });
  return row!;
}
