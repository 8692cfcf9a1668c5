import { NextResponse, type NextRequest } from 'next/server';
import { decodeJwt } from 'jose';
import { AUTH_FAMILY } from './lib/auth/families';
import { now } from './lib/clock';
import { config as appConfig } from './lib/config';
import { accessCookieName, audienceOfPath, clearedSessionCookies, refreshCookieName, sessionCookies, type CookieSpec } from './lib/web/session-cookies';
import type { Audience } from './lib/db/schema';

/** Refresh a little before expiry, so a page never starts rendering with a token about to lapse. */
const REFRESH_MARGIN_MS = 30_000;
/** How long a rotation result is reused for the same refresh token (parallel requests of one page). */
const SHARED_REFRESH_MS = 20_000;

type Pair = { accessToken: string; refreshToken: string };
const inFlight = new Map<string, { at: number; result: Promise<Pair | undefined> }>();

/**
 * Transparent refresh for the consoles: when the access-token cookie is missing or about to
 * expire and a refresh cookie is present, rotate the pair through the audience's Refresh API,
 * hand the new access token to this request and set both cookies on the answer. Whether the
 * visitor may see the page is decided by the page itself (requireSession), never here.
 */
export async function proxy(request: NextRequest) {
  // The dev mailbox answers JSON for scripts and tests (`/dev/mailbox?format=json&to=…`).
  if (request.nextUrl.pathname === '/dev/mailbox') {
    if (request.nextUrl.searchParams.get('format') !== 'json') return NextResponse.next();
    const url = request.nextUrl.clone();
    url.pathname = '/dev/mailbox/json';
    return NextResponse.rewrite(url);
  }
  const audience = audienceOfPath(request.nextUrl.pathname);
  if (!audience) return NextResponse.next();
  const access = request.cookies.get(accessCookieName(audience))?.value;
  const refresh = request.cookies.get(refreshCookieName(audience))?.value;
  if (!refresh || (access && !expiresSoon(access))) return NextResponse.next();

  const pair = await rotateShared(audience, refresh);
  const cookies = pair ? sessionCookies(audience, pair) : clearedSessionCookies(audience);
  for (const cookie of cookies) request.cookies.set(cookie.name, cookie.value);
  const response = NextResponse.next({ request: { headers: request.headers } });
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

export const config = {
  matcher: ['/admin/:path*', '/merchant/:path*', '/member/:path*', '/dev/mailbox'],
};
