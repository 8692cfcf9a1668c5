import { parseMoney } from '@/lib/money/parse';
import { parseUnitPrice } from '@/lib/money/format-decimal';

/**
 * What the product page's new-price form says about a metered price, as the fields of
 * `POST /api/Price` (CreatePriceBody): read the same way by the server action that creates it
 * and by the form's live preview, so the preview prices exactly what will be created. Prices
 * are typed in major units ("0.05", "0.0004"); a field that cannot be read is a problem at the
 * form field's own name.
 */
export const PRICING_MODELS = [
  { value: 'perUnit', label: 'Per unit' },
  { value: 'package', label: 'Package (per started block)' },
  { value: 'graduated', label: 'Graduated tiers' },
  { value: 'volume', label: 'Volume tiers' },
] as const;
export type PricingModel = (typeof PRICING_MODELS)[number]['value'];

export interface MeteredFields {
  feature: string;
  aggregation: string;
  aggregationProperty?: string;
  amount?: number;
  unitAmountDecimal?: string;
  tiers?: { upTo: number | null; unitAmount?: number; unitAmountDecimal?: string; flatAmount?: number }[];
  tiersMode?: 'graduated' | 'volume';
  packageSize?: number;
}

export interface FieldProblem {
  path: string;
  message: string;
}

/** The tier rows the form posts: `tiers.0.upTo`, `tiers.0.unitPrice`, `tiers.0.flatAmount`, … up to `tierCount`. */
export function readMeteredFields(get: (name: string) => string, currency: string): { fields: MeteredFields; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const unitPrice = (path: string): { amount?: number; unitAmountDecimal?: string } => {
    const text = get(path);
    if (!text) return {};
    const parsed = parseUnitPrice(text, currency);
    if (!parsed) problems.push({ path, message: `Enter a price in ${currency}, such as 0.05 or 0.0004.` });
    return parsed ?? {};
  };
  const model = (get('pricingModel') || 'perUnit') as PricingModel;
  const aggregation = get('aggregation') || 'sum';
  const fields: MeteredFields = { feature: get('feature'), aggregation };
  if (aggregation === 'unique') fields.aggregationProperty = get('aggregationProperty');
  if (model === 'perUnit' || model === 'package') Object.assign(fields, unitPrice('unitPrice'));
  if (model === 'package') {
    const size = get('packageSize');
    if (size) fields.packageSize = Number(size);
    else problems.push({ path: 'packageSize', message: 'Enter how many units one package holds.' });
  }
  if (model === 'graduated' || model === 'volume') {
    fields.tiersMode = model;
    const count = Math.min(Number(get('tierCount')) || 0, 50);
    fields.tiers = Array.from({ length: count }, (_, index) => {
      const upTo = get(`tiers.${index}.upTo`);
      const unit = unitPrice(`tiers.${index}.unitPrice`);
      const flatText = get(`tiers.${index}.flatAmount`);
      const flatAmount = flatText ? parseMoney(flatText, currency) : undefined;
      if (flatText && flatAmount === undefined) problems.push({ path: `tiers.${index}.flatAmount`, message: `Enter an amount in ${currency}, such as 5.00.` });
      return {
        upTo: upTo === '' || index === count - 1 ? null : Number(upTo),
        ...(unit.amount !== undefined ? { unitAmount: unit.amount } : {}),
        ...(unit.unitAmountDecimal !== undefined ? { unitAmountDecimal: unit.unitAmountDecimal } : {}),
        ...(flatAmount !== undefined ? { flatAmount } : {}),
      };
    });
  }
  return { fields, problems };
}
