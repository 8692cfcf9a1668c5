import { headers } from 'next/headers';
import type { HostedDesign } from '@/lib/designs/hosted-design';
import type { Locale } from '@/lib/i18n/locales';
import { pageLocale } from '@/lib/server/web/page-locale';
import { PAGE_PATH_HEADER } from '@/lib/server/web/page-path';
import { linkDesign } from './pay/[token]/design';
import { portalDesign } from './portal/[customerId]/design';
import { invoiceDesign } from './invoice/[token]/design';
import { creditNoteDesign } from './credit-note/[token]/design';

/** Who a page is for: a customer page's language and seller's design, or an English console page. */
export type PageAudience = { customer: true; locale: Locale; design: HostedDesign | null } | { customer: false; locale: 'en'; design: null };

/**
 * The audience of the page being rendered, from its path: a customer page's own choice of
 * language (the seller's design language, else the browser's) and the seller's design when the
 * address names one, found by the same cached lookups the page makes; the consoles are English.
 * The root layout's `<html lang>` and the not-found page (which may stand in for any page) read it.
 */
export async function pageAudience(): Promise<PageAudience> {
  const [, area, id, more] = ((await headers()).get(PAGE_PATH_HEADER) ?? '').split('/');
  const customer = async (design: HostedDesign | null): Promise<PageAudience> => ({ customer: true, design, locale: await pageLocale(design?.defaultLocale) });
  if (area === 'pay' && id) return customer(await linkDesign(id));
  if (area === 'portal' && id) return customer(await portalDesign(id));
  if (area === 'member') return customer(id === 'pay' && more ? await linkDesign(more) : null);
  if (area === 'invoice' && id) return customer(await invoiceDesign(id));
  if (area === 'credit-note' && id) return customer(await creditNoteDesign(id));
  if (area === 'pay' || area === 'portal' || area === 'invoice' || area === 'credit-note' || area === 'sandbox') return customer(null);
  return { customer: false, locale: 'en', design: null };
}

/** The language of the page being rendered, for `<html lang>`. */
export async function documentLanguage(): Promise<string> {
  return (await pageAudience()).locale;
}
