import crypto from 'node:crypto';
import { config } from '../config';

/**
 * The security headers of every answer, defined once (docs/operations.md, "Security headers").
 * proxy.ts sets them on the pages (and the files pages link to); the API routes' shared core
 * (`handleRequest`, lib/http/route-core.ts) on every API answer, which needs no nonce and so no
 * proxy pass; the launcher's front door (lib/http/front-door.ts) on the answers it gives before
 * Next.js sees a request.
 *
 * No page may be framed by another site (`frame-ancestors 'none'`, `X-Frame-Options: DENY`):
 * sellers link or redirect to the hosted pages, never embed them. Scripts run only with the
 * request's nonce (Next.js reads it from the request's own `Content-Security-Policy` header and
 * puts it on its scripts), and what those load (`'strict-dynamic'`).
 */

/** A fresh, unguessable nonce for one page answer. */
export function newCspNonce(): string {
  return crypto.randomBytes(18).toString('base64');
}

/** The policy of an HTML page (and of the files pages link to: PDFs, exports, logos). */
export function pageContentSecurityPolicy(nonce: string): string {
  // `next dev` only: React rebuilds server error stacks with eval, and styles are injected inline.
  const development = config.isNextDevelopment;
  return [
    // Images, fonts, fetches: our own origin only.
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
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
