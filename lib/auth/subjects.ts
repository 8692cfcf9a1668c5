import type { Db } from '../db/client';
import type { Audience } from '../db/schema';
import { findAdminById } from '../admins/admins';
import { findMemberById } from '../members/members';
import { isActiveAccountUser } from '../merchants/users';

/**
 * Whether the holder of a session may still act: it exists and, for a seller, the account is not
 * suspended and the signed-in user still belongs to it.
 */
export async function isSubjectActive(db: Db, audience: Audience, subjectId: string, userId?: string | null): Promise<boolean> {
  switch (audience) {
    case 'admin':
      return Boolean(await findAdminById(db, subjectId));
    case 'merchant':
      return Boolean(userId) && (await isActiveAccountUser(db, subjectId, userId!));
    case 'member':
      return Boolean(await findMemberById(db, subjectId));
  }
}
