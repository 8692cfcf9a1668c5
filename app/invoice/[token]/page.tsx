import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { findInvoiceByToken } from '@/lib/billing/invoices';
import { invoiceDocument } from '@/lib/billing/invoice-document';
import { InvoiceView } from '@/components/billing/invoice-view';

export const dynamic = 'force-dynamic';
// The address is the secret: never indexed, never sent on as a referrer.
export const metadata: Metadata = { title: 'Invoice', robots: { index: false, follow: false }, referrer: 'no-referrer' };

/** The hosted invoice (a receipt once paid) of one billing record, at its secret token. */
export default async function HostedInvoicePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invoice = await findInvoiceByToken(getDb(), token);
  if (!invoice) notFound();
  return (
    <main className="mx-auto max-w-3xl px-6 py-12">
      <InvoiceView document={invoiceDocument(invoice)} pdfHref={`/invoice/${token}/pdf`} />
    </main>
  );
}
