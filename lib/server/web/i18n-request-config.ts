import { headers } from 'next/headers';
import { getRequestConfig } from 'next-intl/server';
import { MESSAGES } from '../../i18n/messages';
import { negotiateLocale, supportedLocale, DEFAULT_LOCALE } from '../../i18n/locales';

/**
 * next-intl's per-request configuration (wired in next.config.mjs). Hosted pages pass their
 * chosen locale explicitly (lib/server/web/page-locale.ts); anything else falls back to the browser's
 * Accept-Language, then English. Dates are in UTC, like the charges they name.
 */
export default getRequestConfig(async ({ locale }) => {
  const chosen = supportedLocale(locale) ?? negotiateLocale((await headers()).get('accept-language')) ?? DEFAULT_LOCALE;
  return { locale: chosen, messages: MESSAGES[chosen], timeZone: 'UTC' };
});
