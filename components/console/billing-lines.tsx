import { formatMoney } from '@/lib/money/format';
import { formatMinorDecimal } from '@/lib/money/format-decimal';
import { formatConsoleDate } from '@/lib/server/web/console-time';
import { TierBreakdown, type TierShare } from './tier-breakdown';

/** A billing record's line as stored (lib/billing/schemas.ts, BillingLineItemResponse). */
export interface BillingLine {
  kind: string;
  description: string;
  quantity: number;
  unitAmount: number;
  amount: number;
  feature?: string;
  periodStart?: string;
  periodEnd?: string;
  unitAmountDecimal?: string;
  tiers?: TierShare[];
}

/** A usage line priced per unit (whole or decimal): a tiered or package line has no single unit price. */
const unitPriced = (line: BillingLine) => !line.tiers?.length && (line.unitAmountDecimal !== undefined || line.unitAmount > 0);

/**
 * A billing record's (or an upcoming invoice's) lines in the seller console: each line's
 * description and amount; a usage line with its feature, quantity, the period whose usage it
 * bills and how it was priced (unit price, exact decimal unit price or each tier's share); a
 * credit line that pays usage with the feature it pays.
 */
export function BillingLines({ lines, currency, timeZone, caption }: { lines: readonly BillingLine[]; currency: string; timeZone: string; caption: string }) {
  const period = (line: BillingLine) =>
    line.periodStart && line.periodEnd ? `${formatConsoleDate(line.periodStart, timeZone)} – ${formatConsoleDate(line.periodEnd, timeZone)}` : null;
  return (
    <table className="w-full text-sm" data-testid="billing-lines">
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr className="border-b border-slate-200 text-left text-xs text-slate-600">
          <th scope="col" className="py-1 pr-3 font-medium">
            Line
          </th>
          <th scope="col" className="py-1 pr-3 text-right font-medium">
            Qty
          </th>
          <th scope="col" className="py-1 text-right font-medium">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {lines.map((line, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a record's lines are a fixed document in its own order; two lines may read the same.
          <tr key={index} className="border-b border-slate-100 align-top" data-line-kind={line.kind} data-feature={line.feature}>
            <td className="py-1.5 pr-3">
              <span className="block">{line.description}</span>
              {line.kind === 'usage' ? (
                <span className="block text-xs text-slate-600">
                  {period(line) ? `usage ${period(line)}` : `${line.feature} usage`}
                  {unitPriced(line)
                    ? ` · ${line.quantity.toLocaleString('en-US')} × ${
                        line.unitAmountDecimal !== undefined ? formatMinorDecimal(line.unitAmountDecimal, currency) : formatMoney(line.unitAmount, currency)
                      }`
                    : null}
                </span>
              ) : null}
              {line.kind === 'credit' && line.feature ? (
                <span className="block text-xs text-slate-600">
                  usage credits for {line.feature}
                  {period(line) ? `, ${period(line)}` : ''}
                </span>
              ) : null}
              {line.kind === 'usage' && line.tiers && line.tiers.length > 0 ? (
                <TierBreakdown tiers={line.tiers} currency={currency} caption={`${line.feature} usage by tier`} />
              ) : null}
            </td>
            <td className="py-1.5 pr-3 text-right tabular-nums">{line.quantity.toLocaleString('en-US')}</td>
            <td className="py-1.5 text-right tabular-nums">{formatMoney(line.amount, currency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
