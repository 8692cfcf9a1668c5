import type { CustomerText } from '@/lib/i18n/customer-text';
import type { portalOverview } from '@/lib/portal/overview';
import { InvoiceLinks } from '@/components/billing/invoice-links';
import { Badge, EmptyState } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';

type BillingRecord = Awaited<ReturnType<typeof portalOverview>>['history'][number];

/**
 * The portal's billing history: a list on a phone (the five columns would scroll sideways), the
 * table from 640 px. Both show the same parts of each record, made once below.
 */
export function BillingHistory({ records, text }: { records: BillingRecord[]; text: CustomerText }) {
  const { t, date } = text;
  if (records.length === 0) return <EmptyState title={t('portal.noCharges')} />;
  const status = (r: BillingRecord) => <Badge tone={r.status === 'paid' ? 'green' : 'gray'}>{t('portal.recordStatus', { status: r.status })}</Badge>;
  const discount = (r: BillingRecord, align = 'text-left') =>
    r.discount ? <span className={`block text-xs text-slate-600 ${align}`}>{t('portal.afterDiscount', { discount: r.discount })}</span> : null;
  const links = (r: BillingRecord) => <InvoiceLinks page={r.invoicePath} pdf={r.invoicePdfPath} viewLabel={t('portal.viewInvoice')} />;
  return (
    <>
      <ul aria-label={t('portal.history')} className="divide-y divide-slate-100 rounded-lg border border-slate-200 sm:hidden">
        {records.map((r) => (
          <li key={r.id} className="space-y-1 px-4 py-3 text-sm">
            <p className="flex items-baseline justify-between gap-3">
              <span>{r.description}</span>
              <span className="whitespace-nowrap font-medium tabular-nums">{r.amount}</span>
            </p>
            {discount(r, 'text-right')}
            <p className="flex items-center justify-between gap-3 text-slate-600">
              <span>{date(r.date)}</span>
              {status(r)}
            </p>
            {links(r)}
          </li>
        ))}
      </ul>
      <div className="hidden sm:block">
        <Table
          caption={t('portal.history')}
          head={[t('portal.date'), t('portal.description'), t('portal.amount'), t('portal.statusColumn'), t('portal.invoice')]}
        >
          {records.map((r) => (
            <tr key={r.id}>
              <Cell>{date(r.date)}</Cell>
              <Cell>{r.description}</Cell>
              <Cell className="tabular-nums">
                {r.amount}
                {discount(r)}
              </Cell>
              <Cell>{status(r)}</Cell>
              <Cell>{links(r)}</Cell>
            </tr>
          ))}
        </Table>
      </div>
    </>
  );
}
