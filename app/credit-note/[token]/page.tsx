import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { creditNoteDocument } from '@/lib/billing/credit-note-document';
import { InvoiceView } from '@/components/billing/invoice-view';
import { DesignFrame } from '@/components/checkout/design-frame';
import { creditNoteDesign, hostedCreditNote } from './design';
import { customerText } from '@/lib/i18n/customer-text';
import { pageLocale } from '@/lib/server/web/page-locale';

export const dynamic = 'force-dynamic';
// The address is the secret, as the hosted invoice's: never indexed.
export const metadata: Metadata = { robots: { index: false, follow: false }, referrer: 'no-referrer' };

/** The hosted credit note at its secret token, in the seller's default design and the reader's language. */
export default async function HostedCreditNotePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const found = await hostedCreditNote(token);
  if (!found) notFound();
  const design = await creditNoteDesign(token);
  const locale = await pageLocale(design?.defaultLocale);
  const document = creditNoteDocument(found, { text: customerText(locale) });
  return (
    <DesignFrame design={design} locale={locale}>
      <title>{`${document.title} ${document.number}`}</title>
      <main className="mx-auto max-w-3xl px-6 py-12">
        <InvoiceView document={document} pdfHref={`/credit-note/${token}/pdf`} />
      </main>
    </DesignFrame>
  );
}
