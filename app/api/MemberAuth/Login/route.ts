import { sessionRoute } from '@/lib/server/http/session-route';
import { memberLoginOperation } from '@/lib/auth/api';
import { requestMemberSignInLink } from '@/lib/auth/magic-links';
import { chooseLocale } from '@/lib/i18n/locales';

/** The email is in the app's Accept-Language when it names a supported language, else English. */
export const POST = sessionRoute(memberLoginOperation, async ({ db, body, client, request }) => ({
  sent: true as const,
  ...(await requestMemberSignInLink(db, { email: body.email, client, locale: chooseLocale({ acceptLanguage: request.headers.get('accept-language') }) })),
}));
