import type { Audience } from '../../db/schema';
import { config } from '../../config';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from '../../auth/lifetimes';

/**
 * How the consoles keep a token pair: two httpOnly, SameSite=Lax cookies per audience, scoped
 * to that console's path (an admin cookie is never sent to /merchant), Secure in production.
 * Shared by server actions (next/headers) and the proxy (NextResponse), so both set the same.
 */
export const CONSOLE_PATH: Record<Audience, string> = { admin: '/admin', merchant: '/merchant', member: '/member' };

export const accessCookieName = (audience: Audience) => `pb_${audience}_at`;
export const refreshCookieName = (audience: Audience) => `pb_${audience}_rt`;

export interface CookieSpec {
  name: string;
  value: string;
  httpOnly: true;
  sameSite: 'lax';
  secure: boolean;
  path: string;
  maxAge: number;
}

export function sessionCookies(audience: Audience, pair: { accessToken: string; refreshToken: string }): CookieSpec[] {
  const base = { httpOnly: true as const, sameSite: 'lax' as const, secure: config.isProduction, path: CONSOLE_PATH[audience] };
  return [
    { ...base, name: accessCookieName(audience), value: pair.accessToken, maxAge: ACCESS_TOKEN_TTL_SECONDS },
    { ...base, name: refreshCookieName(audience), value: pair.refreshToken, maxAge: REFRESH_TOKEN_TTL_SECONDS },
  ];
}

export function clearedSessionCookies(audience: Audience): CookieSpec[] {
  return sessionCookies(audience, { accessToken: '', refreshToken: '' }).map((cookie) => ({ ...cookie, maxAge: 0 }));
}

export function audienceOfPath(pathname: string): Audience | undefined {
  return (Object.entries(CONSOLE_PATH) as [Audience, string][]).find(([, prefix]) => pathname === prefix || pathname.startsWith(`${prefix}/`))?.[0];
}
