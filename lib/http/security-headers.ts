import crypto from 'node:crypto';
import { config } from '../config';

/**
 * The security headers of every answer, defined once (docs/operations.md, "Security headers").
 * proxy.ts sets them on the pages (and the files pages link to); the API routes' shared core
 * (`handleRequest`, lib/server/http/route-core.ts) on every API answer, which needs no nonce and so no
 * proxy pass; the launcher's front door (lib/http/front-door.ts) on the answers it gives before
 * Next.js sees a request.
 *
 * No page may be framed by another site (`frame-ancestors 'none'`, `X-Frame-Options: DENY`):
 * sellers link or redirect to the hosted pages, never embed them. Scripts run only with the
 * request's nonce (Next.js reads it from the request's own `Content-Security-Policy` header and
 * puts it on its scripts), and what those load (`'strict-dynamic'`).
 *
 * The pages that take a card for a seller on Stripe (the platform's or the seller's own connected
 * account) load Stripe.js from STRIPE_JS_URL, frame its card element and let it call Stripe's API
 * (docs/processors.md, "PCI scope"): exactly those origins are allowed, on every page, because a
 * page reached by client-side navigation keeps the policy of the document it started in, and on
 * every installation, because any seller may connect a Stripe account (docs/decisions.md,
 * "Stripe's origins in every page's policy").
 */

/** A fresh, unguessable nonce for one page answer. */
export function newCspNonce(): string {
  return crypto.randomBytes(18).toString('base64');
}

/** The origins Stripe.js needs: its script and frames (STRIPE_JS_URL) and Stripe's API (STRIPE_API_URL). */
function stripeOrigins(): { js: string; api: string } {
  return { js: new URL(config.processor.stripe.jsUrl).origin, api: new URL(config.processor.stripe.apiUrl).origin };
}

/** The policy of an HTML page (and of the files pages link to: PDFs, exports, logos). */
export function pageContentSecurityPolicy(nonce: string): string {
  // `next dev` only: React rebuilds server error stacks with eval, and styles are injected inline.
  const development = config.isNextDevelopment;
  const stripe = stripeOrigins();
  return [
    // Images, fonts, fetches: our own origin only (and Stripe's).
    "default-src 'self'",
    // A browser that knows 'strict-dynamic' ignores the origin (the nonce'd bundle adds Stripe.js); older ones need it.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic' ${stripe.js}${development ? " 'unsafe-eval'" : ''}`,
    `frame-src 'self' ${stripe.js}`,
    `connect-src 'self' ${[...new Set([stripe.js, stripe.api])].join(' ')}`,
    `style-src 'self' ${development ? "'unsafe-inline'" : `'nonce-${nonce}'`}`,
    // `style="…"` attributes (bar widths, a design's colours) cannot run code.
    "style-src-attr 'unsafe-inline'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    ...(config.publicUrl.startsWith('https:') ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}

/** A JSON answer is never a document: it may load nothing and be framed by nobody. */
const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

let apiHeaders: Record<string, string> | undefined;

/** The headers of every API answer (the same for the life of the process). */
export function apiSecurityHeaders(): Record<string, string> {
  apiHeaders ??= securityHeaders(API_CONTENT_SECURITY_POLICY);
  return apiHeaders;
}

/**
 * The headers besides the policy. `strict-origin-when-cross-origin`: another site learns at most
 * our origin, never a path (hosted pages carry secret tokens in theirs); `no-referrer` would also
 * make browsers send `Origin: null` with a form posted before its page's scripts load, which
 * Next.js refuses as a cross-site server action (docs/decisions.md). HSTS only with
 * `APP_ENV=production`, where the service is served over HTTPS; a development machine on plain
 * http must not be pinned to it.
 */
export function securityHeaders(contentSecurityPolicy: string): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    ...(config.isProduction ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' } : {}),
  };
}
