'use server';

import { headers } from 'next/headers';
import { notFound, redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { invoicePath } from '@/lib/billing/billing-records';
import { payInvoiceNow } from '@/lib/subscriptions/invoice-payment';

/**
 * Pay now on the hosted invoice page (lib/subscriptions/invoice-payment.ts). The page's token is
 * the permission, as for the page itself: bound to the action, it is posted back with the form
 * like any field, so it is checked as one. When the bank asks for authentication the customer is
 * sent to its page, which returns to the invoice page; a form posted without JavaScript comes back
 * to the invoice page instead, which links there (`form-action 'self'` also covers where a form
 * post is redirected, so a browser would refuse the other site).
 */
export async function payInvoiceAction(token: unknown): Promise<void> {
  if (typeof token !== 'string' || !/^[0-9a-f]{64}$/.test(token)) notFound();
  const step = await payInvoiceNow(getDb(), token);
  const page = invoicePath(token);
  if (step.kind === 'authenticate' && (await headers()).has('next-action')) redirect(step.url);
  const paymentId = step.kind === 'back' ? step.paymentId : null;
  redirect(paymentId ? `${page}?payment=${encodeURIComponent(paymentId)}` : page);
}
