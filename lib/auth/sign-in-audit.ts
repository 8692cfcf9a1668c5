import type { Db } from '../db/client';
import { recordAudit } from '../audit/audit-log';

interface SellerUserRef {
  id: string;
  merchantId: string;
  email: string;
}

/** A seller user's sign-in, in the transaction that starts its session. */
export function recordSellerSignIn(tx: Db, user: SellerUserRef, metadata: { method: 'password' | 'two_factor' }) {
  return recordAudit(tx, {
    merchantId: user.merchantId,
    action: 'seller.sign_in',
    actor: { kind: 'seller_user', id: user.id, label: user.email },
    target: { kind: 'seller_user', id: user.id },
    metadata,
  });
}

/**
 * A refused seller sign-in, written on its own (nothing else commits). The actor is whoever
 * typed the address; when it names a seller user, the entry belongs to that account, so its
 * Owner sees attempts on it. Never the password.
 */
export function recordSellerSignInFailure(db: Db, input: { email: string; user: SellerUserRef | undefined; reason: string }) {
  return recordAudit(db, {
    merchantId: input.user?.merchantId ?? null,
    action: 'seller.sign_in_failed',
    actor: { kind: 'anonymous', label: input.email.toLowerCase() },
    target: input.user ? { kind: 'seller_user', id: input.user.id } : undefined,
    metadata: { reason: input.reason },
  });
}
