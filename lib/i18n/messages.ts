import en from '@/messages/en.json';
import de from '@/messages/de.json';
import fr from '@/messages/fr.json';
import es from '@/messages/es.json';
import ja from '@/messages/ja.json';
import type { Locale } from './locales';

/** English is the source of the keys; a unit test holds every other locale to exactly its keys and placeholders. */
export type Messages = typeof en;

export const MESSAGES: Record<Locale, Messages> = { en, de, fr, es, ja };

/**
 * The messages a client component needs, by top-level namespace. Refusals (`errors`) are worded
 * on the server, so they stay there: the page's HTML carries only the words its forms show.
 */
export function clientMessages(locale: Locale, ...namespaces: (keyof Messages)[]): Partial<Messages> {
  return Object.fromEntries(
    namespaces.map((namespace) => {
      const { errors: _serverOnly, ...shown } = MESSAGES[locale][namespace] as Record<string, unknown>;
      return [namespace, shown];
    }),
  ) as Partial<Messages>;
}
