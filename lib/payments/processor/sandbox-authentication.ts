import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { config } from '../../config';
import { getDb } from '../../db/client';
import { sandboxProcessorOperations } from '../../db/schema';
import type { NextAction } from './types';

/**
 * The sandbox's 3-D Secure page (/sandbox/authenticate/{id}, docs/payments.md "Authentication"):
 * what Stripe's test authentication page is for its test cards. A charge of the card
 * `tok_authentication_required` with the customer present is booked `requires_action` with an
 * unguessable id; the page shows it and settles it. It stands in for the remote processor, so it
 * writes only the sandbox's books: Paybase learns the result by asking (`retrieveCharge`).
 */

export const AUTHENTICATION_REQUIRED = {
  declineCode: 'authentication_required',
  message: 'The card requires authentication, and the customer is not present to complete it.',
} as const;

const AUTHENTICATION_FAILED = { declineCode: 'authentication_failed', message: 'The customer did not complete the card authentication.' } as const;

/** 24 random bytes: the page's only credential, so it cannot be guessed from any id Paybase shows. */
export function newActionId(): string {
  return `sbxauth_${randomBytes(24).toString('base64url')}`;
}

export function sandboxNextAction(actionId: string): NextAction {
  return { type: 'redirect_to_url', url: `${config.publicUrl}/sandbox/authenticate/${actionId}` };
}

export interface SandboxAuthentication {
  amount: number;
  currency: string;
  /** `requires_action` while the page can settle it; otherwise how it ended. */
  status: 'requires_action' | 'succeeded' | 'failed';
  returnUrl: string | null;
}

/** The charge behind a page id; undefined for any id the sandbox did not hand out. */
export async function findSandboxAuthentication(actionId: string): Promise<SandboxAuthentication | undefined> {
  if (!/^sbxauth_[A-Za-z0-9_-]{32}$/.test(actionId)) return undefined;
  const [row] = await getDb()
    .select()
    .from(sandboxProcessorOperations)
    .where(and(eq(sandboxProcessorOperations.actionId, actionId), eq(sandboxProcessorOperations.kind, 'charge')));
  if (!row) return undefined;
  return { amount: row.amount, currency: row.currency, status: row.status, returnUrl: row.returnUrl };
}

/**
 * "Complete authentication" (the charge succeeds) or "Fail authentication" (it fails
 * `authentication_failed`), once: only while the charge still waits. Answers the charge as it is
 * afterwards (settled by this click, an earlier one, or a cancel), or undefined for an unknown id.
 */
export async function settleSandboxAuthentication(actionId: string, result: 'complete' | 'fail'): Promise<SandboxAuthentication | undefined> {
  const found = await findSandboxAuthentication(actionId);
  if (found?.status !== 'requires_action') return found;
  const settled =
    result === 'complete' ? { status: 'succeeded' as const, declineCode: null, message: null } : { status: 'failed' as const, ...AUTHENTICATION_FAILED };
  await getDb()
    .update(sandboxProcessorOperations)
    .set(settled)
    .where(and(eq(sandboxProcessorOperations.actionId, actionId), eq(sandboxProcessorOperations.status, 'requires_action')));
  return findSandboxAuthentication(actionId);
}

/** `cancelCharge` of a charge still waiting: false when it settled first (the caller answers that). */
export async function cancelAuthentication(idempotencyKey: string): Promise<boolean> {
  const canceled = await getDb()
    .update(sandboxProcessorOperations)
    .set({ status: 'failed', declineCode: 'canceled', message: 'The payment was canceled: the customer did not authenticate in time.' })
    .where(and(eq(sandboxProcessorOperations.idempotencyKey, idempotencyKey), eq(sandboxProcessorOperations.status, 'requires_action')))
    .returning({ key: sandboxProcessorOperations.idempotencyKey });
  return canceled.length === 1;
}
