import { formatMoney } from '@/lib/money/format';
import { formatConsoleDate } from '@/lib/server/web/console-time';
import type { UpcomingInvoice } from '@/lib/subscriptions/upcoming-invoice';
import { Card } from '@/components/ui/layout';
import { BillingLines, type BillingLine } from './billing-lines';

/** A billing record's lines, folded under its description (open by default when it bills usage). */
export function RecordLines({ lines, currency, timeZone }: { lines: readonly BillingLine[]; currency: string; timeZone: string }) {
  if (lines.length === 0) return null;
  const usage = lines.some((line) => line.kind === 'usage');
  return (
    <details className="mt-1" open={usage}>
      <summary className="cursor-pointer text-xs text-brand-700">
        {lines.length} line{lines.length === 1 ? '' : 's'}
        {usage ? ' · usage' : ''}
      </summary>
      <div className="mt-1 min-w-72">
        <BillingLines lines={lines} currency={currency} timeZone={timeZone} caption="Lines of the billing record" />
      </div>
    </details>
  );
}

/** What the next renewal would bill if the period ended now; nothing when the subscription will not renew. */
export function UpcomingInvoiceSummary({ upcoming, timeZone }: { upcoming: UpcomingInvoice; timeZone: string }) {
  const money = (amount: number) => formatMoney(amount, upcoming.currency);
  return (
    <div data-testid="upcoming-invoice" data-subscription={upcoming.subscriptionId}>
      <p className="mb-2 text-sm text-slate-600">
        Billed on {formatConsoleDate(upcoming.at, timeZone)}: the next period in advance and this period’s usage so far (it grows as usage is recorded).
      </p>
      <BillingLines lines={upcoming.lineItems} currency={upcoming.currency} timeZone={timeZone} caption="Lines of the upcoming invoice" />
      <dl className="ml-auto mt-2 max-w-xs space-y-1 text-sm">
        {(
          [
            ['Subtotal', upcoming.subtotal],
            ...(upcoming.discountAmount > 0 ? [['Discount', -upcoming.discountAmount] as const] : []),
            ...(upcoming.creditsApplied > 0 ? [['Credits applied', -upcoming.creditsApplied] as const] : []),
          ] as const
        ).map(([label, amount]) => (
          <div key={label} className="flex justify-between text-slate-600">
            <dt>{label}</dt>
            <dd className="tabular-nums">{money(amount)}</dd>
          </div>
        ))}
        <div className="flex justify-between font-semibold text-slate-900">
          <dt>Total so far</dt>
          <dd className="tabular-nums" data-testid="upcoming-total">
            {money(upcoming.total)}
          </dd>
        </div>
      </dl>
    </div>
  );
}

export function UpcomingInvoiceCard({ upcoming, timeZone }: { upcoming: UpcomingInvoice | null; timeZone: string }) {
  if (!upcoming) return null;
  return (
    <Card title="Upcoming invoice" className="lg:col-span-2">
      <UpcomingInvoiceSummary upcoming={upcoming} timeZone={timeZone} />
    </Card>
  );
}
