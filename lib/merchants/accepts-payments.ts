import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { merchants } from '../db/schema';
import { ApiError } from '../errors';

/** What a customer is told wherever a suspended seller's money path is refused. */
export const SELLER_SUSPENDED_MESSAGE = 'This seller cannot accept payments right now.';

export async function isMerchantSuspended(db: Db, merchantId: string): Promise<boolean> {
  const [row] = await db.select({ status: merchants.status }).from(merchants).where(eq(merchants.id, merchantId));
  return row?.status === 'suspended';
}

/**
 * The one check every customer-started money path runs in its first phase (checkout, payment
 * link, wallet, subscription start, portal plan change, reactivation, resume, new card): a
 * suspended seller moves no money (docs/payments.md, "Suspended sellers"). 409 `INVALID_STATE`
 * with `reason: "seller_suspended"`.
 */
export async function assertSellerAcceptsPayments(db: Db, merchantId: string): Promise<void> {
  if (await isMerchantSuspended(db, merchantId)) throw sellerSuspended();
}

/** The same check of a seller's status read by a caller's own statement. */
export function assertStatusAcceptsPayments(status: string | null | undefined): void {
  if (status === 'suspended') throw sellerSuspended();
}

function sellerSuspended() {
  return new ApiError('INVALID_STATE', SELLER_SUSPENDED_MESSAGE, { extra: { reason: 'seller_suspended' } });
}
