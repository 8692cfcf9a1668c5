import type { Db } from '../db/client';
import { ApiError } from '../errors';
import { findAdminById, toAdminIdentity } from '../admins/admins';
import { findMerchantById, toMerchantIdentity } from '../merchants/merchants';
import { findMemberById, toMemberIdentity } from '../members/members';
import { findAccountUser, toSellerUserResponse } from '../merchants/users';
import type { SessionPrincipal } from './sessions';

/**
 * The holder of an access token; `userType` is Admin, Merchant or Member. For a seller the body
 * is the seller account (as before: `id` is the merchant id), plus the signed-in `user` and its `role`.
 */
export async function getIdentity(db: Db, principal: SessionPrincipal) {
  const identity = await lookup(db, principal);
  if (!identity) throw new ApiError('UNAUTHENTICATED', 'This account no longer exists.');
  return identity;
}

async function lookup(db: Db, principal: SessionPrincipal) {
  switch (principal.audience) {
    case 'admin': {
      const row = await findAdminById(db, principal.subjectId);
      return row && toAdminIdentity(row);
    }
    case 'merchant': {
      const row = await findMerchantById(db, principal.subjectId);
      const user = principal.userId ? await findAccountUser(db, principal.subjectId, principal.userId) : undefined;
      return row && user && { ...toMerchantIdentity(row), role: user.role, user: toSellerUserResponse(user) };
    }
    case 'member': {
      const row = await findMemberById(db, principal.subjectId);
      return row && toMemberIdentity(row);
    }
  }
}
