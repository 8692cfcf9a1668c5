import type { Db } from '../db/client';
import { ApiError, invalidField, notFound } from '../errors';
import { processorForSeller } from './processor';
import { customerKey, processorCustomerOf, type ProcessorAccount, type ProcessorCustomerRef } from './processor-customers';
import type { PaymentProcessor, TokenizedCard } from './processor/types';

/** The currency of a verification when nothing is being bought (the portal, the API). */
export const DEFAULT_VERIFICATION_CURRENCY = 'USD';

export interface CardToVerify {
  token: string;
  /** Our id the processor's idempotency key derives from (the payment method or checkout to be). */
  idempotencyKey: string;
  currency?: string;
  /** The request field that carried the token, for a 400 naming it. */
  fieldPath?: string;
  /**
   * Whose card it is: the processor attaches it to their processor customer (Stripe). A checkout
   * verifying before its new customer exists names who they will be instead.
   */
  owner: { merchantId: string; customerId: string } | { merchantId: string; newCustomer: { email: string | null; name: string | null } };
  /**
   * The customer is at the page (the portal, the hosted checkout): a card whose issuer asks for
   * 3-D Secure is authenticated in their browser (CardAuthenticationNeeded) rather than declined.
   */
  customerPresent?: boolean;
}

/** A verified card, and the processor customer it was attached to (none in the sandbox). */
export interface VerifiedCard extends TokenizedCard {
  processorCustomer?: ProcessorCustomerRef;
  /** The processor account that verified it and keeps its token. */
  account: ProcessorAccount;
}

/**
 * The one check every saved card passes (API, portal, trial and recurring checkouts, the hosted
 * "save this card"): a zero-amount authorization at the processor. It calls the processor, so
 * it runs with no transaction open (docs/payments.md, "Money moves"). A declining card throws
 * 402 PAYMENT_DECLINED with the issuer's reason; the caller saves nothing.
 */
export async function verifyCardForSaving(db: Db, input: CardToVerify): Promise<VerifiedCard> {
  const processor = await processorForSeller(db, input.owner.merchantId);
  if (!(await processor.describeToken(input.token))) throw invalidField(input.fieldPath ?? 'tokenRef', `The processor does not know token '${input.token}'.`);
  const processorCustomer = await processorCustomerFor(db, processor, input);
  const outcome = await processor.verifyCard({
    token: input.token,
    currency: input.currency ?? DEFAULT_VERIFICATION_CURRENCY,
    idempotencyKey: input.idempotencyKey,
    ...(processorCustomer ? { customer: processorCustomer } : {}),
  });
  if (outcome.status === 'declined') throw cardDeclined(outcome.declineCode, outcome.message);
  if (outcome.status === 'requires_action') {
    if (input.customerPresent) throw new CardAuthenticationNeeded(outcome.reference, outcome.clientSecret);
    throw cardDeclined('authentication_required', 'The card asks its holder to authenticate it (3-D Secure), and the customer is not present to do so.');
  }
  return verifiedCard(processor, { token: outcome.token, ...outcome.card }, processorCustomer);
}

/**
 * The second half of a verification the customer authenticated in their browser
 * (CardAuthenticationNeeded): the seller's processor is asked how it ended (what the browser says
 * is never taken), and it must be one Paybase made for this owner: on their processor customer,
 * and with `idempotencyKey` when the caller knows it. Answers the verified card, as
 * verifyCardForSaving does, and the key it was made with (the id of the payment method to be, for
 * the portal). A verification of anyone else is a 404; a failed or unfinished authentication a
 * 402 PAYMENT_DECLINED. It calls the processor, so it runs with no transaction open.
 */
export async function finishCardVerification(
  db: Db,
  input: { reference: string; owner: CardToVerify['owner']; idempotencyKey?: string; fieldPath?: string },
): Promise<VerifiedCard & { idempotencyKey: string }> {
  const processor = await processorForSeller(db, input.owner.merchantId);
  const unknown = notFound('card verification', input.reference, input.fieldPath ?? 'setupIntent');
  if (!processor.retrieveVerification || !/^[\w-]{1,255}$/.test(input.reference)) throw unknown;
  const seen = await processor.retrieveVerification(input.reference);
  if (seen.status === 'not_found' || !seen.key || (input.idempotencyKey !== undefined && seen.key !== input.idempotencyKey)) throw unknown;
  const processorCustomer = await processorCustomerFor(db, processor, { owner: input.owner, idempotencyKey: seen.key });
  if (!processorCustomer || seen.customer !== processorCustomer) throw unknown;
  if (seen.status === 'declined') throw cardDeclined(seen.declineCode, seen.message);
  if (seen.status === 'requires_action') throw cardDeclined('authentication_required', 'The customer did not complete the card’s authentication.');
  return { ...verifiedCard(processor, { token: seen.token, ...seen.card }, processorCustomer), idempotencyKey: seen.key };
}

/** A card the processor accepted, with the account that keeps it and the processor customer it was attached to. */
function verifiedCard(processor: PaymentProcessor, card: TokenizedCard, processorCustomer: string | undefined): VerifiedCard {
  const account: ProcessorAccount = { name: processor.name, mode: processor.mode, connection: processor.connection };
  return { ...card, account, ...(processorCustomer ? { processorCustomer: { reference: processorCustomer, account } } : {}) };
}

async function processorCustomerFor(
  db: Db,
  processor: PaymentProcessor,
  { owner, idempotencyKey }: Pick<CardToVerify, 'owner' | 'idempotencyKey'>,
): Promise<string | undefined> {
  if ('customerId' in owner) return processorCustomerOf(db, processor, owner.merchantId, owner.customerId);
  if (!processor.ensureCustomer) return undefined;
  return processor.ensureCustomer({ ...owner.newCustomer, idempotencyKey: customerKey(processor, idempotencyKey) });
}

export function cardDeclined(declineCode: string, message: string): ApiError {
  return new ApiError('PAYMENT_DECLINED', `The card was declined and not saved: ${message}`, { extra: { declineCode, declineMessage: message } });
}

/**
 * The card's issuer asks the customer to authenticate it (3-D Secure) before it is saved: the
 * page hands the client secret to the processor's browser library (Stripe.js `confirmCardSetup`)
 * and then finishes with `reference` (finishCardVerification). The secret opens this one
 * verification to whoever holds it, so it goes to this customer's browser only and is kept out
 * of logs and serialized errors (a private field).
 */
export class CardAuthenticationNeeded extends Error {
  readonly #clientSecret: string;

  constructor(
    readonly reference: string,
    clientSecret: string,
  ) {
    super('the customer must authenticate the card before it is saved');
    this.#clientSecret = clientSecret;
  }

  clientSecret(): string {
    return this.#clientSecret;
  }
}

/** A verification a run inside a transaction needs: the caller verifies with no transaction open and runs again. */
export class CardVerificationNeeded extends Error {
  constructor(readonly card: Omit<CardToVerify, 'owner'>) {
    super('a card must be verified before it is saved');
  }
}
