'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { invoicePath } from '@/lib/billing/billing-records';
import { payInvoiceNow } from '@/lib/subscriptions/invoice-payment';

/**
 * Pay now on the hosted invoice page (lib/subscriptions/invoice-payment.ts). The page's address
 * is the permission, as for the page itself; the token comes bound to the action (Next.js seals
 * bound arguments in the page). When the bank asks for authentication the customer is sent to
 * its page, which returns to the invoice page; a form posted without JavaScript comes back to the
 * invoice page instead, which links there (`form-action 'self'` also covers where a form post is
 * redirected, so a browser would refuse the other site).
 */
export async function payInvoiceAction(token: string): Promise<void> {
  if (typeof token !== 'string') redirect('/');
  const step = await payInvoiceNow(getDb(), token);
  const page = invoicePath(token);
  if (step.kind === 'authenticate' && (await headers()).has('next-action')) redirect(step.url);
  const paymentId = step.kind === 'back' ? step.paymentId : null;
  redirect(paymentId ? `${page}?payment=${encodeURIComponent(paymentId)}` : page);
}
