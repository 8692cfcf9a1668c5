import { describe, expect, it } from 'vitest';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { MESSAGES } from '@/lib/i18n/messages';
import { LOCALES, chooseLocale, emailLocale, negotiateLocale } from '@/lib/i18n/locales';
import { customerText } from '@/lib/i18n/customer-text';
import { subscriptionTerms } from '@/lib/checkout/subscription-terms';

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [k, v] of flatten(value, `${prefix}${key}.`)) out.set(k, v);
  }
  return out;
}

/** The arguments and rich-text tags a message uses, found anywhere in its ICU tree. */
function placeholders(message: string): string[] {
  const found = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.argument || element.type === TYPE.number || element.type === TYPE.date) found.add(element.value);
      if (element.type === TYPE.plural || element.type === TYPE.select) {
        found.add(element.value);
        for (const option of Object.values(element.options)) walk(option.value);
      }
      if (element.type === TYPE.pound) found.add('#');
      if (element.type === TYPE.tag) {
        found.add(`<${element.value}>`);
        walk(element.children);
      }
    }
  };
  walk(parse(message));
  return [...found].sort();
}

const english = flatten(MESSAGES.en as Tree);

describe('translations', () => {
  it.each(LOCALES.filter((locale) => locale !== 'en'))('%s has exactly the English keys, and each message the same placeholders', (locale) => {
    const translated = flatten(MESSAGES[locale] as Tree);
    expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, source] of english) {
      const target = translated.get(key)!;
      // "#" (the plural count) may be spelled out in one language and implied in another.
      const args = (message: string) => placeholders(message).filter((p) => p !== '#');
      expect(args(target), `${locale}: ${key}`).toEqual(args(source));
    }
  });

  it('leaves no English text in the other languages (beyond names, codes and numbers)', () => {
    const sameEverywhere = new Set([
      'common.card',
      'common.cvc',
      'common.discount',
      'checkout.discountFor',
      'checkout.name',
      'checkout.expiryPlaceholder',
      'checkout.total',
      'portal.plan',
      'portal.date',
      'portal.description',
      'portal.statusColumn',
      'usage.grant',
      'wallet.name',
      'wallet.optional',
      'common.email',
      'common.pages',
      'invoice.subtotal',
    ]);
    for (const locale of LOCALES.filter((l) => l !== 'en')) {
      const translated = flatten(MESSAGES[locale] as Tree);
      const untranslated = [...english].filter(([key, source]) => translated.get(key) === source && !sameEverywhere.has(key)).map(([key]) => key);
      expect(untranslated, locale).toEqual([]);
    }
  });
});

describe('locale choice', () => {
  it('negotiates Accept-Language by q-value, then region-less, and falls back to English', () => {
    expect(negotiateLocale('de')).toBe('de');
    expect(negotiateLocale('fr;q=0.8, es')).toBe('es');
    expect(negotiateLocale('de-CH, en;q=0.5')).toBe('de');
    expect(negotiateLocale('pt-BR, ja;q=0.3, fr;q=0.2')).toBe('ja');
    expect(negotiateLocale('pt-BR, zh')).toBeUndefined();
    expect(negotiateLocale('*')).toBeUndefined();
    expect(negotiateLocale('')).toBeUndefined();
    expect(chooseLocale({ acceptLanguage: 'pt, it' })).toBe('en');
  });

  it('prefers the seller’s locale for the page over the browser’s', () => {
    expect(chooseLocale({ preferred: 'ja', acceptLanguage: 'de' })).toBe('ja');
    expect(chooseLocale({ preferred: 'fr-CA', acceptLanguage: 'de' })).toBe('fr');
    expect(chooseLocale({ preferred: 'pt', acceptLanguage: 'de' })).toBe('de');
    expect(chooseLocale({ preferred: null, acceptLanguage: null })).toBe('en');
  });

  it('writes emails in the recorded locale, else the fallback', () => {
    expect(emailLocale('es')).toBe('es');
    expect(emailLocale(null)).toBe('en');
    expect(emailLocale(null, 'ja')).toBe('ja');
    expect(emailLocale('xx', 'fr')).toBe('fr');
  });
});

describe('money and dates per locale', () => {
  it('formats amounts in the currency’s own decimals for each locale', () => {
    const jpy = LOCALES.map((locale) => customerText(locale).money(1500, 'JPY'));
    // Each locale's own grouping and spacing: German a no-break space, French a narrow one.
    expect(jpy).toEqual(['¥1,500', '1.500\u00a0¥', '1\u202f500\u00a0JPY', '1500\u00a0JPY', '￥1,500']);
    expect(customerText('de').money(123456, 'EUR')).toBe('1.234,56\u00a0€');
    expect(customerText('fr').money(1050, 'KWD')).toMatch(/^1,050\s?KWD$/);
    expect(customerText('en').money(-1999, 'USD')).toBe('-$19.99');
  });

  it('words subscription terms in the customer’s language', () => {
    const price = { amount: 1999, currency: 'EUR', interval: 'month', intervalCount: 1, trialDays: 7 } as const;
    const at = new Date('2026-11-23T10:00:00Z');
    expect(subscriptionTerms(price, null, at, customerText('de'))).toMatchObject({
      recurringLabel: '19,99\u00a0€/Monat',
      summary: '7 Tage kostenlos, danach 19,99\u00a0€/Monat ab 30. Nov.',
      buttonLabel: 'Testzeitraum starten',
    });
    const yen = { amount: 1500, currency: 'JPY', interval: 'month', intervalCount: 3, trialDays: 0 } as const;
    expect(subscriptionTerms(yen, null, at, customerText('ja'))).toMatchObject({
      recurringLabel: '3か月ごとに￥1,500',
      dueToday: '￥1,500',
      buttonLabel: '申し込む',
    });
    expect(customerText('ja').date('2026-11-30T00:00:00Z')).toBe('2026/11/30');
    expect(customerText('es').recurring(990, 'EUR', 'year', 1)).toBe('9,90\u00a0€/año');
  });
});
