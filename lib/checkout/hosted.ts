import type { Database } from '../db/client';
import { plainPhases } from '../db/phases';
import { ApiError } from '../errors';
import { Email } from '../http/schemas';
import { customerText, type CustomerText } from '../i18n/customer-text';
import { now } from '../clock';
import { config } from '../config';
import { findPriceRow } from '../catalog/prices';
import { browserCardEntry, tokenizeTypedCard, type BrowserCardEntry } from '../payments/card-entry';
import { CardInputError, type TokenizedCard } from '../payments/processor/types';
import { CardAuthenticationNeeded } from '../payments/card-verification';
import { findPublicPaymentLink, LINK_BEING_PAID, paymentLinkStatus, type PaymentLinkRow } from '../payment-links/payment-links';
import { quotePromotionCode } from '../promotions/promotion-codes';
import { completeCheckout, findCheckoutByAttempt } from './checkouts';
import { paymentLinkSlotHeld } from './checkout-status';
import { linkSellsQuantity, type CheckoutInput } from './checkout-input';
import { subscriptionTerms, type SubscriptionTerms } from './subscription-terms';
import { customerPriceLabel } from '../billing/price-words';
import { billingLines } from '../billing/line-items';
import { ratesOfLine, taxLabel, type TaxAmount } from '../tax/calculate';
import { selectTaxForCountry } from '../tax/tax-selection';

/** Everything the public page /pay/{token} shows before payment. */
export interface HostedCheckoutView {
  token: string;
  sellerName: string;
  name: string;
  description: string | null;
  quantity: number;
  /** The customer may choose the quantity, between these (a one-time link's `adjustableQuantity`). */
  adjustableQuantity: { minimum: number; maximum: number } | null;
  currency: string;
  unitAmount: string;
  total: string;
  /** Tax lines of a one-time payment before the buyer chose a country (rates for any country). */
  taxLines: QuotedTaxLine[];
  /** The seller asks for a billing address (and optional tax id) at checkout. */
  collectBillingAddress: boolean;
  /** Why the link cannot be paid, in the customer's words; null when it can. */
  unavailableReason: string | null;
  /** For a link selling a Recurring price: the interval, trial and what is charged today. */
  subscription: SubscriptionTerms | null;
  /** The link's metered items: how each bills usage in arrears, in the customer's words. */
  meteredItems: string[];
  /** The heading above that reason. */
  unavailableTitle: string;
  /** How the page takes the card: the seller's processor (lib/payments/card-entry.ts). */
  cardEntry: BrowserCardEntry;
}

export async function loadHostedCheckout(db: Database, token: string, text: CustomerText = customerText()): Promise<HostedCheckoutView | undefined> {
  const found = await findPublicPaymentLink(db, token);
  if (!found) return undefined;
  const { link, sellerName, sellerStatus } = found;
  const { t } = text;
  const cardEntry = await browserCardEntry(db, link.merchantId);
  const collectBillingAddress = found.collectBillingAddress;
  if (sellerStatus === 'suspended') {
    return {
      ...linkSummary(token, sellerName, link, text),
      taxLines: [],
      collectBillingAddress,
      cardEntry,
      subscription: null,
      meteredItems: [],
      unavailableTitle: t('checkout.errors.sellerSuspendedTitle'),
      unavailableReason: t('checkout.errors.sellerSuspended', { seller: sellerName }),
    };
  }
  let reason = unpayableWords(link, text);
  if (reason && paymentLinkStatus(link, now()) === 'completed' && (await paymentLinkSlotHeld(db, link.merchantId, link.id))) {
    reason = t('checkout.errors.beingPaid');
  }
  const price = link.priceId ? await findPriceRow(db, link.merchantId, link.priceId) : null;
  if (!reason && price && !price.active) reason = t('checkout.errors.notOffered');
  const recurring = price?.type === 'Recurring' ? price : null;
  const priced = recurring ? null : await priceOneTime(db, link, { discount: 0, country: null, quantity: link.quantity }, text);
  const terms = recurring && subscriptionTerms(recurring, null, now(), text, await recurringRates(db, link, recurring.id, null));
  return {
    ...linkSummary(token, sellerName, link, text),
    ...(priced ? { total: priced.total, taxLines: priced.taxLines } : { taxLines: terms ? quotedTaxLines(terms.dueTodayTaxes, link.currency, text) : [] }),
    collectBillingAddress,
    cardEntry,
    unavailableTitle: t('checkout.cannotBePaid'),
    unavailableReason: reason,
    subscription: terms || null,
    meteredItems: await Promise.all(link.items.map(async (item) => customerPriceLabel(await findPriceRow(db, link.merchantId, item.priceId), text))),
  };
}

