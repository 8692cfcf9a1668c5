import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { findInvoiceByToken } from '@/lib/billing/invoices';
import { invoiceDocument } from '@/lib/billing/invoice-document';
import { InvoiceView } from '@/components/billing/invoice-view';
import { DesignFrame } from '@/components/checkout/design-frame';
import { resolveHostedDesign } from '@/lib/designs/hosted-design';
import { customerText } from '@/lib/i18n/customer-text';
import { pageLocale } from '@/lib/i18n/page-locale';

export const dynamic = 'force-dynamic';
// The address is the secret: never indexed, never sent on as a referrer.
export const metadata: Metadata = { robots: { index: false, follow: false }, referrer: 'no-referrer' };

/** The hosted invoice (a receipt once paid) of one billing record, at its secret token, in the seller's default design and the reader's language. */
export default async function HostedInvoicePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invoice = await findInvoiceByToken(getDb(), token);
  if (!invoice) notFound();
  const design = await resolveHostedDesign(getDb(), invoice.seller.id);
  const locale = await pageLocale(design?.defaultLocale);
  const document = invoiceDocument(invoice, { text: customerText(locale) });
  return (
    <DesignFrame design={design} locale={locale}>
      <title>{`${document.title} ${document.number}`}</title>
      <main className="mx-auto max-w-3xl px-6 py-12">
        <InvoiceView document={document} pdfHref={`/invoice/${token}/pdf`} />
      </main>
    </DesignFrame>
  );
}
