import { getDb } from '../../db/client';
import { invoiceTokenExists } from '../../billing/invoices';
import { creditNoteTokenExists } from '../../billing/credit-note-document';
import { findCheckoutOfLink } from '../../checkout/hosted-result';
import { findPublicPaymentLink } from '../../payment-links/payment-links';
import { findSandboxAuthentication } from '../../payments/processor/sandbox-authentication';

/**
 * Whether a customer page's address names something that exists, asked by proxy.ts before the
 * page renders. Next.js 16 answers a `notFound()` thrown while a dynamic page renders with an
 * empty error document that the browser's JavaScript fills in (vercel/next.js#62228): a mistyped
 * checkout or invoice link would show nothing without JavaScript and nothing to a crawler or
 * a screen reader before hydration. A path this answers `false` for is rewritten to the
 * not-found page, which Next.js renders on the server. Pages keep their own `notFound()` for
 * anything else.
 */
export async function customerPageFound(pathname: string, search: URLSearchParams): Promise<boolean> {
  // An address that does not decode is Next.js's to refuse (400), as for any other page.
  const segments = decodedSegments(pathname);
  if (!segments) return true;
  const [area, first, second] = segments;
  const db = getDb();
  if (segments.length === 2 && area === 'pay') return (await findPublicPaymentLink(db, first!)) !== undefined;
  if (segments.length === 3 && area === 'pay' && second === 'success') {
    const checkoutId = search.get('checkoutId');
    return checkoutId !== null && (await findCheckoutOfLink(db, first!, checkoutId)) !== undefined;
  }
  if (segments.length === 3 && area === 'member' && first === 'pay') return (await findPublicPaymentLink(db, second!)) !== undefined;
  if (segments.length === 2 && area === 'invoice') return invoiceTokenExists(db, first!);
  if (segments.length === 2 && area === 'credit-note') return creditNoteTokenExists(db, first!);
  if (segments.length === 3 && area === 'sandbox' && first === 'authenticate') return (await findSandboxAuthentication(second!)) !== undefined;
  return true;
}

function decodedSegments(pathname: string): string[] | undefined {
  try {
    return pathname.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}
