import { and, eq, inArray, type WithSubquery } from 'drizzle-orm';
import { z } from 'zod';
import type { Database, Db } from '../db/client';
import type { Phases } from '../db/phases';
import { payments } from '../db/schema';
import { metrics } from '../metrics/registry';
import { processorOf, type PaymentProcessor } from './processor';
import { processorCustomerOf } from './processor-customers';
import type { CardDetails, ChargeOutcome } from './processor/types';
import { createPendingPayment, type PaymentRow, type PendingPaymentInput } from './payments';

/**
 * The money-move engine (docs/payments.md, "Money moves"). Every movement of money is a kind,
 * declared once with the zod schema of its plan, and runs in three phases:
 *
 * 1. `prepare` (the kind's own code, in one transaction) validates, reserves and computes
 *    everything, then pins the plan on a `pending` payment (`pinMoneyMove`);
 * 2. the processor is asked with no transaction open (`collectCharge`);
 * 3. the kind's `apply` records the outcome of exactly that plan, in one transaction with the
 *    API's idempotency answer. It never plans again: if the world moved meanwhile, `apply`
 *    records the charge and decides what to do about it, visibly.
 *
 * Recovery (lib/payments/recovery.ts) finishes a move whose phase 3 never ran with the same
 * `apply`, found through the registry here, so it imports no layer above payments.
 */

/** A payment with nothing to collect (100 % discount, trial) succeeds without a processor call. */
export const NO_CHARGE = { status: 'succeeded', reference: null, card: null } as const;
export type KnownOutcome = ChargeOutcome | typeof NO_CHARGE;
export type DefiniteOutcome = Exclude<KnownOutcome, { status: 'unknown' | 'requires_action' }>;

/** The processor's id of the card a succeeded charge used, when it is not the token it was given (lib/payments/processor/types.ts). */
export function chargedToken(outcome: KnownOutcome): string | undefined {
  return outcome.status === 'succeeded' && 'token' in outcome ? outcome.token : undefined;
}

/** A card's display details, carried in a plan (so no phase asks the processor for them). */
export const PinnedCard = z.object({ brand: z.string(), last4: z.string(), expMonth: z.number().int(), expYear: z.number().int() }).nullable();
export type PinnedCard = z.output<typeof PinnedCard>;

/** What phase 2 charges: the pending payment's row, less what the engine fills in. */
export interface ChargeRequest extends Omit<PendingPaymentInput, 'processorToken' | 'processorKey' | 'intent'> {
  /** The processor token to charge; null when the customer has none (the charge fails at once). */
  token: string | null;
  /** Derived from our ids: the same move always asks the processor with the same key. */
  processorKey: string;
  /** Where the processor's authentication page sends a customer-present charge's customer back (`pinnedIntent`). */
  returnUrl?: string | null;
}

/** A pinned move as phase 3 and recovery see it. */
export interface PinnedMove<Plan> {
  payment: PaymentRow;
  plan: Plan;
  /** Rows phase 1 wrote that its caller still holds (phase 3 then need not read them again). */
  known?: unknown;
}

/** How a kind that `recordsItself` stores the idempotency answer (lib/db/phases.ts). */
export type AnswerHooks = Pick<Phases, 'answer' | 'answerWrite'>;
const NO_ANSWER: AnswerHooks = { answer: async () => {} };

