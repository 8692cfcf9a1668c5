import type { AttemptLease } from '../http/idempotency';
import { and, eq, sql } from 'drizzle-orm';
import { preparedPerDatabase, type Database, type Db } from '../db/client';
import { customers, merchants, prices, products, type PostalAddress } from '../db/schema';
import { now } from '../clock';
import { ApiError, invalidField } from '../errors';
import { METADATA_LIMITS } from '../http/schemas';
import { findPriceRow, priceWithProductName, refuseMetered, type PriceRow } from '../catalog/prices';
import { chargeableCustomer, createCustomer, findCustomerByEmail, findCustomerRow, type CustomerRow } from '../customers/customers';
import { processorForSeller } from '../payments/processor';
import type { CardDetails } from '../payments/processor/types';
import { findPaymentMethodRow } from '../payments/payment-methods';
import type { ProcessorCustomerRef } from '../payments/processor-customers';
import {
  findPaymentLinkByToken,
  findPaymentLinkRow,
  paymentLinkBeingPaid,
  paymentLinkStatus,
  unpayableReason,
  type PaymentLinkRow,
} from '../payment-links/payment-links';
import { reservePaymentLinkCompletion } from '../payment-links/completions';
import { paymentLinkSlotHeld } from './checkout-status';

/**
 * What a checkout is asked for (the API body, a payment link's Complete, the hosted page) and
 * how its first phase resolves it: the item and its price, the customer, the card to charge.
 */

export interface CheckoutInput {
  /** Saved on the customer before tax is chosen (its country selects rates by country). */
  billingAddress?: PostalAddress;
  customerTaxId?: string;
  customerEmail?: string;
  customerId?: string;
  customerName?: string;
  /** The hosted page's language, recorded on the customer for their emails (lib/i18n). */
  customerLocale?: string;
  /** The seller's key/value strings for the checkout and its payment (the API's `metadata`). */
  metadata?: Record<string, string>;
  paymentLinkToken?: string;
  paymentMethodRefId?: string;
  priceId?: string;
  promotionCode?: string;
  quantity?: number;
  /** Where a card authentication page sends the customer back (`{CHECKOUT_ID}` is replaced by the checkout id). */
  returnUrl?: string;
  tokenRef?: string;
}

export interface CheckoutOptions {
  /**
   * The attempt this run belongs to (an Idempotency-Key's, or the hosted page's per-attempt key):
   * a repeated submission finishes or answers the first run. `isNew`: an Idempotency-Key's first
   * execution, nothing earlier to look up; `lease`: that execution's hold on the key.
   */
  attempt?: { key: string; isNew?: boolean; lease?: AttemptLease };
  /** The customer agreed to keep the card for later payments (hosted page). */
  savePaymentMethod?: boolean;
  /** Field names as the caller knows them (Complete has no paymentLinkToken field). */
  linkFieldPath?: string;
  /** A card the processor has just verified (a zero-amount authorization) for this attempt: `requested` as given, `token` as the processor keeps it. */
  verified?: { requested: string; token: string; processorCustomer?: ProcessorCustomerRef };
  /**
   * The customer is at the page (the hosted checkout): a card to keep whose issuer asks for 3-D
   * Secure is authenticated in their browser (CardAuthenticationNeeded) rather than declined.
   */
  customerPresent?: boolean;
  /** Back from that authentication: the processor's reference of the verification to finish for this attempt. */
  authenticatedVerification?: string;
}

interface Item {
  link: PaymentLinkRow | null;
  price: PriceRow | null;
  description: string;
  unitAmount: number;
  currency: string;
  quantity: number;
  successUrl: string | null;
}

/**
 * What phase 1 first reads, in one statement: the seller's status, the price bought by id (with
 * its product's name) and the customer named by id. `resolveItem` and `resolveCustomer` check
 * them exactly as their own finders would; a payment link or an email is looked up by them.
 * Read before phase 1's transaction (it takes no lock, so reading it inside would see the same),
 * by a statement built once per pool.
 */
