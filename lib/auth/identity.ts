import type { Db } from '../db/client';
import { ApiError } from '../http/errors';
import { findAdminById, toAdminIdentity } from '../admins/admins';
import { findMerchantById, toMerchantIdentity } from '../merchants/merchants';
import { findMemberById, toMemberIdentity } from '../members/members';
import type { SessionPrincipal } from './sessions';

/** The holder of an access token; `userType` is Admin, Merchant or Member. */
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
      return row && toMerchantIdentity(row);
    }
    case 'member': {
      const row = await findMemberById(db, principal.subjectId);
      return row && toMemberIdentity(row);
    }
  }
}
