import Negotiator from 'negotiator';

/**
 * The languages of the customer-facing pages and emails (hosted checkout, portal, wallet).
 * English is the source and the fallback; the sellers' and admin consoles stay English.
 */
export const LOCALES = ['en', 'de', 'fr', 'es', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** The supported locale a tag names, by its language subtag ("de-AT" → "de"), or undefined. */
export function supportedLocale(tag: string | null | undefined): Locale | undefined {
  const language = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return LOCALES.find((locale) => locale === language);
}

/**
 * The best supported locale for an `Accept-Language` header by its q-values (RFC 9110 §12.5.4):
 * "fr;q=0.8, es" → es; "de-CH" → de; "*" or nothing supported → undefined.
 */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale | undefined {
  if (!acceptLanguage?.trim()) return undefined;
  const preferred = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).languages();
  for (const tag of preferred) {
    if (tag === '*') return undefined;
    const locale = supportedLocale(tag);
    if (locale) return locale;
  }
  return undefined;
}

/**
 * The one rule choosing a hosted page's language: the seller's preferred locale for the page
 * (a checkout design's default locale), then the browser's `Accept-Language`, then English.
 */
export function chooseLocale(input: { preferred?: string | null; acceptLanguage?: string | null }): Locale {
  return supportedLocale(input.preferred) ?? negotiateLocale(input.acceptLanguage) ?? DEFAULT_LOCALE;
}

/** For emails: the locale recorded for the customer (e.g. at their checkout), else the fallback. */
export function emailLocale(recorded: string | null | undefined, fallback: Locale = DEFAULT_LOCALE): Locale {
  return supportedLocale(recorded) ?? fallback;
}
