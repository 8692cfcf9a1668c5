import { ApiError, invalidField } from '../http/errors';
import { paymentProcessor } from './processor';
import type { TokenizedCard } from './processor/types';

/** The currency of a verification when nothing is being bought (the portal, the API). */
export const DEFAULT_VERIFICATION_CURRENCY = 'USD';

export interface CardToVerify {
  token: string;
  /** Our id the processor's idempotency key derives from (the payment method or checkout to be). */
  idempotencyKey: string;
  currency?: string;
  /** The request field that carried the token, for a 400 naming it. */
  fieldPath?: string;
}

/**
 * The one check every saved card passes (API, portal, trial and recurring checkouts, the hosted
 * "save this card"): a zero-amount authorization at the processor. It calls the processor, so
 * it runs with no transaction open (docs/payments.md, "Money moves"). A declining card throws
 * 402 PAYMENT_DECLINED with the issuer's reason; the caller saves nothing.
 */
export async function verifyCardForSaving(input: CardToVerify): Promise<TokenizedCard> {
  const processor = paymentProcessor();
  if (!(await processor.describeToken(input.token))) throw invalidField(input.fieldPath ?? 'tokenRef', `The processor does not know token '${input.token}'.`);
  const outcome = await processor.verifyCard({
    token: input.token,
    currency: input.currency ?? DEFAULT_VERIFICATION_CURRENCY,
    idempotencyKey: input.idempotencyKey,
  });
  if (outcome.status === 'declined') throw cardDeclined(outcome.declineCode, outcome.message);
  return { token: input.token, ...outcome.card };
}

export function cardDeclined(declineCode: string, message: string): ApiError {
  return new ApiError('PAYMENT_DECLINED', `The card was declined and not saved: ${message}`, { extra: { declineCode, declineMessage: message } });
}

/** A verification a run inside a transaction needs: the caller verifies with no transaction open and runs again. */
export class CardVerificationNeeded extends Error {
  constructor(readonly card: CardToVerify) {
    super('a card must be verified before it is saved');
  }
}
