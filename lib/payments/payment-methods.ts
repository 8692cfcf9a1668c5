import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { paymentMethods } from '../db/schema';
import { paginate, mapPage, type PageRequest } from '../db/paginate';
import { findCustomerRow } from '../customers/customers';

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
    createdAt: row.createdAt.toISOString(),
  };
}

/** The customer's saved, not detached payment method references. */
export async function listPaymentMethods(db: Db, merchantId: string, customerId: string, query: PageRequest) {
  await findCustomerRow(db, merchantId, customerId);
  const page = await paginate(db, paymentMethods, {
    ...query,
    where: [and(eq(paymentMethods.merchantId, merchantId), eq(paymentMethods.customerId, customerId), isNull(paymentMethods.detachedAt))],
    orderBy: [paymentMethods.createdAt, paymentMethods.id],
  });
  return mapPage(page, toPaymentMethodResponse);
}
