import { getDb } from '@/lib/db/client';
import { findCreditNoteByToken } from '@/lib/billing/credit-note-document';
import { renderCreditNotePdf } from '@/lib/billing/invoice-pdf';
import { resolveHostedDesign } from '@/lib/designs/hosted-design';
import { chooseLocale } from '@/lib/i18n/locales';

export const dynamic = 'force-dynamic';

/** The PDF of a hosted credit note, at the same secret token as its page, in the page's language. */
export async function GET(request: Request, { params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const creditNote = await findCreditNoteByToken(getDb(), token);
  if (!creditNote) return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const design = await resolveHostedDesign(getDb(), creditNote.seller.id);
  const pdf = await renderCreditNotePdf(creditNote, chooseLocale({ preferred: design?.defaultLocale, acceptLanguage: request.headers.get('accept-language') }));
  return new Response(pdf as BodyInit, {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="credit-note-${creditNote.note.number ?? creditNote.note.id}.pdf"`,
      'Cache-Control': 'private, no-store',
      'Referrer-Policy': 'no-referrer',
    },
  });
}
