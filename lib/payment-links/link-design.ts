import type { Db } from '../db/client';
import { resolveHostedDesign, type HostedDesign } from '../designs/hosted-design';
import { findPublicPaymentLink } from './payment-links';

/** The design of the hosted pages of the payment link with this token (none for an unknown token). */
export async function designForPaymentLink(db: Db, token: string): Promise<HostedDesign | null> {
  const found = await findPublicPaymentLink(db, token);
  return found ? resolveHostedDesign(db, found.link.merchantId, found.link.designId) : null;
}
