/**
 * The choices a price is made of, without zod: the console's client-side price form imports these,
 * and zod in a browser bundle probes `new Function` (a CSP violation under the pages' policy).
 */
export const PRICE_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export const USAGE_TYPES = ['licensed', 'metered'] as const;
export const AGGREGATIONS = ['sum', 'max', 'last', 'unique'] as const;
export const TIERS_MODES = ['graduated', 'volume'] as const;
