import { and, eq, sql } from 'drizzle-orm';
import { now } from '../../clock';
import { config } from '../../config';
import { getDb } from '../../db/client';
import { PLATFORM_CONNECTION, sandboxProcessorOperations } from '../../db/schema';
import { AUTHENTICATION_REQUIRED, cancelAuthentication, newActionId, sandboxNextAction } from './sandbox-authentication';
import {
  CardInputError,
  type CanceledCharge,
  type CardDetails,
  type ChargeInput,
  type ChargeOutcome,
  type PaymentProcessor,
  type RefundOutcome,
  type RetrievedCharge,
  type TokenizedCard,
  type VerificationOutcome,
} from './types';

/** How a sandbox card behaves (DESIGN 4.9). */
export type SandboxBehaviour =
  | 'succeed'
  | 'decline'
  | 'insufficient_funds'
  | 'unknown'
  | 'never_settles'
  | 'refund_fails'
  | 'verify_then_decline'
  | 'authenticate';

interface TestCard {
  number: string;
  token: string;
  brand: string;
  behaviour: SandboxBehaviour;
}

export const SANDBOX_TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', token: 'tok_visa', brand: 'visa', behaviour: 'succeed' },
  { number: '5555555555554444', token: 'tok_mastercard', brand: 'mastercard', behaviour: 'succeed' },
  { number: '4000000000000002', token: 'tok_declined', brand: 'visa', behaviour: 'decline' },
  { number: '4000000000009995', token: 'tok_insufficient_funds', brand: 'visa', behaviour: 'insufficient_funds' },
  { number: '4000000000000259', token: 'tok_unknown', brand: 'visa', behaviour: 'unknown' },
  // Its charges never get a definite answer, even when asked again: recovery gives up (needs_review).
  { number: '4000000000000119', token: 'tok_processing_error', brand: 'visa', behaviour: 'never_settles' },
  { number: '4000000000005126', token: 'tok_refund_fails', brand: 'visa', behaviour: 'refund_fails' },
  // Saving it succeeds (the verification passes); every charge declines: dunning from a backend.
  { number: '4000000000000341', token: 'tok_charge_customer_fail', brand: 'visa', behaviour: 'verify_then_decline' },
  // 3-D Secure on every charge: a customer-present one asks for authentication (the sandbox's own
  // page, /sandbox/authenticate/{id}); an off-session one declines `authentication_required`.
  { number: '4000002760003184', token: 'tok_authentication_required', brand: 'visa', behaviour: 'authenticate' },
];

/** The fixed tokens' cards expire in December of this year (any future date works for entered cards). */
export const SANDBOX_TOKEN_EXP_YEAR = 2034;

