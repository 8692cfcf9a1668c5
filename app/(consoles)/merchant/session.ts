import { cache } from 'react';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { findMerchantById } from '@/lib/merchants/merchants';
import { findAccountUser } from '@/lib/merchants/users';
import { requireSession } from '@/lib/web/session';

/** The signed-in seller user and its seller account, once per request (layout and page share it). */
export const currentSeller = cache(async () => {
  const principal = await requireSession('merchant');
  const db = getDb();
  const [merchant, user] = await Promise.all([
    findMerchantById(db, principal.subjectId),
    principal.userId ? findAccountUser(db, principal.subjectId, principal.userId) : undefined,
  ]);
  if (!merchant || !user) redirect('/merchant/sign-in');
  return { merchant, user };
});

/** The signed-in seller account (the tenant every page reads). */
export const currentMerchant = async () => (await currentSeller()).merchant;
