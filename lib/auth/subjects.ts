import type { Db } from '../db/client';
import type { Audience } from '../db/schema';
import { findAdminById } from '../admins/admins';
import { findMerchantById } from '../merchants/merchants';
import { findMemberById } from '../members/members';

/** Whether the holder of a session may still act: it exists and, for a seller, is not suspended. */
export async function isSubjectActive(db: Db, audience: Audience, subjectId: string): Promise<boolean> {
  switch (audience) {
    case 'admin':
      return Boolean(await findAdminById(db, subjectId));
    case 'merchant':
      return (await findMerchantById(db, subjectId))?.status === 'active';
    case 'member':
      return Boolean(await findMemberById(db, subjectId));
  }
}