export interface CheckoutParties {
  sellerStatus: string | null;
  price: { price: PriceRow | null; productName: string | null };
  customer: CustomerRow | null;
  /** The card behind `tokenRef`, asked of the processor before phase 1 (undefined: it does not know the token). */
  tokenCard: CardDetails | undefined;
}

export async function readCheckoutParties(db: Database, merchantId: string, input: CheckoutInput): Promise<CheckoutParties> {
  const [[row], tokenCard] = await Promise.all([
    partiesQuery(db).execute({
      merchantId,
      priceId: input.paymentLinkToken ? null : (input.priceId ?? null),
      customerId: input.customerId ?? null,
    }),
    input.tokenRef ? processorForSeller(db, merchantId).then((processor) => processor.describeToken(input.tokenRef!)) : undefined,
  ]);
  return {
    sellerStatus: row?.sellerStatus ?? null,
    price: { price: row?.price ?? null, productName: row?.productName ?? null },
    customer: row?.customer ?? null,
    tokenCard,
  };
}

const partiesQuery = preparedPerDatabase((db) =>
  db
    .select({ sellerStatus: merchants.status, price: prices, productName: products.name, customer: customers })
    .from(merchants)
    .leftJoin(prices, and(eq(prices.id, sql.placeholder('priceId')), eq(prices.merchantId, merchants.id)))
    .leftJoin(products, and(eq(products.id, prices.productId), eq(products.merchantId, merchants.id)))
    .leftJoin(customers, and(eq(customers.id, sql.placeholder('customerId')), eq(customers.merchantId, merchants.id)))
    .where(eq(merchants.id, sql.placeholder('merchantId')))
    .prepare('checkout_parties'),
);

/** A checkout of the link may buy `quantity`: the link's own, or one within its adjustable range. */
export function linkSellsQuantity(link: Pick<PaymentLinkRow, 'quantity' | 'quantityMinimum' | 'quantityMaximum'>, quantity: number): boolean {
  if (quantity === link.quantity) return true;
  return link.quantityMinimum !== null && Number.isInteger(quantity) && quantity >= link.quantityMinimum && quantity <= link.quantityMaximum!;
}

export async function resolveItem(tx: Db, merchantId: string, input: CheckoutInput, options: CheckoutOptions, parties: CheckoutParties): Promise<Item> {
  if (input.paymentLinkToken) {
    const link = await findPaymentLinkByToken(tx, merchantId, input.paymentLinkToken, options.linkFieldPath ?? 'paymentLinkToken');
    const reason = unpayableReason(link);
    if (reason) throw await refusalOfUsedUpLink(tx, link, new ApiError('INVALID_STATE', reason, { extra: { state: link.status } }));
    if (input.priceId && input.priceId !== link.priceId) throw invalidField('priceId', `Payment link ${link.id} does not sell price ${input.priceId}.`);
    const price = link.priceId ? await findPriceRow(tx, merchantId, link.priceId) : null;
    if (price && !price.active) throw new ApiError('INVALID_STATE', `The price this link sells (${price.id}) is inactive.`);
    if (input.quantity !== undefined && !linkSellsQuantity(link, input.quantity)) {
      throw invalidField(
        'quantity',
        link.quantityMinimum === null
          ? `Payment link ${link.id} sells ${link.quantity} (its quantity is not adjustable).`
          : `Payment link ${link.id} sells between ${link.quantityMinimum} and ${link.quantityMaximum} units.`,
      );
    }
    return {
      link,
      price,
      description: link.name,
      unitAmount: link.unitAmount,
      currency: link.currency,
      quantity: input.quantity ?? link.quantity,
      successUrl: link.successUrl,
    };
  }
  const { productName, ...price } = priceWithProductName(parties.price, input.priceId!, 'priceId');
  if (!price.active) throw new ApiError('INVALID_STATE', `Price ${price.id} is inactive and cannot be bought.`);
  refuseMetered(price, 'priceId');
  return { link: null, price, description: productName, unitAmount: price.amount, currency: price.currency, quantity: input.quantity ?? 1, successUrl: null };
}

/**
 * Takes one of the link's completion slots; when a concurrent checkout took the last one first,
 * says so honestly (see `refusalOfUsedUpLink`).
 */
