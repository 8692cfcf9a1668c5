import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { invoiceDocument } from '@/lib/billing/invoice-document';
import { loadInvoicePayment } from '@/lib/subscriptions/invoice-payment';
import { InvoiceView } from '@/components/billing/invoice-view';
import { DesignFrame } from '@/components/checkout/design-frame';
import { hostedInvoice, invoiceDesign } from './design';
import { customerText } from '@/lib/i18n/customer-text';
import { pageLocale } from '@/lib/server/web/page-locale';
import { payInvoiceAction } from './actions';
import { InvoicePayment } from './invoice-payment';

export const dynamic = 'force-dynamic';
// The address is the secret: never indexed. The site's referrer policy sends another site our
// origin only, never the path; `no-referrer` would make a form posted before the page's scripts
// load arrive with `Origin: null`, refused as a cross-site action (docs/decisions.md).
export const metadata: Metadata = { robots: { index: false, follow: false } };

/**
 * The hosted invoice (a receipt once paid) of one billing record, at its secret token, in the
 * seller's default design and the reader's language. An open subscription record can be paid
 * here with the subscription's card (Pay now), the customer there to authenticate it.
 */
export default async function HostedInvoicePage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<{ payment?: string | string[] }>;
}) {
  const { token } = await params;
  const { payment: returnedPaymentId } = await searchParams;
  const found = await hostedInvoice(token);
  if (!found) notFound();
  const design = await invoiceDesign(token);
  const locale = await pageLocale(design?.defaultLocale);
  const text = customerText(locale);
  const { invoice, payment } = await loadInvoicePayment(getDb(), found, typeof returnedPaymentId === 'string' ? returnedPaymentId : undefined, text);
  const document = invoiceDocument(invoice, { text });
  return (
    <DesignFrame design={design} locale={locale}>
      <title>{`${document.title} ${document.number}`}</title>
      <main className="mx-auto max-w-3xl px-6 py-12">
        <InvoicePayment view={payment} text={text} pay={payInvoiceAction.bind(null, token)} />
        <InvoiceView document={document} pdfHref={`/invoice/${token}/pdf`} />
      </main>
    </DesignFrame>
  );
}
