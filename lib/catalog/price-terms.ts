import { formatMoney } from '../money/format';
import { formatMinorDecimal } from '../money/format-decimal';

/**
 * A price's terms in the seller consoles' words (English): what a licensed price charges each
 * period in advance, or how a metered price bills its feature's usage in arrears ("$0.05 per
 * api_calls unit", "Graduated: first 1,000 free, then $0.02 per api_calls unit"). Figures are
 * the price's own, formatted exactly (decimal unit amounts keep every digit).
 */
export interface PriceTermsInput {
  type: 'OneTime' | 'Recurring';
  amount: number;
  currency: string;
  interval: string | null;
  intervalCount: number | null;
  usageType?: 'licensed' | 'metered';
  feature?: string | null;
  aggregation?: string | null;
  aggregationProperty?: string | null;
  unitAmountDecimal?: string | null;
  tiers?: readonly { upTo: number | null; unitAmount?: number | null; unitAmountDecimal?: string | null; flatAmount?: number | null }[] | null;
  tiersMode?: 'graduated' | 'volume' | null;
  packageSize?: number | null;
}

const count = (n: number) => n.toLocaleString('en-US');

/** "monthly", "every 3 months", "weekly", "yearly", "daily". */
export function cadence(interval: string | null, intervalCount: number | null): string {
  const n = intervalCount ?? 1;
  if (!interval) return 'once';
  if (n === 1) return interval === 'day' ? 'daily' : `${interval}ly`;
  return `every ${n} ${interval}s`;
}

/** A unit amount given as whole minor units or an exact decimal of them, formatted. */
export function unitMoney(unit: { unitAmount?: number | null; unitAmountDecimal?: string | null }, currency: string): string {
  if (unit.unitAmountDecimal !== undefined && unit.unitAmountDecimal !== null) return formatMinorDecimal(unit.unitAmountDecimal, currency);
  return formatMoney(unit.unitAmount ?? 0, currency);
}

/** "api_calls unit", or "1,000 api_calls units" for a package price. */
function unitNoun(price: PriceTermsInput): string {
  const size = price.packageSize ?? 1;
  return size === 1 ? `${price.feature} unit` : `${count(size)} ${price.feature} units`;
}

function tierRate(tier: NonNullable<PriceTermsInput['tiers']>[number], currency: string): string {
  const unitZero = (tier.unitAmountDecimal === undefined || tier.unitAmountDecimal === null || /^0(\.0+)?$/.test(tier.unitAmountDecimal)) && !tier.unitAmount;
  const flat = tier.flatAmount ? `${formatMoney(tier.flatAmount, currency)} flat` : '';
  if (unitZero) return flat || 'free';
  return flat ? `${unitMoney(tier, currency)} + ${flat}` : unitMoney(tier, currency);
}

/**
 * What a metered price charges per unit: "$0.05 per api_calls unit", "$0.0004 per tokens unit",
 * "$1.00 per 1,000 api_calls units", "Graduated: first 1,000 free, then $0.02 per api_calls unit",
 * "Volume: up to 1,000 at $0.03, up to 5,000 at $0.02, above at $0.01 per api_calls unit".
 */
export function meteredRate(price: PriceTermsInput): string {
  const per = `per ${unitNoun(price)}`;
  const tiers = price.tiers ?? [];
  if (tiers.length === 0) return `${unitMoney({ unitAmount: price.amount, unitAmountDecimal: price.unitAmountDecimal }, price.currency)} ${per}`;
  if (price.tiersMode === 'volume') {
    const parts = tiers.map((tier) => `${tier.upTo === null ? 'above' : `up to ${count(tier.upTo)}`} at ${tierRate(tier, price.currency)}`);
    return `Volume: ${parts.join(', ')} ${per}`;
  }
  let from = 0;
  const parts = tiers.map((tier, index) => {
    const rate = tierRate(tier, price.currency);
    const part =
      index === 0 && tier.upTo !== null
        ? `first ${count(tier.upTo)} ${rate === 'free' ? 'free' : `at ${rate}`}`
        : tier.upTo === null
          ? `then ${rate}`
          : `${count(from + 1)}–${count(tier.upTo)} at ${rate}`;
    from = tier.upTo ?? from;
    return part;
  });
  return `Graduated: ${parts.join(', ')} ${per}`;
}

/** How a metered price's period quantity is made: "sum of api_calls usage", "unique user_id values in seats usage". */
export function aggregationLabel(price: Pick<PriceTermsInput, 'feature' | 'aggregation' | 'aggregationProperty'>): string {
  switch (price.aggregation ?? 'sum') {
    case 'max':
      return `highest ${price.feature} usage in the period`;
    case 'last':
      return `last ${price.feature} usage in the period`;
    case 'unique':
      return `unique ${price.aggregationProperty} values in ${price.feature} usage`;
    default:
      return `sum of ${price.feature} usage`;
  }
}

/**
 * The whole price in one line: "$20.00 per month", "$5.00 one time", or for a metered price
 * "$0.05 per api_calls unit, billed monthly in arrears".
 */
export function priceTerms(price: PriceTermsInput): string {
  if (price.usageType === 'metered') return `${meteredRate(price)}, billed ${cadence(price.interval, price.intervalCount)} in arrears`;
  if (price.type === 'OneTime' || !price.interval) return `${formatMoney(price.amount, price.currency)} one time`;
  const n = price.intervalCount ?? 1;
  return `${formatMoney(price.amount, price.currency)} ${n === 1 ? `per ${price.interval}` : `every ${n} ${price.interval}s`}`;
}