export async function reserveLinkSlot(tx: Db, link: PaymentLinkRow): Promise<void> {
  try {
    await reservePaymentLinkCompletion(tx, link);
  } catch (error) {
    throw await refusalOfUsedUpLink(tx, link, error);
  }
}

/**
 * A used-up link whose slot a checkout still in progress holds is "being paid", a 409 to retry
 * (that payment may fail and give the slot back), not "already paid"; any other refusal stands.
 */
async function refusalOfUsedUpLink(tx: Db, link: PaymentLinkRow, refusal: unknown): Promise<unknown> {
  if (!(refusal instanceof ApiError) || refusal.code !== 'INVALID_STATE') return refusal;
  const latest = await findPaymentLinkRow(tx, link.merchantId, link.id);
  if (paymentLinkStatus(latest) !== 'completed') return refusal;
  return (await paymentLinkSlotHeld(tx, link.merchantId, link.id)) ? paymentLinkBeingPaid() : refusal;
}

export async function resolveCustomer(tx: Db, merchantId: string, input: CheckoutInput, parties: CheckoutParties) {
  const customer = await findOrCreateCustomer(tx, merchantId, input, parties);
  const changes = {
    ...(input.customerLocale && customer.locale !== input.customerLocale ? { locale: input.customerLocale } : {}),
    ...(input.billingAddress ? { address: input.billingAddress } : {}),
    ...(input.customerTaxId ? { taxId: input.customerTaxId } : {}),
  };
  if (Object.keys(changes).length > 0) {
    await tx
      .update(customers)
      .set({ ...changes, updatedAt: now() })
      .where(and(eq(customers.merchantId, merchantId), eq(customers.id, customer.id)));
  }
  return { ...customer, ...changes };
}

async function findOrCreateCustomer(tx: Db, merchantId: string, input: CheckoutInput, parties: CheckoutParties) {
  if (input.customerId) return chargeableCustomer(parties.customer, input.customerId, 'customerId');
  if (!input.customerEmail)
    throw invalidField('customerEmail', 'Give customerId, or customerEmail (and optionally customerName) for a new or returning customer.');
  const existing = await findCustomerByEmail(tx, merchantId, input.customerEmail);
  if (existing) return existing;
  const created = await createCustomer(tx, merchantId, { email: input.customerEmail, name: input.customerName ?? null, metadata: {}, status: 'active' });
  return findCustomerRow(tx, merchantId, created.id);
}

export async function resolvePaymentMethod(tx: Db, merchantId: string, customerId: string, input: CheckoutInput, parties: CheckoutParties) {
  if ((input.paymentMethodRefId === undefined) === (input.tokenRef === undefined)) {
    throw invalidField('tokenRef', 'Give exactly one of paymentMethodRefId (a saved method) or tokenRef (a processor token).');
  }
  if (input.paymentMethodRefId) {
    const method = await findPaymentMethodRow(tx, merchantId, customerId, input.paymentMethodRefId, 'paymentMethodRefId');
    const card: CardDetails = { brand: method.brand, last4: method.last4, expMonth: method.expMonth, expYear: method.expYear };
    return { paymentMethodId: method.id as string | null, token: method.processorToken, card, newCard: false };
  }
  if (!parties.tokenCard) throw invalidField('tokenRef', `The processor does not know token '${input.tokenRef}'.`);
  return { paymentMethodId: null, token: input.tokenRef!, card: parties.tokenCard, newCard: true };
}

/**
 * A checkout's metadata: its payment link's, then the request's (a key given in the request
 * wins). Together they keep the Metadata limits, so the checkout's answer is valid input again.
 */
export function checkoutMetadata(link: PaymentLinkRow | null, requested: Record<string, string> | undefined): Record<string, string> {
  const metadata = { ...(link?.metadata ?? {}), ...(requested ?? {}) };
  if (Object.keys(metadata).length > METADATA_LIMITS.keys) {
    throw invalidField(
      'metadata',
      `With the payment link's ${Object.keys(link?.metadata ?? {}).length} keys this checkout would have more than ${METADATA_LIMITS.keys}.`,
    );
  }
  return metadata;
}
