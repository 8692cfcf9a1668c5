import type { Db } from '../db/client';
import { ApiError, invalidField } from '../http/errors';
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
  const account = { name: processor.name, mode: processor.mode, connection: processor.connection };
  return { token: outcome.token, ...outcome.card, account, ...(processorCustomer ? { processorCustomer: { reference: processorCustomer, account } } : {}) };
}

async function processorCustomerFor(db: Db, processor: PaymentProcessor, { owner, idempotencyKey }: CardToVerify): Promise<string | undefined> {
  if ('customerId' in owner) return processorCustomerOf(db, processor, owner.merchantId, owner.customerId);
  if (!processor.ensureCustomer) return undefined;
  return processor.ensureCustomer({ ...owner.newCustomer, idempotencyKey: customerKey(processor, idempotencyKey) });
}

export function cardDeclined(declineCode: string, message: string): ApiError {
  return new ApiError('PAYMENT_DECLINED', `The card was declined and not saved: ${message}`, { extra: { declineCode, declineMessage: message } });
}

/** A verification a run inside a transaction needs: the caller verifies with no transaction open and runs again. */
export class CardVerificationNeeded extends Error {
  constructor(readonly card: Omit<CardToVerify, 'owner'>) {
    super('a card must be verified before it is saved');
  }
}
