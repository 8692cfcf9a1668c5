import { cache } from 'react';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { findMerchantById } from '@/lib/merchants/merchants';
import { requireSession } from '@/lib/web/session';

/** The signed-in seller, once per request (layout and page share it). */
export const currentMerchant = cache(async () => {
  const principal = await requireSession('merchant');
  const merchant = await findMerchantById(getDb(), principal.subjectId);
  if (!merchant) redirect('/merchant/sign-in');
  return merchant;
});