/** Why a link cannot be paid, in the customer's language (the API's words are lib/payment-links). */
function unpayableWords(link: PaymentLinkRow, text: CustomerText): string | null {
  const status = paymentLinkStatus(link, now());
  if (status === 'active') return null;
  if (status === 'expired') return text.t('checkout.errors.expired', { date: text.date(link.expiresAt!) });
  if (status === 'completed') return text.t(link.singleUse ? 'checkout.errors.used' : 'checkout.errors.maxed');
  return text.t(status === 'archived' ? 'checkout.errors.archived' : 'checkout.errors.disabled');
}

function linkSummary(token: string, sellerName: string, link: PaymentLinkRow, text: CustomerText) {
  return {
    token,
    sellerName,
    name: link.name,
    description: link.description,
    quantity: link.quantity,
    adjustableQuantity: link.quantityMinimum === null ? null : { minimum: link.quantityMinimum, maximum: link.quantityMaximum! },
    currency: link.currency,
    unitAmount: text.money(link.unitAmount, link.currency),
    total: text.money(link.unitAmount * link.quantity, link.currency),
  };
}

/** A tax line as the hosted page shows it: "VAT 20% (included)", "$2.00". */
export interface QuotedTaxLine {
  label: string;
  amount: string;
}

export type CheckoutQuote =
  | { ok: true; code: string | null; discount: string | null; taxLines: QuotedTaxLine[]; total: string; subscription: SubscriptionTerms | null }
  | { ok: false; message: string };

/** A one-time link's total with its discount and the tax for a buyer in `country`, by the same functions its checkout charges with. */
async function priceOneTime(db: Database, link: PaymentLinkRow, options: { discount: number; country: string | null; quantity: number }, text: CustomerText) {
  const tax = await selectTaxForCountry(db, link.merchantId, options.country, [link.priceId]);
  const billed = billingLines(
    { kind: 'one_time', description: link.name, priceId: link.priceId, quantity: options.quantity, unitAmount: link.unitAmount },
    { discountAmount: options.discount },
    [],
    tax,
  );
  return { total: text.money(billed.amount, link.currency), taxLines: quotedTaxLines(billed.taxes, link.currency, text) };
}

function quotedTaxLines(taxes: readonly TaxAmount[], currency: string, text: CustomerText): QuotedTaxLine[] {
  return taxes.map((rate) => ({
    label: rate.inclusive ? text.t('checkout.taxIncluded', { rate: taxLabel(rate) }) : taxLabel(rate),
    amount: text.money(rate.amount, currency),
  }));
}

/** The rates a subscription's price is charged at for a buyer in `country`. */
async function recurringRates(db: Database, link: PaymentLinkRow, priceId: string, country: string | null) {
  return ratesOfLine(await selectTaxForCountry(db, link.merchantId, country, [priceId]), priceId);
}

/** The quantity the customer chose, if the link lets them choose it and it is in its range; undefined: the link's own. */
function chosenQuantity(link: PaymentLinkRow, quantity: number | undefined): number | undefined | 'out_of_range' {
  if (quantity === undefined || quantity === link.quantity) return undefined;
  return linkSellsQuantity(link, quantity) ? quantity : 'out_of_range';
}

