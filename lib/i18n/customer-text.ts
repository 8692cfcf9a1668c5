import { createTranslator } from 'use-intl/core';
import { formatMoney } from '../money/format';
import { MESSAGES } from './messages';
import { DEFAULT_LOCALE, type Locale } from './locales';

/** A discount as the customer reads it: the coupon's terms, its code and when it ends. */
interface DiscountTerms {
  code?: string;
  percentOff: number | null;
  amountOff: number | null;
  currency?: string | null;
  duration: string;
  durationInMonths: number | null;
  end?: string | null;
}

/**
 * Words, money and dates for one customer locale, for the hosted pages and customer emails.
 * Amounts stay integers in minor units until formatMoney renders them with the currency's own
 * decimals; dates are calendar days in UTC, like the charges they name. Made once per locale: the
 * translator keeps each message it has parsed, and parsing them again for every receipt and page
 * cost more than the rest of writing a receipt (bench/RESULTS.md).
 */
export function customerText(locale: Locale = DEFAULT_LOCALE): CustomerText {
  let text = texts.get(locale);
  if (!text) {
    text = textOf(locale);
    texts.set(locale, text);
  }
  return text;
}

const texts = new Map<Locale, CustomerText>();

function textOf(locale: Locale) {
  const t = createTranslator({ locale, messages: MESSAGES[locale] });
  // English dates read day first ("30 Nov 2026"), as Paybase's pages always have; money keeps en-US.
  const dateLocale = locale === 'en' ? 'en-GB' : locale;
  const dateFormat = new Intl.DateTimeFormat(dateLocale, { dateStyle: 'medium', timeZone: 'UTC' });
  const dayFormat = new Intl.DateTimeFormat(dateLocale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const monthFormat = new Intl.DateTimeFormat(dateLocale, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const money = (amount: number, currency: string) => formatMoney(amount, currency, locale === 'en' ? 'en-US' : locale);
  const regionNames = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
  const discountDuration = (coupon: Pick<DiscountTerms, 'duration' | 'durationInMonths'>) =>
    t('common.discountDuration', { duration: coupon.duration, months: coupon.durationInMonths ?? 1 });
  return {
    locale,
    t,
    money,
    /** An ISO 3166-1 country code named in this language: "DE" → "Germany", "Deutschland", "ドイツ". */
    country: (code: string) => {
      try {
        return regionNames.of(code) ?? code;
      } catch {
        return code;
      }
    },
    /** "30 Nov 2026", "30.11.2026", "2026/11/30". */
    date: (at: Date | string) => dateFormat.format(new Date(at)),
    /** "30 Nov", "30. Nov.", "11月30日". */
    day: (at: Date | string) => dayFormat.format(new Date(at)),
    /** A card's expiry month (1–12): "December 2034", "Dezember 2034", "2034年12月". */
    month: (year: number, month: number) => monthFormat.format(new Date(Date.UTC(year, month - 1, 1))),
    /** "$19.99/month", "19,99 $/Monat", "$19.99 every 3 months". */
    recurring: (amount: number, currency: string, interval: string | null, intervalCount: number | null) =>
      t('common.recurring', { amount: money(amount, currency), interval: interval ?? 'month', count: intervalCount ?? 1 }),
    discountDuration,
    /** "SAVE10: 10% off for 3 months (full price from 1 Feb 2027)". */
    discount(discount: DiscountTerms, currency: string) {
      const off =
        discount.percentOff !== null
          ? t('common.percentOff', { percent: discount.percentOff })
          : t('common.amountOff', { amount: money(discount.amountOff ?? 0, discount.currency ?? currency) });
      const values = { code: discount.code ?? '', off, duration: discountDuration(discount) };
      return discount.end && discount.duration !== 'forever'
        ? t('common.discountUntil', { ...values, date: dateFormat.format(new Date(discount.end)) })
        : t('common.discount', values);
    },
    card: (brand: string, last4: string) =>
      t('common.card', { brand: ({ visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express' } as Record<string, string>)[brand] ?? brand, last4 }),
    /** The words of a list's page links (components/ui/pagination.tsx). */
    paginationWords: () => ({
      position: (page: number, pages: number, total: number) => t('common.pagePosition', { page, pages, total }),
      previous: t('common.previous'),
      next: t('common.next'),
    }),
    /** The link words of a seller's design around hosted pages and emails (lib/designs). */
    designWords: () => ({ help: t('design.help'), terms: t('design.terms'), privacy: t('design.privacy') }),
    /** The generic answers of a customer page's form (lib/server/web/form-state.ts). */
    formWords: () => ({ correctFields: t('common.correctFields'), failed: t('common.failed') }),
    /** A processor's decline in the customer's words, by its decline code. */
    declineReason(code: string | null | undefined): string {
      if (code === 'insufficient_funds') return t('checkout.errors.insufficientFunds');
      if (code === 'expired_card') return t('checkout.errors.expiredCard');
      if (code === 'incorrect_cvc') return t('checkout.errors.incorrectCvc');
      if (isAuthenticationDecline(code)) return t('checkout.errors.authentication');
      return t('checkout.errors.declined');
    },
  };
}

export type CustomerText = ReturnType<typeof textOf>;

/**
 * A decline because the card's authentication (3-D Secure) was not completed: the sandbox's and
 * Stripe's `authentication_*`, and Stripe's `payment_intent_authentication_failure` and
 * `setup_intent_authentication_failure` (the customer failed or left the challenge).
 */
export function isAuthenticationDecline(code: string | null | undefined): boolean {
  return Boolean(code?.startsWith('authentication_') || code === 'payment_intent_authentication_failure' || code === 'setup_intent_authentication_failure');
}
