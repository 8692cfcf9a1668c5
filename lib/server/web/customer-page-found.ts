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
  const segments = pathname.split('/').slice(1);
  const [area, id, rest] = segments;
  if (id === undefined) return true;
  const key = decoded(id);
  if (key === undefined) return false;
  const db = getDb();
  if (area === 'pay' && segments.length === 2) return (await findPublicPaymentLink(db, key)) !== undefined;
  if (area === 'pay' && rest === 'success' && segments.length === 3) {
    const checkoutId = search.get('checkoutId');
    return checkoutId !== null && (await findCheckoutOfLink(db, key, checkoutId)) !== undefined;
  }
  if (area === 'member' && key === 'pay' && segments.length === 3) {
    const token = decoded(rest!);
    return token !== undefined && (await findPublicPaymentLink(db, token)) !== undefined;
  }
  if (area === 'invoice' && segments.length === 2) return invoiceTokenExists(db, key);
  if (area === 'credit-note' && segments.length === 2) return creditNoteTokenExists(db, key);
  if (area === 'sandbox' && key === 'authenticate' && segments.length === 3) {
    const actionId = decoded(rest!);
    return actionId !== undefined && (await findSandboxAuthentication(actionId)) !== undefined;
  }
  return true;
}

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