export interface MoneyMoveKind<Plan, Result> {
  kind: string;
  plan: z.ZodType<Plan>;
  /**
   * Customer-present moves (checkout, link completion, wallet, the portal) are never charged by
   * recovery: when the processor never saw the charge they fail and give back their reservations.
   * Merchant-initiated ones (renewals, dunning, a backend's create or command) may be.
   */
  customerPresent(plan: Plan): boolean;
  /**
   * `apply` records a `requires_action` outcome (the customer is sent to authenticate, 3-D
   * Secure, and the move settles later like an `unknown` one). Only a kind that can send its
   * customer there has it, and only its customer-present plans are charged so; every other
   * charge is made off-session, where such a card declines `authentication_required`.
   */
  takesCustomerAction?: boolean;
  /** A new card this move charges is kept for later charges (a subscription, "save this card"): the processor attaches it to the customer. */
  keepsCard?(plan: Plan): boolean;
  /** Phase 3 (and recovery): records `outcome` of the pinned plan. The payment is locked and still pending. */
  apply(tx: Db, move: PinnedMove<Plan>, outcome: KnownOutcome, answer: AnswerHooks): Promise<Result>;
  /** The answer of a move another run (a recovery, a twin request) recorded first. */
  recorded(tx: Db, move: PinnedMove<Plan>): Promise<Result>;
  /** An `unknown`, `requires_action` (or `needs_review`) charge of this move is settled: what follows from it. */
  settle(tx: Db, move: PinnedMove<Plan>, outcome: DefiniteOutcome): Promise<void>;
  /** Merchant-initiated recovery charges only while this holds (the subscription is still there…). */
  stillWanted?(db: Db, plan: Plan): Promise<boolean>;
  /**
   * `apply` locks the payment and stores the idempotency answer in its own statement (the
   * checkout's single-statement phase 3): it throws `PaymentAlreadySettled` when it was not pending.
   */
  recordsItself?: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds kinds of every plan and result type.
type AnyKind = MoneyMoveKind<any, any>;
const registry = new Map<string, AnyKind>();

/** Declares a kind of money move; recovery finds it by `kind` (the module must be loaded: lib/server/jobs/worker.ts). */
export function defineMoneyMove<Plan, Result>(kind: MoneyMoveKind<Plan, Result>): MoneyMoveKind<Plan, Result> {
  registry.set(kind.kind, kind);
  return kind;
}

/** Thrown (and the transaction rolled back) when another run recorded the payment's outcome first. */
export class PaymentAlreadySettled extends Error {
  constructor(paymentId: string) {
    super(`Payment ${paymentId} is no longer pending.`);
  }
}

/** A payment whose plan no registered kind can read (written by an older version, or corrupted). */
export class UnreadableMove extends Error {}

/** What phase 1 hands to the engine when the move needs the processor. */
export class Pinned {
  constructor(readonly payment: PaymentRow) {}
}

/** The kind and plan a pending or unknown payment was pinned with. */
export function pinnedMoveOf(payment: PaymentRow): { kind: AnyKind; move: PinnedMove<unknown> } {
  const intent = payment.intent as { kind?: unknown; plan?: unknown } | null;
  const kind = typeof intent?.kind === 'string' ? registry.get(intent.kind) : undefined;
  if (!kind) throw new UnreadableMove(`Payment ${payment.id} belongs to no known kind of money move (${String(intent?.kind)}).`);
  const parsed = kind.plan.safeParse(intent!.plan);
  if (!parsed.success) throw new UnreadableMove(`Payment ${payment.id} has a ${kind.kind} plan that does not parse: ${parsed.error.message}`);
  return { kind, move: { payment, plan: parsed.data } };
}

/**
 * Phase 1's last step, in the caller's transaction: the pending payment with the plan pinned on
 * it. A charge that cannot reach the processor (nothing to collect, no card) is applied at once,
 * in the same transaction, and its result returned instead.
 */
export async function pinMoneyMove<Plan, Result>(
  tx: Db,
  kind: MoneyMoveKind<Plan, Result>,
  plan: Plan,
  charge: ChargeRequest,
  along?: WithSubquery,
): Promise<Result | Pinned> {
  if (kind.recordsItself) throw new Error(`${kind.kind} records its own phase 3; it pins its payment itself.`);
  const { token, processorKey, returnUrl, ...payment } = charge;
  const row = await createPendingPayment(tx, { ...payment, processorToken: token, processorKey, intent: pinnedIntent(kind, plan, returnUrl) }, along);
  if (row.amount > 0 && row.processorToken) return new Pinned(row);
  return kind.apply(tx, { payment: row, plan }, nothingToCharge(row)!, NO_ANSWER);
}

/**
 * The `intent` column of a payment pinned for `kind` (for kinds that write their payment
 * themselves). `returnUrl`: where the processor's authentication page sends the customer back.
 */
export function pinnedIntent<Plan>(kind: MoneyMoveKind<Plan, unknown>, plan: Plan, returnUrl?: string | null): Record<string, unknown> {
  return returnUrl ? { kind: kind.kind, plan, returnUrl } : { kind: kind.kind, plan };
}

/**
 * Runs a move whose phase 1 is `prepare`: its transaction commits the pinned payment (or, when
 * no charge is needed, everything and the answer), then phases 2 and 3 follow.
 */
export async function runMoneyMove<Result>(phases: Phases, prepare: (tx: Db) => Promise<Result | Pinned>): Promise<Result> {
  const prepared = await phases.db.transaction(async (tx) => {
    const result = await prepare(tx);
    if (!(result instanceof Pinned)) await phases.answer(tx, result);
    return result;
  });
  return prepared instanceof Pinned ? finishMoneyMove<Result>(phases, prepared.payment) : prepared;
}

/** How phase 2 gets its outcome: a charge (a request), the recovery policy, or a person's decision. */
export type OutcomeSource = { by: 'charge' } | { by: 'recovery' } | { by: 'review'; outcome: DefiniteOutcome };

/**
 * Phases 2 and 3 of a pinned move: the outcome, then the kind's `apply` in one transaction with
 * the answer. When another run recorded the outcome first, the answer is what it recorded.
 */
export async function finishMoneyMove<Result>(phases: Phases, payment: PaymentRow, source: OutcomeSource = { by: 'charge' }, known?: unknown): Promise<Result> {
  const { kind, move } = pinnedMoveOf(payment);
  move.known = known;
  const outcome =
    source.by === 'review'
      ? source.outcome
      : source.by === 'recovery'
        ? await recoverOutcome(phases.db, kind, move)
        : await collectCharge(phases.db, kind, move);
  const fromStates: PaymentRow['status'][] = source.by === 'review' ? ['needs_review'] : ['pending'];
  try {
    const result = await phases.db.transaction(async (tx) => {
      if (kind.recordsItself && source.by !== 'review') return (await kind.apply(tx, move, outcome, phases)) as Result;
      const locked = await lockPayment(tx, payment.id, fromStates);
      if (!locked) throw new PaymentAlreadySettled(payment.id);
      const result = (await kind.apply(tx, { ...move, payment: locked }, outcome, NO_ANSWER)) as Result;
      await phases.answer(tx, result);
      return result;
    });
    metrics().moneyMoves.inc({ kind: kind.kind, by: source.by, outcome: outcome.status });
    return result;
  } catch (error) {
    if (!(error instanceof PaymentAlreadySettled) || source.by === 'review') throw error;
  }
  return phases.db.transaction(async (tx) => {
    const result = (await kind.recorded(tx, move)) as Result;
    await phases.answer(tx, result);
    return result;
  });
}

/** Phase 2. Never call it with a transaction open: it may take as long as the processor does. */
async function collectCharge<Plan>(db: Database, kind: MoneyMoveKind<Plan, unknown>, move: PinnedMove<Plan>): Promise<KnownOutcome> {
  const { payment } = move;
  const uncollectable = nothingToCharge(payment);
  if (uncollectable) return uncollectable;
  // The processor pinned in phase 1; a seller connection disconnected since then charges nothing.
  const processor = await processorOf(db, payment);
  if (!processor) return processorGone(payment);
  const { offSession, returnUrl } = chargeSession(kind, move);
  // A card charged again later is the customer's at the processor: a saved one, one kept now, any off-session charge.
  const keepCard = !payment.paymentMethodId && Boolean(kind.keepsCard?.(move.plan));
  const customer =
    keepCard || offSession || payment.paymentMethodId ? await processorCustomerOf(db, processor, payment.merchantId, payment.customerId) : undefined;
  return processor.charge({
    token: payment.processorToken!,
    amount: payment.amount,
    currency: payment.currency,
    idempotencyKey: payment.processorKey ?? payment.id,
    offSession,
    ...(returnUrl ? { returnUrl } : {}),
    ...(customer ? { customer, keepCard } : {}),
  });
}

/** The outcome of a payment the processor is not asked about: nothing to collect, or no card to charge. */
function nothingToCharge(payment: PaymentRow): KnownOutcome | undefined {
  if (payment.amount === 0) return NO_CHARGE;
  if (!payment.processorToken) return notCharged(payment, 'no_payment_method', 'The customer has no payment method to charge.');
  return undefined;
}

/** Whether the customer is there to authenticate (only kinds that can send them to do it), and where they come back to. */
function chargeSession<Plan>(kind: MoneyMoveKind<Plan, unknown>, { payment, plan }: PinnedMove<Plan>): { offSession: boolean; returnUrl?: string } {
  const present = Boolean(kind.takesCustomerAction && kind.customerPresent(plan));
  const returnUrl = (payment.intent as { returnUrl?: unknown } | null)?.returnUrl;
  return { offSession: !present, returnUrl: present && typeof returnUrl === 'string' ? returnUrl : undefined };
}

/**
 * The one recovery policy: ask the processor first; take what it knows. When it never saw the
 * charge, a customer-present move fails (the customer left, or saw an error and maybe paid
 * again), and a merchant-initiated one is charged with the same key, only while what it pays
 * for is still there.
 */
async function recoverOutcome(db: Database, kind: AnyKind, move: PinnedMove<unknown>): Promise<KnownOutcome> {
  const { payment, plan } = move;
  if (payment.amount === 0 || !payment.processorToken) return collectCharge(db, kind, move);
  const card = cardOf(payment);
  const processor = await processorOf(db, payment);
  if (!processor) return { status: 'unknown', reference: `unknown_${payment.id}`, card };
  const seen = await processor.retrieveCharge(payment.processorKey ?? payment.id);
  switch (seen.status) {
    case 'succeeded':
      return { status: 'succeeded', reference: seen.reference, card };
    case 'failed':
      return { status: 'failed', reference: seen.reference, card, declineCode: seen.declineCode, message: seen.message };
    case 'unknown':
      return { status: 'unknown', reference: `unknown_${payment.id}`, card };
    case 'requires_action':
      // The request died after the processor asked for authentication: recorded so, settled or canceled later.
      return { status: 'requires_action', reference: seen.reference, card, nextAction: seen.nextAction };
    case 'not_found':
      if (kind.customerPresent(plan)) return cancelAbandoned(processor, payment, card);
      if (kind.stillWanted && !(await kind.stillWanted(db, plan))) {
        return notCharged(payment, 'no_longer_applies', 'Not charged: what it would have paid for no longer applies.');
      }
      return collectCharge(db, kind, move);
  }
}

/**
 * The customer left before the processor saw the charge (and may have paid again since): the
 * key is canceled at the processor, so a late request can never charge it; if a charge slipped
 * in first, it is what the cancel answers and what is recorded.
 */
async function cancelAbandoned(processor: PaymentProcessor, payment: PaymentRow, card: CardDetails | null): Promise<KnownOutcome> {
  const canceled = await processor.cancelCharge({
    idempotencyKey: payment.processorKey ?? payment.id,
    amount: payment.amount,
    currency: payment.currency,
  });
  switch (canceled.status) {
    case 'canceled':
      return notCharged(payment, 'interrupted', 'The payment was interrupted before it reached the processor; nothing was charged.');
    case 'succeeded':
      return { status: 'succeeded', reference: canceled.reference, card };
    case 'failed':
      return { status: 'failed', reference: canceled.reference, card, declineCode: canceled.declineCode, message: canceled.message };
    case 'unknown':
      return { status: 'unknown', reference: `unknown_${payment.id}`, card };
  }
}

function processorGone(payment: PaymentRow): KnownOutcome {
  return notCharged(payment, 'processor_unavailable', 'The payment account this charge was to go through is no longer connected; nothing was charged.');
}

function notCharged(payment: PaymentRow, declineCode: string, message: string): KnownOutcome {
  return { status: 'failed', reference: `none_${payment.id}`, card: cardOf(payment), declineCode, message };
}

function cardOf(payment: PaymentRow): CardDetails | null {
  const plan = (payment.intent as { plan?: { card?: CardDetails | null } } | null)?.plan;
  return plan?.card ?? null;
}

/** The payment, locked, while it is still in one of `states` (else another finisher won). */
export async function lockPayment(tx: Db, paymentId: string, states: PaymentRow['status'][] = ['pending']): Promise<PaymentRow | undefined> {
  const [row] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), inArray(payments.status, states)))
    .for('update');
  return row;
}
