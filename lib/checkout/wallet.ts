import { and, count, desc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { customers, paymentMethods } from '../db/schema';
import { now } from '../clock';
import { findMemberById } from '../members/members';
import { findPublicPaymentLink } from '../payment-links/payment-links';
import { customerText, type CustomerText } from '../i18n/customer-text';
import { formQuantity, runHostedCheckout, type HostedPaymentResult } from './hosted';

/**
 * Paying a hosted checkout with a wallet card (docs/decisions.md, "Wallet cards at checkout").
 * A member's wallet lists cards saved with every seller under their verified email, but a card
 * is only ever charged by the seller it was saved with: here, a card of a customer record of
 * THIS link's seller whose email is the member's verified email. Cards saved with other sellers
 * are never re-used or re-tokenized for this one; the member types a card instead.
 */

export interface WalletCard {
  id: string;
  label: string;
  expiry: string;
  isDefault: boolean;
}

const BRAND: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', discover: 'Discover' };

function ownCards(merchantId: string, email: string) {
  return and(
    eq(paymentMethods.merchantId, merchantId),
    eq(customers.merchantId, merchantId),
    eq(customers.status, 'active'),
    sql`lower(${customers.email}) = ${email.toLowerCase()}`,
    isNull(paymentMethods.detachedAt),
  );
}

function unexpired(row: { expMonth: number; expYear: number }, at = now()): boolean {
  const year = at.getUTCFullYear();
  return row.expYear > year || (row.expYear === year && row.expMonth >= at.getUTCMonth() + 1);
}

/** The member's cards this seller may charge, and how many they keep with other sellers. */
export async function walletCardsForSeller(db: Database, merchantId: string, memberEmail: string) {
  const [rows, [elsewhere]] = await Promise.all([
    db
      .select({ method: paymentMethods })
      .from(paymentMethods)
      .innerJoin(customers, eq(customers.id, paymentMethods.customerId))
      .where(ownCards(merchantId, memberEmail))
      .orderBy(desc(paymentMethods.isDefault), desc(paymentMethods.createdAt), desc(paymentMethods.id))
      .limit(50),
    db
      .select({ value: count() })
      .from(paymentMethods)
      .innerJoin(customers, eq(customers.id, paymentMethods.customerId))
      .where(and(ne(paymentMethods.merchantId, merchantId), sql`lower(${customers.email}) = ${memberEmail.toLowerCase()}`, isNull(paymentMethods.detachedAt))),
  ]);
  const cards: WalletCard[] = rows
    .map((row) => row.method)
    .filter((method) => unexpired(method))
    .map((method) => ({
      id: method.id,
      label: `${BRAND[method.brand] ?? method.brand} •••• ${method.last4}`,
      expiry: `${String(method.expMonth).padStart(2, '0')}/${method.expYear}`,
      isDefault: method.isDefault,
    }));
  return { cards, elsewhere: elsewhere?.value ?? 0 };
}

export interface WalletPaymentForm {
  token: string;
  attemptKey: string;
  memberId: string;
  paymentMethodId: string;
  promotionCode: string;
  /** Chosen in the summary when the link's quantity is adjustable. */
  quantity?: number;
}

/** Pays a payment link with one of the member's cards saved with its seller (see above). */
export async function payHostedWithWallet(db: Database, form: WalletPaymentForm, text: CustomerText = customerText()): Promise<HostedPaymentResult> {
  const { t } = text;
  const member = await findMemberById(db, form.memberId);
  if (!member) return { kind: 'unavailable', message: t('wallet.errors.signInAgain') };
  const found = await findPublicPaymentLink(db, form.token);
  if (!found) return { kind: 'unavailable', message: t('checkout.errors.linkMissing') };
  if (!/^[A-Za-z0-9-]{8,100}$/.test(form.attemptKey)) return { kind: 'invalid', field: 'cardNumber', message: t('checkout.errors.reload') };
  const merchantId = found.link.merchantId;
  const [owned] = await db
    .select({ method: paymentMethods })
    .from(paymentMethods)
    .innerJoin(customers, eq(customers.id, paymentMethods.customerId))
    .where(and(ownCards(merchantId, member.email), eq(paymentMethods.id, form.paymentMethodId)));
  if (!owned) return { kind: 'invalid', field: 'cardNumber', message: t('wallet.errors.chooseSellerCard', { seller: found.sellerName }) };
  if (!unexpired(owned.method)) return { kind: 'invalid', field: 'cardNumber', message: t('wallet.errors.cardExpired') };
  const quantity = formQuantity(found.link, form.quantity, text);
  if ('kind' in quantity) return quantity;
  return runHostedCheckout(
    db,
    merchantId,
    {
      paymentLinkToken: form.token,
      customerId: owned.method.customerId,
      paymentMethodRefId: owned.method.id,
      promotionCode: form.promotionCode.trim() || undefined,
      ...quantity,
      customerLocale: text.locale,
    },
    { attempt: { key: `wallet:${form.attemptKey}` }, savePaymentMethod: false },
    text,
  );
}
