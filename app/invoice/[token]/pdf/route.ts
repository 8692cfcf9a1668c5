import { getDb } from '@/lib/db/client';
import { findInvoiceByToken } from '@/lib/billing/invoices';
import { renderInvoicePdf } from '@/lib/billing/invoice-pdf';
import { resolveHostedDesign } from '@/lib/designs/hosted-design';
import { chooseLocale } from '@/lib/i18n/locales';

export const dynamic = 'force-dynamic';

/** The PDF of a hosted invoice, at the same secret token as its page, in the page's language. */
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invoice = await findInvoiceByToken(getDb(), token);
  if (!invoice) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const design = await resolveHostedDesign(getDb(), invoice.seller.id);
  const pdf = await renderInvoicePdf(invoice, chooseLocale({ preferred: design?.defaultLocale, acceptLanguage: request.headers.get('accept-language') }));
  return new Response(pdf as BodyInit, {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="${invoice.record.status === 'paid' ? 'receipt' : 'invoice'}-${invoice.record.id}.pdf"`,
      'Cache-Control': 'private, no-store',
      'Referrer-Policy': 'no-referrer',
    },
  });
}
