import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import type { Audience } from '../../db/schema';
import { getDb } from '../../db/client';
import { ApiError } from '../../errors';
import { clientInfo } from '../../http/client-ip';
import { authenticateAccessToken, signOut, type SessionPrincipal, type TokenPair } from '../../auth/sessions';
import type { ClientInfo } from '../../http/client-ip';
import { CONSOLE_PATH, accessCookieName, clearedSessionCookies, refreshCookieName, sessionCookies } from './session-cookies';

export const signInPath = (audience: Audience) => `${CONSOLE_PATH[audience]}/sign-in`;

/**
 * The console's signed-in holder, checked like any API call (signature, expiry, audience, open
 * session, active account). The proxy has already refreshed an expired access token; anything
 * still wrong sends the visitor to the sign-in page.
 */
export async function requireSession(audience: Audience, options: { returnTo?: string } = {}): Promise<SessionPrincipal> {
  // `returnTo` is a path of this site the sign-in page may come back to (it checks it again).
  const signIn = options.returnTo ? `${signInPath(audience)}?next=${encodeURIComponent(options.returnTo)}` : signInPath(audience);
  const token = (await cookies()).get(accessCookieName(audience))?.value;
  if (!token) redirect(signIn);
  try {
    return await authenticateAccessToken(getDb(), { token, accepted: [audience] });
  } catch (error) {
    if (error instanceof ApiError) redirect(signIn);
    throw error;
  }
}

/** Stores a fresh token pair (server actions only: pages cannot set cookies). */
export async function storeSession(audience: Audience, pair: TokenPair): Promise<void> {
  const jar = await cookies();
  for (const { name, value, ...options } of sessionCookies(audience, pair)) jar.set(name, value, options);
}

/** Ends the sign-in server-side (the refresh-token family) and forgets the cookies. */
export async function endConsoleSession(audience: Audience): Promise<void> {
  const jar = await cookies();
  const refreshToken = jar.get(refreshCookieName(audience))?.value;
  const accessToken = jar.get(accessCookieName(audience))?.value;
  try {
    if (refreshToken || accessToken) await signOut(getDb(), { audience, refreshToken, accessToken });
  } catch (error) {
    // Already ended or expired: signing out locally is all that is left to do.
    if (!(error instanceof ApiError)) throw error;
  }
  for (const { name, value, ...options } of clearedSessionCookies(audience)) jar.set(name, value, options);
}

export async function requestClient(): Promise<ClientInfo> {
  return clientInfo(await headers());
}
