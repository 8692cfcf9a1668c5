import { headers } from 'next/headers';
import { pageLocale } from '@/lib/i18n/page-locale';
import { PAGE_PATH_HEADER } from '@/lib/web/page-path';
import { linkDesign } from './pay/[token]/design';
import { portalDesign } from './portal/[customerId]/design';
import { invoiceDesign } from './invoice/[token]/design';
import { creditNoteDesign } from './credit-note/[token]/design';

/**
 * The language of the page being rendered, for `<html lang>`: a customer page's own choice (the
 * seller's design language, else the browser's), found by the same cached lookups the page
 * makes; the consoles are English.
 */
export async function documentLanguage(): Promise<string> {
  const [, area, id, more] = ((await headers()).get(PAGE_PATH_HEADER) ?? '').split('/');
  if (area === 'pay' && id) return pageLocale((await linkDesign(id))?.defaultLocale);
  if (area === 'portal' && id) return pageLocale((await portalDesign(id))?.defaultLocale);
  if (area === 'member') return pageLocale(id === 'pay' && more ? (await linkDesign(more))?.defaultLocale : null);
  if (area === 'invoice' && id) return pageLocale((await invoiceDesign(id))?.defaultLocale);
  if (area === 'credit-note' && id) return pageLocale((await creditNoteDesign(id))?.defaultLocale);
  if (area === 'sandbox') return pageLocale();
  return 'en';
}