/** The quantity a hosted form (card or wallet) chose, for the checkout input, or the refusal of one out of the link's range. */
export function formQuantity(
  link: PaymentLinkRow,
  quantity: number | undefined,
  text: CustomerText,
): { quantity?: number } | { kind: 'invalid'; field: 'quantity'; message: string } {
  const chosen = chosenQuantity(link, quantity);
  if (chosen === 'out_of_range') return { kind: 'invalid', field: 'quantity', message: quantityWords(link, text) };
  return chosen === undefined ? {} : { quantity: chosen };
}

function quantityWords(link: PaymentLinkRow, text: CustomerText): string {
  return text.t('checkout.errors.quantity', { minimum: link.quantityMinimum ?? link.quantity, maximum: link.quantityMaximum ?? link.quantity });
}

/**
 * The hosted page's totals as the buyer fills the form ("Apply" of a promotion code, a billing
 * country or a quantity chosen): the code checked (redeeming nothing) and the tax for that country, so the total
 * shown is what Pay charges. For a subscription it shows the terms with the discount over the
 * periods its duration covers, so a code that cannot apply is refused here, before Pay, by the
 * same checks Pay runs.
 */
export async function quoteHostedCheckout(
  db: Database,
  token: string,
  input: { promotionCode?: string; country?: string | null; quantity?: number },
  text: CustomerText = customerText(),
): Promise<CheckoutQuote> {
  const found = await findPublicPaymentLink(db, token);
  if (!found) return { ok: false, message: text.t('checkout.errors.linkMissing') };
  const { link } = found;
  const chosen = chosenQuantity(link, input.quantity);
  if (chosen === 'out_of_range') return { ok: false, message: quantityWords(link, text) };
  const quantity = chosen ?? link.quantity;
  const subtotal = link.unitAmount * quantity;
  const country = input.country && /^[A-Z]{2}$/.test(input.country) ? input.country : null;
  try {
    const code = input.promotionCode?.trim();
    const quote = code ? await quotePromotionCode(db, link.merchantId, code, { currency: link.currency, subtotal }) : null;
    const price = link.priceId ? await findPriceRow(db, link.merchantId, link.priceId) : null;
    if (price?.type === 'Recurring') {
      const subscription = subscriptionTerms(price, quote?.coupon ?? null, now(), text, await recurringRates(db, link, price.id, country));
      return {
        ok: true,
        code: quote?.code ?? null,
        discount: quote ? subscription.discountLabel : null,
        taxLines: quotedTaxLines(subscription.dueTodayTaxes, link.currency, text),
        total: subscription.dueToday,
        subscription,
      };
    }
    const priced = await priceOneTime(db, link, { discount: quote?.discount ?? 0, country, quantity }, text);
    return { ok: true, code: quote?.code ?? null, discount: quote ? text.money(quote.discount, link.currency) : null, ...priced, subscription: null };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, message: apiErrorWords(error, 'promotion', text) };
    throw error;
  }
}

export interface HostedPaymentForm {
  token: string;
  attemptKey: string;
  email: string;
  name: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
  /** The PaymentMethod Stripe.js made in the browser (Stripe mode, lib/payments/card-entry.ts) instead of the three card fields; absent or '' with the sandbox's form. */
  paymentMethodToken?: string;
  promotionCode: string;
  saveCard: boolean;
  /** Back from the card's 3-D Secure challenge (`authenticate_card`): the verification the customer authenticated, for the same attempt. */
  cardVerification?: string;
  /** Chosen in the summary when the link's quantity is adjustable. */
  quantity?: number;
  /** Asked for when the seller collects billing addresses (`country` required then). */
  billingAddress?: { line1: string; postalCode: string; city: string; country: string };
  taxId?: string;
}

export type HostedFormField = 'email' | 'name' | 'cardNumber' | 'expiry' | 'cvc' | 'promotionCode' | 'billingCountry' | 'taxId' | 'quantity';

export type HostedPaymentResult =
  | { kind: 'paid' | 'processing'; checkoutId: string }
  /** The card asks for authentication: the browser goes to `url`, which comes back to the result page. */
  | { kind: 'requires_action'; checkoutId: string; url: string }
  /**
   * The card to keep, charged nothing now (a trial), asks for 3-D Secure: the page has Stripe.js
   * carry it out with `clientSecret`, then submits the same attempt again with `setupIntent`.
   */
  | { kind: 'authenticate_card'; clientSecret: string; setupIntent: string }
  | { kind: 'declined'; message: string }
  | { kind: 'invalid'; field: HostedFormField; message: string }
  | { kind: 'unavailable'; message: string };

