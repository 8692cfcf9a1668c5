import { ApiError } from '../errors';
import type { SessionPrincipal } from './sessions';

/** The seller account (tenant) and the user of a seller session. */
export interface SellerUserRef {
  merchantId: string;
  userId: string;
}

export function sellerUserOf(principal: SessionPrincipal): SellerUserRef {
  if (principal.audience !== 'merchant' || !principal.userId) throw new ApiError('UNAUTHENTICATED', 'This sign-in has ended: sign in again.');
  return { merchantId: principal.subjectId, userId: principal.userId };
}
