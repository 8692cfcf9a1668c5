import { Badge, EmptyState } from '@/components/ui/layout';
import { Pagination } from '@/components/ui/pagination';
import { InvoiceLinks } from '@/components/billing/invoice-links';
import type { listWalletInvoices } from '@/lib/members/wallet-invoices';
import { statusWord } from '@/lib/server/web/status-words';

type Page = Awaited<ReturnType<typeof listWalletInvoices>>;

const TONE = { paid: 'green', open: 'blue', uncollectible: 'red', void: 'gray' } as const;

/** The wallet's Invoices card: one row per invoice or receipt, with the seller and links to it. */
export function WalletInvoices({ invoices, query }: { invoices: Page; query: Record<string, string | undefined> }) {
  if (invoices.totalCount === 0) {
    return <EmptyState title="No invoices">Receipts of what you pay any seller under this email are listed here.</EmptyState>;
  }
  return (
    <>
      <ul className="divide-y divide-slate-100" aria-label="Invoices">
        {invoices.data.map((invoice) => (
          <li key={invoice.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2 text-sm">
            <span className="min-w-0">
              <span className="font-medium">{invoice.description}</span>
              <span className="text-slate-600"> · {invoice.sellerName}</span>
              <span className="block text-slate-600">
                {invoice.date} · <span className="tabular-nums">{invoice.amount}</span>
              </span>
            </span>
            <span className="flex items-center gap-3">
              <Badge tone={TONE[invoice.status]}>{statusWord('record', invoice.status)}</Badge>
              <InvoiceLinks page={invoice.invoicePath} pdf={invoice.invoicePdfPath} />
            </span>
          </li>
        ))}
      </ul>
      <Pagination {...invoices} basePath="/member" query={query} param="invoicesPage" label="Invoice pages" />
    </>
  );
}
