import { headers } from 'next/headers';
import { chooseLocale, supportedLocale, type Locale } from '../../i18n/locales';

/**
 * The language of the hosted page being rendered (or of its server action): the seller's
 * preferred locale for it when given (a checkout design's default locale), then the request's
 * Accept-Language, then English.
 */
export async function pageLocale(preferred?: string | null): Promise<Locale> {
  return chooseLocale({ preferred, acceptLanguage: (await headers()).get('accept-language') });
}

/** A locale a page handed to its client form, checked again on the server. */
export async function actionLocale(fromPage: unknown): Promise<Locale> {
  return supportedLocale(typeof fromPage === 'string' ? fromPage : undefined) ?? pageLocale();
}
