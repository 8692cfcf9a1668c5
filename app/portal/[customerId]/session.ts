import { cookies } from 'next/headers';
import { getDb } from '@/lib/db/client';
import { config } from '@/lib/config';
import { ApiError } from '@/lib/errors';
import { PORTAL_SESSION_TTL_MS, portalCookieName, portalPath, portalSessionCustomer } from '@/lib/portal/portal';

/** The signed-in portal customer of this path, or undefined. */
export async function currentPortalCustomer(customerId: string) {
  const token = (await cookies()).get(portalCookieName)?.value;
  return portalSessionCustomer(getDb(), customerId, token);
}

/** For server actions: the session must belong to exactly this customer. */
export async function requirePortalCustomer(customerId: string) {
  const found = await currentPortalCustomer(customerId);
  if (!found) throw new ApiError('UNAUTHENTICATED', 'Your portal session has ended. Ask for a new link.');
  return found;
}

export async function setPortalCookie(customerId: string, token: string) {
  (await cookies()).set(portalCookieName, token, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.isProduction,
    path: portalPath(customerId),
    maxAge: PORTAL_SESSION_TTL_MS / 1000,
  });
}

export async function clearPortalCookie(customerId: string) {
  const jar = await cookies();
  const token = jar.get(portalCookieName)?.value;
  jar.set(portalCookieName, '', { httpOnly: true, sameSite: 'lax', secure: config.isProduction, path: portalPath(customerId), maxAge: 0 });
  return token;
}
