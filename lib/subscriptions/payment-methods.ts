import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '../db/client';
import { paymentMethods, subscriptions } from '../db/schema';
import { now } from '../clock';
import { ApiError } from '../http/errors';
import { findPaymentMethodRow, savePaymentMethod } from '../payments/payment-methods';
import type { TokenizedCard } from '../payments/processor/types';
import { assertSellerAcceptsPayments } from '../merchants/accepts-payments';
import { retryPastDueForCustomer } from './subscriptions';

/**
 * Makes a saved method the customer's default and the one their running subscriptions charge;
 * open (past_due) records are retried at once.
 */
export async function makeDefaultPaymentMethod(tx: Db, merchantId: string, customerId: string, paymentMethodId: string) {
  const method = await findPaymentMethodRow(tx, merchantId, customerId, paymentMethodId, 'paymentMethodId');
  await tx.update(paymentMethods).set({ isDefault: false }).where(and(eq(paymentMethods.customerId, customerId), ne(paymentMethods.id, method.id)));
  await tx.update(paymentMethods).set({ isDefault: true }).where(eq(paymentMethods.id, method.id));
  await tx
    .update(subscriptions)
    .set({ paymentMethodId: method.id, paymentToken: null, updatedAt: now() })
    .where(and(eq(subscriptions.merchantId, merchantId), eq(subscriptions.customerId, customerId), ne(subscriptions.status, 'ended')));
  await retryPastDueForCustomer(tx, merchantId, customerId);
  return method;
}

/** A new card (portal or API): saved, made default, used by the subscriptions, past-due records retried. */
export async function useNewPaymentMethod(tx: Db, merchantId: string, customerId: string, card: TokenizedCard) {
  await assertSellerAcceptsPayments(tx, merchantId);
  const saved = await savePaymentMethod(tx, merchantId, customerId, card);
  return makeDefaultPaymentMethod(tx, merchantId, customerId, saved.id);
}

/**
 * Detaches a saved method. The default method of a customer with a running subscription cannot
 * be removed while it is the only one (409): add another first.
 */
export async function removePaymentMethod(tx: Db, merchantId: string, customerId: string, paymentMethodId: string) {
  const method = await findPaymentMethodRow(tx, merchantId, customerId, paymentMethodId, 'paymentMethodId');
  const others = await tx
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.customerId, customerId), isNull(paymentMethods.detachedAt), ne(paymentMethods.id, method.id)));
  const [running] = await tx
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.customerId, customerId), ne(subscriptions.status, 'ended')))
    .limit(1);
  if (running && others.length === 0) throw new ApiError('INVALID_STATE', 'This is the only card for an active subscription: add another card before removing it.');
  await tx.update(paymentMethods).set({ detachedAt: now(), isDefault: false }).where(eq(paymentMethods.id, method.id));
  if (method.isDefault && others[0]) await makeDefaultPaymentMethod(tx, merchantId, customerId, others[0].id);
}