/**
 * Pays a payment link from the hosted page: the card is tokenized in memory (only brand, last4
 * and expiry are ever stored), or comes as the token Stripe.js made in the browser, then the
 * same completeCheckout as the API runs. The attempt key makes a double-submitted form pay once.
 */
export async function payHostedCheckout(db: Database, form: HostedPaymentForm, text: CustomerText = customerText()): Promise<HostedPaymentResult> {
  const { t } = text;
  const found = await findPublicPaymentLink(db, form.token);
  if (!found) return { kind: 'unavailable', message: t('checkout.errors.linkMissing') };
  const email = Email.safeParse(form.email.trim());
  if (!email.success) return { kind: 'invalid', field: 'email', message: t('checkout.errors.email') };
  if (form.name.trim().length > 250) return { kind: 'invalid', field: 'name', message: t('checkout.errors.nameTooLong') };
  if (!/^[A-Za-z0-9-]{8,100}$/.test(form.attemptKey)) return { kind: 'invalid', field: 'cardNumber', message: t('checkout.errors.reload') };
  const billing = billingDetails(form, found.collectBillingAddress, text);
  if ('kind' in billing) return billing;
  const quantity = formQuantity(found.link, form.quantity, text);
  if ('kind' in quantity) return quantity;

  const card = form.paymentMethodToken ? { token: form.paymentMethodToken } : await tokenizeTyped(db, found.link.merchantId, form, text);
  if ('kind' in card) return card;

  return runHostedCheckout(
    db,
    found.link.merchantId,
    {
      paymentLinkToken: form.token,
      customerEmail: email.data,
      customerName: form.name.trim() || undefined,
      tokenRef: card.token,
      promotionCode: form.promotionCode.trim() || undefined,
      ...quantity,
      customerLocale: text.locale,
      ...billing,
    },
    { attempt: { key: `hosted:${form.attemptKey}` }, savePaymentMethod: form.saveCard, authenticatedVerification: form.cardVerification || undefined },
    text,
  );
}

/**
 * The hosted page's checkout run (card form and wallet alike): completeCheckout in its phases, with the attempt key making a double-submitted form pay once, and the outcome
 * in the customer's words. The customer is at the page, so a card to keep that asks for 3-D Secure is theirs to authenticate.
 */
export async function runHostedCheckout(
  db: Database,
  merchantId: string,
  input: CheckoutInput,
  hostedOptions: { attempt: { key: string }; savePaymentMethod: boolean; authenticatedVerification?: string },
  text: CustomerText = customerText(),
): Promise<HostedPaymentResult> {
  const options = { ...hostedOptions, customerPresent: true };
  const attemptKey = options.attempt.key;
  // Back from a card authentication page, the result page asks the processor at once (hosted-result.ts).
  input = { ...input, returnUrl: `${config.publicUrl}/pay/${encodeURIComponent(input.paymentLinkToken!)}/success?checkoutId={CHECKOUT_ID}` };
  try {
    const result = await completeCheckout(plainPhases(db), merchantId, input, options).catch(async (error: unknown) => {
      // A double-submitted form: the twin attempt committed its phase 1 first (unique attempt
      // key), so this one rolled back; running again finishes or answers the twin's attempt.
      if (error instanceof ApiError) throw error;
      if (!(await findCheckoutByAttempt(db, merchantId, attemptKey))) throw error;
      return completeCheckout(plainPhases(db), merchantId, input, options);
    });
    const { checkout } = result;
    if (result.declined) return { kind: 'declined', message: text.declineReason(checkout.payment?.failureCode) };
    if (checkout.payment?.nextAction) return { kind: 'requires_action', checkoutId: checkout.id, url: checkout.payment.nextAction.url };
    return { kind: checkout.paid ? 'paid' : 'processing', checkoutId: checkout.id };
  } catch (error) {
    if (error instanceof CardAuthenticationNeeded) return { kind: 'authenticate_card', clientSecret: error.clientSecret(), setupIntent: error.reference };
    if (!(error instanceof ApiError)) throw error;
    if (error.code === 'VALIDATION_FAILED' && error.options.errors?.[0]?.path === 'promotionCode') {
      return { kind: 'invalid', field: 'promotionCode', message: apiErrorWords(error, 'promotion', text) };
    }
    if (error.code === 'INVALID_STATE' || error.code === 'NOT_FOUND') return { kind: 'unavailable', message: apiErrorWords(error, 'unavailable', text) };
    // Another payer's payment in progress holds the link's last slot (lib/checkout/checkout-input.ts).
    if (error.options.extra?.reason === LINK_BEING_PAID) return { kind: 'unavailable', message: text.t('checkout.errors.beingPaid') };
    // The card to keep for a trial failed its verification: nothing was recorded.
    if (error.code === 'PAYMENT_DECLINED') return { kind: 'declined', message: text.declineReason(String(error.options.extra?.declineCode ?? '')) };
    return { kind: 'invalid', field: 'cardNumber', message: apiErrorWords(error, 'cardNumber', text) };
  }
}

