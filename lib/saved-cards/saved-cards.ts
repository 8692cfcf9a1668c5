import { and, eq, isNull, ne } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Phases } from '../db/phases';
import { isIdOf, newId } from '../ids';
import { findCustomerRow } from '../customers/customers';
import { finishCardVerification, verifyCardForSaving } from '../payments/card-verification';
import { paymentMethods, subscriptions } from '../db/schema';
import { now } from '../clock';
import { ApiError, notFound } from '../errors';
import { recordEvent } from '../events/record-event';
import { findPaymentMethodRow, savePaymentMethod, toPaymentMethodResponse, type SavableCard } from '../payments/payment-methods';
import type { TokenizedCard } from '../payments/processor/types';
import { assertSellerAcceptsPayments } from '../merchants/accepts-payments';
import { moveSubscriptionsToPaymentMethod, retryPastDueForCustomer } from '../subscriptions/commands';
import type { Actor } from '../subscriptions/subscription-writer';

/**
 * Makes a saved method the customer's default and the one their running subscriptions charge
 * (each a ChangePaymentMethod change with `subscription.updated`); open (past_due) records are
 * retried at once.
 */
export async function makeDefaultPaymentMethod(tx: Db, merchantId: string, customerId: string, paymentMethodId: string, actor: Actor) {
  const method = await findPaymentMethodRow(tx, merchantId, customerId, paymentMethodId, 'paymentMethodId');
  await tx
    .update(paymentMethods)
    .set({ isDefault: false })
    .where(and(eq(paymentMethods.customerId, customerId), ne(paymentMethods.id, method.id)));
  const [updated] = await tx.update(paymentMethods).set({ isDefault: true }).where(eq(paymentMethods.id, method.id)).returning();
  await moveSubscriptionsToPaymentMethod(tx, merchantId, customerId, method.id, actor);
  await retryPastDueForCustomer(tx, merchantId, customerId);
  return updated!;
}

/**
 * A new card, already verified with the processor (lib/payments/card-verification.ts): saved,
 * made default, used by the subscriptions, past-due records retried.
 */
export async function saveAsDefaultPaymentMethod(tx: Db, merchantId: string, customerId: string, card: SavableCard, actor: Actor, id?: string) {
  await assertSellerAcceptsPayments(tx, merchantId);
  const saved = await savePaymentMethod(tx, merchantId, customerId, card, id);
  return makeDefaultPaymentMethod(tx, merchantId, customerId, saved.id, actor);
}

/**
 * The portal's "add a card": a suspended seller is refused before the processor is asked; the
 * card is verified with no transaction open (a decline saves nothing), then saved as the default
 * in one transaction. The customer is there: a card whose issuer asks for 3-D Secure throws
 * CardAuthenticationNeeded, and finishAddingDefaultCard saves it once they authenticated it.
 */
export async function addVerifiedDefaultCard(db: Db, merchantId: string, customerId: string, card: TokenizedCard, actor: Actor, id = newId('paymentMethod')) {
  await assertSellerAcceptsPayments(db, merchantId);
  const verified = await verifyCardForSaving(db, {
    token: card.token,
    idempotencyKey: id,
    fieldPath: 'cardNumber',
    owner: { merchantId, customerId },
    customerPresent: true,
  });
  return db.transaction((tx) => saveAsDefaultPaymentMethod(tx, merchantId, customerId, verified, actor, id));
}

/**
 * The portal's "add a card" after the customer authenticated it in their browser: the processor
 * says how the verification ended and that it was this customer's (finishCardVerification), and
 * the card is saved as the default as addVerifiedDefaultCard saves it, under the id the
 * verification was made for. Finishing twice saves one card: the second finds it.
 */
export async function finishAddingDefaultCard(db: Db, merchantId: string, customerId: string, verificationReference: string, actor: Actor) {
  await assertSellerAcceptsPayments(db, merchantId);
  const verified = await finishCardVerification(db, { reference: verificationReference, owner: { merchantId, customerId } });
  // The portal's verifications are keyed by the payment method to be; any other (a checkout's) saves nothing here.
  if (!isIdOf('paymentMethod', verified.idempotencyKey)) throw notFound('card verification', verificationReference, 'setupIntent');
  return db.transaction(async (tx) => {
    // The customer's row serializes two finishes of one verification: the second finds the first's card.
    await findCustomerRow(tx, merchantId, customerId, undefined, { forUpdate: true });
    const [saved] = await tx
      .select()
      .from(paymentMethods)
      .where(and(eq(paymentMethods.id, verified.idempotencyKey), eq(paymentMethods.merchantId, merchantId), eq(paymentMethods.customerId, customerId)));
    return saved ?? saveAsDefaultPaymentMethod(tx, merchantId, customerId, verified, actor, verified.idempotencyKey);
  });
}

/**
 * POST /api/Customer/{customerId}/PaymentMethod: the card is verified at the processor with no
 * transaction open (its idempotency key is the new method's id), then saved in one transaction
 * with its events and the API answer. A decline throws 402 before anything is written.
 */
export async function attachPaymentMethod(
  phases: Phases,
  merchantId: string,
  customerId: string,
  body: { tokenRef: string; makeDefault?: boolean },
  actor: Actor,
) {
  await findCustomerRow(phases.db, merchantId, customerId);
  const id = newId('paymentMethod');
  const card = await verifyCardForSaving(phases.db, { token: body.tokenRef, idempotencyKey: id, owner: { merchantId, customerId } });
  return phases.db.transaction(async (tx) => {
    // The customer's row serializes concurrent saves, so exactly one becomes the first (default).
    await findCustomerRow(tx, merchantId, customerId, undefined, { forUpdate: true });
    const saved = body.makeDefault
      ? await saveAsDefaultPaymentMethod(tx, merchantId, customerId, card, actor, id)
      : await savePaymentMethod(tx, merchantId, customerId, card, id);
    const response = toPaymentMethodResponse(saved);
    await phases.answer(tx, response);
    return response;
  });
}

/**
 * Detaches a saved method (`payment_method.detached`). The default method of a customer with a
 * running subscription cannot be removed while it is the only one (409): add another first.
 */
export async function removePaymentMethod(tx: Db, merchantId: string, customerId: string, paymentMethodId: string, actor: Actor) {
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
  if (running && others.length === 0)
    throw new ApiError('INVALID_STATE', 'This is the only card for an active subscription: add another card before removing it.');
  const [detached] = await tx.update(paymentMethods).set({ detachedAt: now(), isDefault: false }).where(eq(paymentMethods.id, method.id)).returning();
  await recordEvent(tx, { merchantId, type: 'payment_method.detached', object: toPaymentMethodResponse(detached!) });
  if (method.isDefault && others[0]) await makeDefaultPaymentMethod(tx, merchantId, customerId, others[0].id, actor);
  else if (others[0]) {
    // Subscriptions that were switched to this (non-default) card go back to the default.
    await moveSubscriptionsToPaymentMethod(tx, merchantId, customerId, (others.find((o) => o.isDefault) ?? others[0]).id, actor, { from: method.id });
  }
  return detached!;
}