const DECLINES: Record<'decline' | 'insufficient_funds', { code: string; message: string }> = {
  decline: { code: 'card_declined', message: 'Your card was declined.' },
  insufficient_funds: { code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
};

const ENTERED_TOKEN_PREFIX = 'tok_sbx_';
/** The reference of a key canceled before any charge: a later charge with the key gets this failed operation. */
const CANCELED_PREFIX = 'ch_sbx_canceled_';
const BEHAVIOURS: readonly SandboxBehaviour[] = [
  'succeed',
  'decline',
  'insufficient_funds',
  'unknown',
  'never_settles',
  'refund_fails',
  'verify_then_decline',
  'authenticate',
];

interface EnteredToken extends CardDetails {
  behaviour: SandboxBehaviour;
}

/**
 * The sandbox processor: no network, fixed outcomes per test card, books kept in its own table. Tokens of entered cards are
 * self-describing (brand, last4, expiry, behaviour), so nothing but those details is kept.
 */
export class SandboxProcessor implements PaymentProcessor {
  readonly name = 'sandbox';
  readonly mode = 'test';
  readonly connection = PLATFORM_CONNECTION;

  async tokenizeCard(input: { number: string; expMonth: number; expYear: number; cvc: string }): Promise<TokenizedCard> {
    const number = input.number.replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(number) || !luhnValid(number)) throw new CardInputError('number', 'Your card number is invalid.');
    const card = SANDBOX_TEST_CARDS.find((c) => c.number === number);
    if (!card) throw new CardInputError('number', 'The sandbox takes test cards only, such as 4242 4242 4242 4242.');
    if (!Number.isInteger(input.expMonth) || input.expMonth < 1 || input.expMonth > 12) {
      throw new CardInputError('expiry', "Your card's expiry month is invalid.");
    }
    const at = now();
    const year = input.expYear < 100 ? 2000 + input.expYear : input.expYear;
    if (year < at.getUTCFullYear() || (year === at.getUTCFullYear() && input.expMonth < at.getUTCMonth() + 1) || year > at.getUTCFullYear() + 50) {
      throw new CardInputError('expiry', "Your card's expiry date is in the past.");
    }
    if (!/^\d{3,4}$/.test(input.cvc)) throw new CardInputError('cvc', "Your card's security code is invalid.");
    const details: EnteredToken = { brand: card.brand, last4: number.slice(-4), expMonth: input.expMonth, expYear: year, behaviour: card.behaviour };
    const payload = [details.brand, details.last4, details.expMonth, details.expYear, details.behaviour, randomSuffix()].join('.');
    return { token: ENTERED_TOKEN_PREFIX + Buffer.from(payload).toString('base64url'), ...strip(details) };
  }

  async describeToken(token: string): Promise<CardDetails | undefined> {
    const known = readToken(token);
    return known ? strip(known) : undefined;
  }

  /**
   * Charges once per idempotency key: the sandbox's books (a table standing in for the remote
   * processor's records) keep the first outcome and count repeated requests. Half of the
   * configured latency passes before the charge is made and half after, like a network call.
   */
  async charge(input: ChargeInput): Promise<ChargeOutcome> {
    const card = readToken(input.token);
    const reference = `ch_sbx_${card?.behaviour ?? 'invalid'}_${input.idempotencyKey}`;
    const decided = decideCharge(card, input);
    await halfLatency();
    const booked = await book({ ...decided, kind: 'charge', reference, amount: input.amount, currency: input.currency, idempotencyKey: input.idempotencyKey });
    await halfLatency();
    const details = card ? strip(card) : null;
    // A timed-out test card: the charge went through but its first answer got lost.
    if (card?.behaviour === 'unknown' && booked.requests === 1) return { status: 'unknown', reference: booked.reference, card: details };
    if (card?.behaviour === 'never_settles') return { status: 'unknown', reference: booked.reference, card: details };
    if (booked.status === 'requires_action') {
      return { status: 'requires_action', reference: booked.reference, card: details, nextAction: sandboxNextAction(booked.actionId!) };
    }
    if (booked.status === 'failed') {
      return {
        status: 'failed',
        reference: booked.reference,
        card: details,
        declineCode: booked.declineCode ?? 'card_declined',
        message: booked.message ?? '',
      };
    }
    return { status: 'succeeded', reference: booked.reference, card: details! };
  }

  /**
   * A zero-amount authorization, booked like a charge. Declining cards decline it with their
   * reason; the timeout card authorizes (only its charges lose their first answer).
   */
  async verifyCard(input: { token: string; currency: string; idempotencyKey: string }): Promise<VerificationOutcome> {
    const card = readToken(input.token);
    await halfLatency();
    const booked = await book({
      ...decideCharge(card?.behaviour === 'verify_then_decline' || card?.behaviour === 'authenticate' ? { ...card, behaviour: 'succeed' } : card),
      kind: 'verification',
      reference: `seti_sbx_${input.idempotencyKey}`,
      amount: 0,
      currency: input.currency,
      idempotencyKey: `verify:${input.idempotencyKey}`,
    });
    await halfLatency();
    if (booked.status === 'failed' || !card) {
      return {
        status: 'declined',
        reference: booked.reference,
        declineCode: booked.declineCode ?? 'card_declined',
        message: booked.message ?? 'Your card was declined.',
      };
    }
    return { status: 'verified', reference: booked.reference, card: strip(card), token: input.token };
  }

  async retrieveCharge(idempotencyKey: string): Promise<RetrievedCharge> {
    await halfLatency();
    const [row] = await getDb()
      .select()
      .from(sandboxProcessorOperations)
      .where(and(eq(sandboxProcessorOperations.idempotencyKey, idempotencyKey), eq(sandboxProcessorOperations.kind, 'charge')));
    if (!row) return { status: 'not_found' };
    if (row.reference.startsWith('ch_sbx_never_settles_')) return { status: 'unknown' };
    if (row.status === 'requires_action') return { status: 'requires_action', reference: row.reference, nextAction: sandboxNextAction(row.actionId!) };
    if (row.status === 'failed')
      return { status: 'failed', reference: row.reference, declineCode: row.declineCode ?? 'card_declined', message: row.message ?? '' };
    return { status: 'succeeded', reference: row.reference };
  }

  async cancelCharge(input: { idempotencyKey: string; amount: number; currency: string }): Promise<CanceledCharge> {
    await halfLatency();
    const booked = await book({
      kind: 'charge',
      status: 'failed',
      declineCode: 'canceled',
      message: 'The payment was canceled before it was charged.',
      reference: `${CANCELED_PREFIX}${input.idempotencyKey}`,
      amount: input.amount,
      currency: input.currency,
      idempotencyKey: input.idempotencyKey,
      actionId: null,
      returnUrl: null,
    });
    await halfLatency();
    if (booked.reference.startsWith(CANCELED_PREFIX)) return { status: 'canceled' };
    if (booked.status === 'requires_action') {
      // The customer never finished authenticating: nothing was charged, and from now on nothing can be.
      if (await cancelAuthentication(input.idempotencyKey)) return { status: 'canceled' };
      return this.cancelCharge(input);
    }
    if (booked.reference.startsWith('ch_sbx_never_settles_')) return { status: 'unknown' };
    if (booked.status === 'failed')
      return { status: 'failed', reference: booked.reference, declineCode: booked.declineCode ?? 'card_declined', message: booked.message ?? '' };
    return { status: 'succeeded', reference: booked.reference };
  }

  async refund(input: { chargeReference: string; amount: number; currency: string; idempotencyKey: string }): Promise<RefundOutcome> {
    const fails = input.chargeReference.startsWith('ch_sbx_refund_fails_');
    await halfLatency();
    const booked = await book({
      kind: 'refund',
      status: fails ? 'failed' : 'succeeded',
      declineCode: null,
      message: fails ? 'The card issuer refused the refund.' : null,
      reference: `rf_sbx_${input.idempotencyKey}`,
      amount: input.amount,
      currency: input.currency,
      idempotencyKey: input.idempotencyKey,
      actionId: null,
      returnUrl: null,
    });
    await halfLatency();
    if (booked.status === 'failed') return { status: 'failed', reference: booked.reference, message: booked.message ?? '' };
    return { status: 'succeeded', reference: booked.reference };
  }
}

