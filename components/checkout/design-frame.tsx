import type { ReactNode } from 'react';
import type { HostedDesign } from '@/lib/designs/hosted-design';
import { designCssVariables } from '@/lib/designs/style';
import { customerText } from '@/lib/i18n/customer-text';
import type { Locale } from '@/lib/i18n/locales';

/**
 * A seller's design around a hosted page: the custom properties that recolour the page (see
 * app/globals.css), a header with the logo and display name, and a footer with the support
 * and legal links. Without a design the page is left exactly as it is.
 */
export function DesignFrame({ design, locale, children }: { design: HostedDesign | null; locale: Locale; children: ReactNode }) {
  if (!design) return <>{children}</>;
  return (
    <div className="checkout-design min-h-screen" style={designCssVariables(design)} data-testid="checkout-design">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-4xl items-center gap-3 px-6 py-3">
          {design.logoPath ? (
            // biome-ignore lint/performance/noImgElement: logos are served as stored, content-addressed and cached immutable (docs/designs.md); no image optimiser runs.
            <img src={design.logoPath} alt="" className="h-9 w-auto max-w-40 object-contain" data-testid="design-logo" />
          ) : null}
          <span className="text-lg font-semibold text-slate-900" data-testid="design-name">
            {design.displayName}
          </span>
        </div>
      </header>
      {children}
      <DesignFooter design={design} locale={locale} />
    </div>
  );
}

function DesignFooter({ design, locale }: { design: HostedDesign; locale: Locale }) {
  const { t, designWords } = customerText(locale);
  const words = designWords();
  const links = [
    design.supportEmail ? { href: `mailto:${design.supportEmail}`, label: design.supportEmail } : null,
    design.supportUrl ? { href: design.supportUrl, label: words.help } : null,
    design.termsUrl ? { href: design.termsUrl, label: words.terms } : null,
    design.privacyUrl ? { href: design.privacyUrl, label: words.privacy } : null,
  ].filter((link) => link !== null);
  if (links.length === 0) return null;
  return (
    <footer lang={locale} className="mx-auto max-w-4xl px-6 pb-10">
      <ul className="flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm" aria-label={t('design.contactAndPolicies', { seller: design.displayName })}>
        {links.map((link) => (
          <li key={link.href}>
            <a href={link.href} className="font-medium text-brand-700 underline-offset-2 hover:underline" rel="noopener">
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </footer>
  );
}
