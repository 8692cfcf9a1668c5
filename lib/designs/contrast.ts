/**
 * WCAG 2.x contrast: relative luminance of sRGB colours and the ratio (L1 + 0.05) / (L2 + 0.05).
 * https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio
 */

/** WCAG 2 AA for normal-size text (success criterion 1.4.3). */
export const AA_TEXT = 4.5;

/**
 * Where a link sits on the hosted pages: the page (Tailwind slate-50), white cards, and the
 * theme's light info tint (brand-50, which a design leaves as it is). A colour must read on all.
 */
export const PAGE_BACKGROUNDS = ['#f8fafc', '#ffffff', '#eef4ff'] as const;

function channel(hex: string, offset: number): number {
  const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

/** `#rrggbb` only (the API normalises colours to that form). */
export function relativeLuminance(hex: string): number {
  return 0.2126 * channel(hex, 1) + 0.7152 * channel(hex, 3) + 0.0722 * channel(hex, 5);
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}

/** Rounded down to two decimals, so a ratio shown as passing always passes (4.499 shows as 4.49). */
export function formatRatio(ratio: number): string {
  return `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;
}

/** The lowest contrast of `colour` against any of the hosted pages' backgrounds. */
export function contrastOnPage(colour: string): number {
  return Math.min(...PAGE_BACKGROUNDS.map((background) => contrastRatio(colour, background)));
}
