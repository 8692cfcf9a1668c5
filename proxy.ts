import { NextResponse, type NextRequest } from 'next/server';
import { decodeJwt } from 'jose';
import { AUTH_FAMILY } from './lib/auth/families';
import { now } from './lib/clock';
import { config as appConfig } from './lib/config';
import { newCspNonce, pageContentSecurityPolicy, securityHeaders } from './lib/http/security-headers';
import { accessCookieName, audienceOfPath, clearedSessionCookies, refreshCookieName, sessionCookies, type CookieSpec } from './lib/server/web/session-cookies';
import type { Audience } from './lib/db/schema';
import { PAGE_PATH_HEADER } from './lib/server/web/page-path';
import { customerPageFound } from './lib/server/web/customer-page-found';

/** Refresh a little before expiry, so a page never starts rendering with a token about to lapse. */
const REFRESH_MARGIN_MS = 30_000;
/** Matches no route, so Next.js renders the not-found page for it on the server, with status 404. */
const NOT_FOUND_PATH = '/_paybase/not-found';
/** How long a rotation result is reused for the same refresh token (parallel requests of one page). */
const SHARED_REFRESH_MS = 20_000;

type Pair = { accessToken: string; refreshToken: string };
const inFlight = new Map<string, { at: number; result: Promise<Pair | undefined> }>();

/**
 * Every page (and file a page links to) passes here and gets the security headers
 * (lib/http/security-headers.ts) with a policy of its own nonce, which Next.js reads from the
 * request's `Content-Security-Policy` header and puts on its scripts.
 */
export async function proxy(request: NextRequest) {
  const policy = pageContentSecurityPolicy(newCspNonce());
  request.headers.set('content-security-policy', policy);
  // The root layout's <html lang> follows the page's language (app/document-language.ts); set here, never taken from the client.
  request.headers.set(PAGE_PATH_HEADER, request.nextUrl.pathname);
  const response = await routePage(request);
  for (const [name, value] of Object.entries(securityHeaders(policy))) response.headers.set(name, value);
  return response;
}

/**
 * The dev mailbox's JSON, the not-found page for a customer page whose token names nothing, and
 * the consoles' transparent refresh: when the access-token cookie
 * is missing or about to expire and a refresh cookie is present, rotate the pair through the
 * audience's Refresh API, hand the new access token to this request and set both cookies on the
 * answer. Whether the visitor may see the page is decided by the page itself
 * (requireSession), never here.
 */
async function routePage(request: NextRequest): Promise<NextResponse> {
  const forward = { request: { headers: request.headers } };
  // The dev mailbox answers JSON for scripts and tests (`/dev/mailbox?format=json&to=…`).
  if (request.nextUrl.pathname === '/dev/mailbox' && request.nextUrl.searchParams.get('format') === 'json') {
    const url = request.nextUrl.clone();
    url.pathname = '/dev/mailbox/json';
    return NextResponse.rewrite(url, forward);
  }
  // A customer page whose address names nothing: the not-found page, drawn on the server in the
  // page's language (lib/server/web/customer-page-found.ts says why the page's own notFound() is not enough).
  const reading = request.method === 'GET' || request.method === 'HEAD';
  if (reading && !(await customerPageFound(request.nextUrl.pathname, request.nextUrl.searchParams))) {
    return NextResponse.rewrite(new URL(NOT_FOUND_PATH, request.url), forward);
  }
  const audience = audienceOfPath(request.nextUrl.pathname);
  if (!audience) return NextResponse.next(forward);
  const access = request.cookies.get(accessCookieName(audience))?.value;
  const refresh = request.cookies.get(refreshCookieName(audience))?.value;
  if (!refresh || (access && !expiresSoon(access))) return NextResponse.next(forward);

  const pair = await rotateShared(audience, refresh);
  const cookies = pair ? sessionCookies(audience, pair) : clearedSessionCookies(audience);
  for (const cookie of cookies) request.cookies.set(cookie.name, cookie.value);
  const response = NextResponse.next(forward);
  for (const cookie of cookies) setCookie(response, cookie);
  return response;
}

function expiresSoon(accessToken: string): boolean {
  try {
    const { exp } = decodeJwt(accessToken);
    return !exp || exp * 1000 - REFRESH_MARGIN_MS <= now().getTime();
  } catch {
    return true;
  }
}

/**
 * A page and its parallel requests may all find the same expired token; rotating it twice would
 * look like refresh-token theft and end the session, so they share one rotation.
 */
function rotateShared(audience: Audience, refreshToken: string): Promise<Pair | undefined> {
  const at = Date.now();
  for (const [token, entry] of inFlight) if (at - entry.at > SHARED_REFRESH_MS) inFlight.delete(token);
  const existing = inFlight.get(refreshToken);
  if (existing) return existing.result;
  const result = callRefresh(audience, refreshToken);
  inFlight.set(refreshToken, { at, result });
  return result;
}

async function callRefresh(audience: Audience, refreshToken: string): Promise<Pair | undefined> {
  try {
    const answer = await fetch(`http://127.0.0.1:${appConfig.port}/api/${AUTH_FAMILY[audience]}/Refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
      cache: 'no-store',
    });
    if (!answer.ok) return undefined;
    const body = (await answer.json()) as Pair;
    return { accessToken: body.accessToken, refreshToken: body.refreshToken };
  } catch {
    return undefined;
  }
}

function setCookie(response: NextResponse, { name, value, ...options }: CookieSpec) {
  response.cookies.set(name, value, options);
}

// Everything but the build's static files (hashed names, served as they are) and the API, whose
// answers get their headers from the route wrappers (a proxy pass costs each request a second
// trip through Next.js's request handler).
export const config = {
  matcher: ['/((?!api/|_next/static|_next/image|favicon.ico).*)'],
};
