import type { HostedDesign } from './hosted-design';

const RADII = {
  square: { md: '0px', lg: '0px' },
  rounded: { md: '0.375rem', lg: '0.5rem' },
  pill: { md: '9999px', lg: '1.25rem' },
} as const;

type DesignColours = Pick<HostedDesign, 'brandColor' | 'buttonTextColor' | 'accentColor' | 'cornerStyle'>;

/**
 * The CSS custom properties a `.checkout-design` wrapper sets (app/globals.css maps them onto
 * the theme's brand colours and radii), so the hosted pages' markup stays as it is.
 */
export function designCssVariables(design: DesignColours): Record<string, string> {
  const radius = RADII[design.cornerStyle];
  return {
    '--design-brand': design.brandColor,
    '--design-button-text': design.buttonTextColor,
    '--design-accent': design.accentColor,
    '--design-radius': radius.md,
    '--design-radius-lg': radius.lg,
  };
}
