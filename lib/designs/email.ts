import { config } from '../config';
import { escapeHtml } from './escape-html';
import type { HostedDesign } from './hosted-design';

/** The design's link words in the reader's language (customerText().designWords()). */
export interface DesignWords {
  help: string;
  terms: string;
  privacy: string;
}

const RADIUS = { square: '0', rounded: '6px', pill: '9999px' } as const;

/** A link drawn as the design's button (inline styles: mail clients drop stylesheets). */
export function emailButton(design: HostedDesign | null, href: string, label: string): string {
  if (!design) return `<p><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></p>`;
  const style = `display:inline-block;padding:10px 18px;background:${design.brandColor};color:${design.buttonTextColor};border-radius:${RADIUS[design.cornerStyle]};font-weight:600;text-decoration:none`;
  return `<p><a href="${escapeHtml(href)}" style="${style}">${escapeHtml(label)}</a></p>`;
}

/**
 * A customer email in the seller's design: logo and display name on top, the support and legal
 * links below. Without a design the body is sent as it is.
 */
export function designedEmailHtml(design: HostedDesign | null, bodyHtml: string, words: DesignWords): string {
  if (!design) return bodyHtml;
  const logo = design.logoPath
    ? `<img src="${escapeHtml(config.publicUrl + design.logoPath)}" alt="" height="36" style="height:36px;vertical-align:middle;margin-right:10px">`
    : '';
  const link = (href: string, label: string) => `<a href="${escapeHtml(href)}" style="color:${design.accentColor}">${escapeHtml(label)}</a>`;
  const footer = [
    design.supportEmail ? link(`mailto:${design.supportEmail}`, design.supportEmail) : null,
    design.supportUrl ? link(design.supportUrl, words.help) : null,
    design.termsUrl ? link(design.termsUrl, words.terms) : null,
    design.privacyUrl ? link(design.privacyUrl, words.privacy) : null,
  ].filter((item) => item !== null);
  return [
    `<div style="font-family:system-ui,sans-serif;max-width:560px;margin:0 auto;color:#0f172a">`,
    `<div style="padding:12px 0;border-bottom:3px solid ${design.brandColor};margin-bottom:16px">${logo}<strong style="font-size:18px;vertical-align:middle">${escapeHtml(design.displayName)}</strong></div>`,
    bodyHtml,
    footer.length ? `<p style="margin-top:24px;font-size:13px;color:#475569">${footer.join(' · ')}</p>` : '',
    `</div>`,
  ].join('');
}
