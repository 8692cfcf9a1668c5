import { formatMoney } from '@/lib/money/format';
import { Badge, EmptyState } from '@/components/ui/layout';
import { Pagination } from '@/components/ui/pagination';
import type { listWalletSubscriptions } from '@/lib/members/wallet-subscriptions';

const TONE = { trialing: 'blue', active: 'green', past_due: 'red', canceled: 'gray', ended: 'gray' } as const;
const LABEL = { trialing: 'Trial', active: 'Active', past_due: 'Payment due', canceled: 'Canceled', ended: 'Ended' } as const;

type Page = Awaited<ReturnType<typeof listWalletSubscriptions>>;

const every = (sub: Page['data'][number]) =>
  sub.interval ? `every ${sub.intervalCount && sub.intervalCount > 1 ? `${sub.intervalCount} ${sub.interval}s` : sub.interval}` : '';

/** The wallet's Subscriptions card: one row per subscription, with the seller it is with. */
export function WalletSubscriptions({ subscriptions, query }: { subscriptions: Page; query: Record<string, string | undefined> }) {
  if (subscriptions.totalCount === 0) {
    return <EmptyState title="No subscriptions">Subscriptions you start with any seller under this email are listed here.</EmptyState>;
  }
  return (
    <>
      <ul className="divide-y divide-slate-100" aria-label="Subscriptions">
        {subscriptions.data.map((sub) => (
          <li key={sub.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2 text-sm">
            <span className="min-w-0">
              <span className="font-medium">{sub.productName}</span>
              <span className="text-slate-600"> · {sub.sellerName}</span>
              <span className="block text-slate-600">
                {formatMoney(sub.amount, sub.currency)} {every(sub)}
                {sub.status === 'ended' || !sub.currentPeriodEnd
                  ? ''
                  : ` · ${sub.cancelAtPeriodEnd ? 'ends' : 'renews'} ${sub.currentPeriodEnd.toISOString().slice(0, 10)}`}
              </span>
            </span>
            <Badge tone={TONE[sub.status]}>{LABEL[sub.status]}</Badge>
          </li>
        ))}
      </ul>
      <Pagination {...subscriptions} basePath="/member" query={query} param="subscriptionsPage" label="Subscription pages" />
    </>
  );
}