/**
 * A refusal from the domain in the customer's language. The domain explains itself in English
 * (the API's words, which name the exact rule); other languages get the translated gist.
 */
function apiErrorWords(error: ApiError, gist: 'promotion' | 'unavailable' | 'cardNumber', text: CustomerText): string {
  return text.locale === 'en' ? error.detail : text.t(`checkout.errors.${gist}`);
}

/** The billing address and tax id the form collected (the seller's setting): the country is required, the rest kept as typed. */
function billingDetails(
  form: HostedPaymentForm,
  collected: boolean,
  text: CustomerText,
): Pick<CheckoutInput, 'billingAddress' | 'customerTaxId'> | Extract<HostedPaymentResult, { kind: 'invalid' }> {
  if (!collected) return {};
  const address = form.billingAddress;
  const country = address?.country.trim().toUpperCase() ?? '';
  if (!/^[A-Z]{2}$/.test(country)) return { kind: 'invalid', field: 'billingCountry', message: text.t('checkout.errors.country') };
  const taxId = form.taxId?.trim() ?? '';
  if (taxId.length > 64) return { kind: 'invalid', field: 'taxId', message: text.t('checkout.errors.taxId') };
  const kept = (value: string | undefined, max: number) => value?.trim().slice(0, max) || null;
  return {
    billingAddress: {
      line1: kept(address?.line1, 200),
      line2: null,
      city: kept(address?.city, 100),
      region: null,
      postalCode: kept(address?.postalCode, 20),
      country,
    },
    ...(taxId ? { customerTaxId: taxId } : {}),
  };
}

/** The sandbox's card fields, tokenized in memory; a refusal names the field. */
async function tokenizeTyped(
  db: Database,
  merchantId: string,
  form: HostedPaymentForm,
  text: CustomerText,
): Promise<TokenizedCard | Extract<HostedPaymentResult, { kind: 'invalid' }>> {
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(form.expiry);
  if (!expiry) return { kind: 'invalid', field: 'expiry', message: text.t('checkout.errors.expiry') };
  try {
    return await tokenizeTypedCard(db, merchantId, { number: form.cardNumber, expMonth: Number(expiry[1]), expYear: Number(expiry[2]), cvc: form.cvc.trim() });
  } catch (error) {
    if (error instanceof CardInputError)
      return { kind: 'invalid', field: error.field === 'number' ? 'cardNumber' : error.field, message: cardInputWords(error, text) };
    throw error;
  }
}

function cardInputWords(error: CardInputError, text: CustomerText): string {
  if (text.locale === 'en') return error.message;
  if (/test cards/.test(error.message)) return text.t('checkout.errors.testCardsOnly');
  return text.t(error.field === 'number' ? 'checkout.errors.cardNumber' : error.field === 'cvc' ? 'checkout.errors.cardCvc' : 'checkout.errors.cardExpiry');
}
