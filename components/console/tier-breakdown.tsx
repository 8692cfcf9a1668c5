import { formatMoney } from '@/lib/money/format';
import { formatMinorDecimal } from '@/lib/money/format-decimal';

export interface TierShare {
  tier: number;
  upTo: number | null;
  quantity: number;
  unitAmountDecimal: string;
  flatAmount: number;
  amountDecimal: string;
}

/** Each tier a quantity reached: its units, unit price, flat fee and exact amount (a usage line's or the preview's). */
export function TierBreakdown({ tiers, currency, caption }: { tiers: readonly TierShare[]; currency: string; caption: string }) {
  return (
    <table className="mt-2 w-full text-xs" data-testid="tier-breakdown">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="text-left text-slate-600">
          <th scope="col" className="py-1 pr-2 font-medium">
            Tier
          </th>
          <th scope="col" className="py-1 pr-2 text-right font-medium">
            Units
          </th>
          <th scope="col" className="py-1 pr-2 text-right font-medium">
            Unit price
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {tiers.map((tier) => (
          <tr key={tier.tier} className="border-t border-slate-200">
            <td className="py-1 pr-2">
              {tier.tier} <span className="text-slate-600">({tier.upTo === null ? 'and above' : `up to ${tier.upTo.toLocaleString('en-US')}`})</span>
            </td>
            <td className="py-1 pr-2 text-right tabular-nums">{tier.quantity.toLocaleString('en-US')}</td>
            <td className="py-1 pr-2 text-right tabular-nums">
              {formatMinorDecimal(tier.unitAmountDecimal, currency)}
              {tier.flatAmount ? ` + ${formatMoney(tier.flatAmount, currency)}` : ''}
            </td>
            <td className="py-1 text-right tabular-nums">{formatMinorDecimal(tier.amountDecimal, currency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
