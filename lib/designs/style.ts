import type { HostedDesign } from './hosted-design';

/**
 * Corners per style: `control` for buttons and fields (a pill is fully round), `md` and `lg` for
 * boxes, which stay bounded: a fully round box of text would be an ellipse.
 */
const RADII = {
  square: { control: '0px', md: '0px', lg: '0px' },
  rounded: { control: '0.375rem', md: '0.375rem', lg: '0.5rem' },
  pill: { control: '9999px', md: '0.75rem', lg: '1.25rem' },
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
    '--design-control-radius': radius.control,
    '--design-radius': radius.md,
    '--design-radius-lg': radius.lg,
  };
}
