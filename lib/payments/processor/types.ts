export type ProcessorMode = 'test' | 'live';

/** What a card looks like once tokenized: display details only, never the number. */
export interface CardDetails {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface TokenizedCard extends CardDetails {
  token: string;
}

/** What the customer must do before a charge can go on (Stripe's PaymentIntent `next_action`). */
export interface NextAction {
  type: 'redirect_to_url';
  /** The processor's authentication page (3-D Secure); it sends the customer back to the charge's `returnUrl`. */
  url: string;
}

export type ChargeOutcome =
  /**
   * `token`: the processor's id of the card it charged, when it differs from the token given
   * (Stripe's test tokens, `pm_card_visa`, stand for a new PaymentMethod each time): the one to keep.
   */
  | { status: 'succeeded'; reference: string; card: CardDetails | null; token?: string }
  | { status: 'failed'; reference: string; card: CardDetails | null; declineCode: string; message: string }
  /** The processor did not answer in time: the charge may or may not have happened. */
  | { status: 'unknown'; reference: string; card: CardDetails | null }
  /**
   * The customer must authenticate first (customer-present charges only): nothing is charged yet;
   * `retrieveCharge` tells later how it ended, `cancelCharge` gives up on it.
   */
  | { status: 'requires_action'; reference: string; card: CardDetails | null; nextAction: NextAction };

export interface ChargeInput {
  token: string;
  amount: number;
  currency: string;
  idempotencyKey: string;
  /**
   * The customer is not there (renewals, dunning, a backend's charge): a card that asks for
   * authentication fails `authentication_required` instead of answering `requires_action`.
   */
  offSession: boolean;
  /** Where the authentication page sends the customer back (customer-present charges). */
  returnUrl?: string;
  /** The processor's customer (`ensureCustomer`) the card belongs to, or is attached to when kept. */
  customer?: string;
  /** The card is kept for later charges (a subscription, "save this card"): the processor attaches it to `customer`. */
  keepCard?: boolean;
}

export type SettledOutcome = { status: 'succeeded' } | { status: 'failed'; declineCode: string; message: string } | { status: 'unknown' };

/** What the processor knows of a charge by its idempotency key; `not_found`: it was never made. */
export type RetrievedCharge =
  | { status: 'succeeded'; reference: string }
  | { status: 'failed'; reference: string; declineCode: string; message: string }
  | { status: 'unknown' }
  /** Still waiting for the customer to authenticate. */
  | { status: 'requires_action'; reference: string; nextAction: NextAction }
  | { status: 'not_found' };

/** A charge still waiting for authentication is canceled too (the customer never finished it). */
export type CanceledCharge = { status: 'canceled' } | Exclude<RetrievedCharge, { status: 'not_found' | 'requires_action' }>;

/** A zero-amount authorization: whether the issuer accepts the card for later charges. */
export type VerificationOutcome =
  /** `token`: the card the processor keeps, to charge later (Stripe's test tokens stand for a new PaymentMethod each time). */
  | { status: 'verified'; reference: string; card: CardDetails; token: string }
  | { status: 'declined'; reference: string; declineCode: string; message: string }
  /**
   * The issuer asks the cardholder to authenticate the card (3-D Secure) before it is kept: only
   * the customer can, in their browser, with the processor's library and `clientSecret` (Stripe.js
   * `confirmCardSetup`); `retrieveVerification` then tells how it ended. The secret is a credential
   * of this one verification: never logged, never stored.
   */
  | { status: 'requires_action'; reference: string; clientSecret: string };

/**
 * A verification as the processor knows it now, with what it was made for: the idempotency key
 * and processor customer it was made with (`key` and `customer`, null when it has none).
 */
export type RetrievedVerification =
  | { status: 'verified'; key: string | null; customer: string | null; card: CardDetails; token: string }
  | { status: 'declined'; key: string | null; customer: string | null; declineCode: string; message: string }
  /** Not finished: the customer has not (or not yet) authenticated the card. */
  | { status: 'requires_action'; key: string | null; customer: string | null }
  | { status: 'not_found' };

export type RefundOutcome = { status: 'succeeded'; reference: string } | { status: 'failed'; reference: string; message: string };

export interface ProcessorCustomerInput {
  /** Ours, when it exists already (a checkout verifying a new customer's card makes theirs before ours). */
  customerId?: string;
  email: string | null;
  name: string | null;
  idempotencyKey: string;
}

/**
 * The one seam between Paybase and a card network. The sandbox implements it; a real processor
 * adapter would too. Every method may be a network call: none is made inside a transaction. `idempotencyKey` is derived from our payment or refund id, so a retried call
 * charges (or refunds) once: calls are never made inside a database transaction (docs/payments.md).
 */
export interface PaymentProcessor {
  readonly name: 'sandbox' | 'stripe';
  /** `live` moves real money; the sandbox and Stripe's test keys are `test`. */
  readonly mode: ProcessorMode;
  /** The account it charges: `platform` (settings) or a seller's connection id (lib/db/schema/processors.ts). */
  readonly connection: string;
  /** Turns raw card input (only ever held in memory) into a reusable token. */
  tokenizeCard(input: { number: string; expMonth: number; expYear: number; cvc: string }): Promise<TokenizedCard>;
  /** Display details of a token, or undefined when the processor does not know it. Never called inside a transaction. */
  describeToken(token: string): Promise<CardDetails | undefined>;
  charge(input: ChargeInput): Promise<ChargeOutcome>;
  /** Verifies a card before it is saved (a zero-amount authorization), attached to `customer` when given; nothing is charged. */
  verifyCard(input: { token: string; currency: string; idempotencyKey: string; customer?: string }): Promise<VerificationOutcome>;
  /**
   * Processors whose verification may ask the customer to authenticate (Stripe's SetupIntents):
   * a verification by its reference, as it is now. The sandbox verifies at once and has none.
   */
  retrieveVerification?(reference: string): Promise<RetrievedVerification>;
  /**
   * Processors that keep cards per customer (Stripe) make that customer here and answer its id;
   * `idempotencyKey` makes a repeated call answer the same customer. The sandbox has none.
   */
  ensureCustomer?(input: ProcessorCustomerInput): Promise<string>;
  /** Asks about a charge by the idempotency key it was (or may have been) made with. */
  retrieveCharge(idempotencyKey: string): Promise<RetrievedCharge>;
  /**
   * Makes sure no charge is ever made with this key (a customer-present move recovery gives up
   * on: the customer left, or never finished authenticating). A charge already made under the key is answered instead, so a late
   * request and the recovery can never disagree: once canceled, a charge with the key fails.
   */
  cancelCharge(input: { idempotencyKey: string; amount: number; currency: string }): Promise<CanceledCharge>;
  refund(input: { chargeReference: string; amount: number; currency: string; idempotencyKey: string }): Promise<RefundOutcome>;
}

export class CardInputError extends Error {
  constructor(
    readonly field: 'number' | 'expiry' | 'cvc',
    message: string,
  ) {
    super(message);
  }
}
