import type { Audience } from '../db/schema';

/** The sign-in API family (path prefix) of each audience: /api/AdminAuth/Login and so on. */
export const AUTH_FAMILY: Record<Audience, string> = { admin: 'AdminAuth', merchant: 'MerchantAuth', member: 'MemberAuth' };
