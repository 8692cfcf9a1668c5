import { cache } from 'react';
import { getDb } from '@/lib/db/client';
import { findCreditNoteByToken } from '@/lib/billing/credit-note-document';
import { resolveHostedDesign } from '@/lib/designs/hosted-design';

/** Once per request: the root layout (for `<html lang>`) and the page of /credit-note/{token} share the lookups. */
export const hostedCreditNote = cache((token: string) => findCreditNoteByToken(getDb(), token));

export const creditNoteDesign = cache(async (token: string) => {
  const found = await hostedCreditNote(token);
  return found ? resolveHostedDesign(getDb(), found.seller.id) : null;
});
