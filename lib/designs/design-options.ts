/**
 * The choices a checkout design offers, without zod: the console's design editor (a client
 * component) imports them, and zod in a browser bundle probes `new Function` at start, which the
 * pages' Content-Security-Policy reports as a violation (lib/http/security-headers.ts).
 */
export const CORNER_STYLES = ['rounded', 'square', 'pill'] as const;
export const BUTTON_LABELS = ['Pay', 'Subscribe', 'Donate', 'Book'] as const;
export const DESIGN_LOCALES = ['en', 'de', 'fr', 'es', 'ja'] as const;
