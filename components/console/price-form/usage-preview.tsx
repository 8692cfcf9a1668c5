'use client';

import { useId, useState } from 'react';
import { formatMoney } from '@/lib/money/format';
import { formatMinorDecimal } from '@/lib/money/format-decimal';
import { priceUsage, type MeteredPricing, type UsageCharge } from '@/lib/usage/pricing';
import type { FieldProblem, MeteredFields } from './metered-input';
import { TierBreakdown } from '@/components/console/tier-breakdown';

/** The pricing the form describes, or why it cannot be priced yet. */
function pricingOf(fields: MeteredFields, problems: FieldProblem[]): MeteredPricing | string {
  if (problems.length > 0) return problems[0]!.message;
  if (fields.packageSize !== undefined && !(Number.isSafeInteger(fields.packageSize) && fields.packageSize > 0))
    return 'Enter a whole number of units per package.';
  if (fields.tiers) {
    let previous = 0;
    for (const [index, tier] of fields.tiers.entries()) {
      if (tier.upTo !== null && !(Number.isSafeInteger(tier.upTo) && tier.upTo > previous))
        return `Tier ${index + 1}: “Up to” must be a whole number above ${previous}.`;
      previous = tier.upTo ?? previous;
      if (tier.unitAmount === undefined && tier.unitAmountDecimal === undefined && tier.flatAmount === undefined)
        return `Tier ${index + 1}: enter a unit price or a flat fee.`;
    }
    return { tiers: fields.tiers, tiersMode: fields.tiersMode };
  }
  if (fields.amount === undefined && fields.unitAmountDecimal === undefined) return 'Enter a price to see what usage costs.';
  return { amount: fields.amount, unitAmountDecimal: fields.unitAmountDecimal, packageSize: fields.packageSize };
}

/**
 * What N units of usage would cost under the price being typed: `priceUsage` (lib/usage/pricing.ts),
 * the exact arithmetic billing records use, with each tier's share and the line's one rounding.
 */
export function UsagePreview({
  read,
  currency,
  feature,
}: {
  read: { fields: MeteredFields; problems: FieldProblem[] } | null;
  currency: string | null;
  feature: string;
}) {
  const id = useId();
  const [quantityText, setQuantityText] = useState('1234');
  const quantity = Number(quantityText.replaceAll(',', ''));
  const validQuantity = quantityText.trim() !== '' && Number.isSafeInteger(quantity) && quantity >= 0;
  const pricing = read && currency ? pricingOf(read.fields, read.problems) : 'Enter a currency to see what usage costs.';
  let charge: UsageCharge | null = null;
  let why = typeof pricing === 'string' ? pricing : validQuantity ? null : 'Enter a whole number of units.';
  if (!why && typeof pricing !== 'string') {
    try {
      charge = priceUsage(pricing, quantity);
    } catch {
      why = 'That quantity is too large to price.';
    }
  }
  return (
    <section aria-labelledby={`${id}-heading`} className="rounded-md bg-slate-50 p-3" data-testid="usage-preview">
      <h3 id={`${id}-heading`} className="text-sm font-medium text-slate-800">
        Preview
      </h3>
      <label htmlFor={`${id}-quantity`} className="mt-2 block text-xs text-slate-700">
        Units of usage in a period
      </label>
      <input
        id={`${id}-quantity`}
        inputMode="numeric"
        value={quantityText}
        onChange={(event) => setQuantityText(event.target.value)}
        className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
      />
      <div aria-live="polite" className="mt-2 text-sm">
        {charge && currency ? (
          <>
            <p data-testid="usage-preview-total">
              {charge.quantity.toLocaleString('en-US')} {feature} units cost <strong className="tabular-nums">{formatMoney(charge.amount, currency)}</strong>
            </p>
            {charge.billedUnits !== charge.quantity ? (
              <p className="text-xs text-slate-600">{charge.billedUnits.toLocaleString('en-US')} started packages are billed.</p>
            ) : null}
            {charge.tiers.length > 0 ? <TierBreakdown tiers={charge.tiers} currency={currency} caption="Preview by tier" /> : null}
            {formatMinorDecimal(charge.amountDecimal, currency) !== formatMoney(charge.amount, currency) ? (
              <p className="mt-1 text-xs text-slate-600">
                Exactly {formatMinorDecimal(charge.amountDecimal, currency)}, rounded once, half up, to the minor unit.
              </p>
            ) : null}
          </>
        ) : (
          <p className="text-slate-600">{why}</p>
        )}
      </div>
    </section>
  );
}