type BookedOperation = typeof sandboxProcessorOperations.$inferSelect;

type Decided = Pick<BookedOperation, 'status' | 'declineCode' | 'message' | 'actionId' | 'returnUrl'>;

function decideCharge(card: EnteredToken | undefined, charge?: Pick<ChargeInput, 'offSession' | 'returnUrl'>): Decided {
  const none = { actionId: null, returnUrl: null };
  if (!card) return { status: 'failed', declineCode: 'invalid_token', message: 'The payment method is not valid.', ...none };
  if (card.behaviour === 'authenticate' && charge) {
    // Stripe's behaviour: only a customer who is there can authenticate.
    if (charge.offSession) return { status: 'failed', ...AUTHENTICATION_REQUIRED, ...none };
    return { status: 'requires_action', declineCode: null, message: null, actionId: newActionId(), returnUrl: charge.returnUrl ?? null };
  }
  if (card.behaviour === 'decline' || card.behaviour === 'insufficient_funds' || card.behaviour === 'verify_then_decline') {
    const decline = DECLINES[card.behaviour === 'insufficient_funds' ? 'insufficient_funds' : 'decline'];
    return { status: 'failed', declineCode: decline.code, message: decline.message, ...none };
  }
  return { status: 'succeeded', declineCode: null, message: null, ...none };
}

/** The first request with a key makes the operation; later ones get the same row back. */
async function book(operation: Omit<BookedOperation, 'requests' | 'createdAt'>): Promise<BookedOperation> {
  const [row] = await getDb()
    .insert(sandboxProcessorOperations)
    .values(operation)
    .onConflictDoUpdate({ target: sandboxProcessorOperations.idempotencyKey, set: { requests: sql`${sandboxProcessorOperations.requests} + 1` } })
    .returning();
  return row!;
}

function halfLatency(): Promise<void> {
  const ms = config.payments.sandboxLatencyMs / 2;
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}

function readToken(token: string): EnteredToken | undefined {
  const fixed = SANDBOX_TEST_CARDS.find((c) => c.token === token);
  if (fixed) return { brand: fixed.brand, last4: fixed.number.slice(-4), expMonth: 12, expYear: SANDBOX_TOKEN_EXP_YEAR, behaviour: fixed.behaviour };
  if (!token.startsWith(ENTERED_TOKEN_PREFIX)) return undefined;
  const parts = Buffer.from(token.slice(ENTERED_TOKEN_PREFIX.length), 'base64url').toString('utf8').split('.');
  if (parts.length !== 6) return undefined;
  const [brand, last4, month, year, behaviour] = parts as [string, string, string, string, string];
  if (!/^\d{4}$/.test(last4) || !BEHAVIOURS.includes(behaviour as SandboxBehaviour)) return undefined;
  return { brand, last4, expMonth: Number(month), expYear: Number(year), behaviour: behaviour as SandboxBehaviour };
}

function strip(card: EnteredToken): CardDetails {
  return { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear };
}

function randomSuffix(): string {
  return crypto.randomUUID().replaceAll('-', '').slice(0, 16);
}

export function luhnValid(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
