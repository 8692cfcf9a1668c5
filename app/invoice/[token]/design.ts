import { cache } from 'react';
import { getDb } from '@/lib/db/client';
import { findInvoiceByToken } from '@/lib/billing/invoices';
import { resolveHostedDesign } from '@/lib/designs/hosted-design';

/** Once per request: the root layout (for `<html lang>`) and the page of /invoice/{token} share the lookups. */
export const hostedInvoice = cache((token: string) => findInvoiceByToken(getDb(), token));

export const invoiceDesign = cache(async (token: string) => {
  const found = await hostedInvoice(token);
  return found ? resolveHostedDesign(getDb(), found.seller.id) : null;
});
