import type { CustomerText } from '@/lib/i18n/customer-text';
import { customerPriceLabel } from '@/lib/billing/price-words';
import { Badge, EmptyState } from '@/components/ui/layout';
import { Pagination } from '@/components/ui/pagination';
import type { listWalletSubscriptions } from '@/lib/members/wallet-subscriptions';

const TONE = { trialing: 'blue', active: 'green', past_due: 'red', canceled: 'gray', ended: 'gray' } as const;

type Page = Awaited<ReturnType<typeof listWalletSubscriptions>>;

/** The wallet's Subscriptions card: one row per subscription, with the seller it is with. */
export function WalletSubscriptions({ subscriptions, query, text }: { subscriptions: Page; query: Record<string, string | undefined>; text: CustomerText }) {
  const { t } = text;
  if (subscriptions.totalCount === 0) {
    return <EmptyState title={t('wallet.noSubscriptions')}>{t('wallet.noSubscriptionsDetail')}</EmptyState>;
  }
  return (
    <>
      <ul className="divide-y divide-slate-100" aria-label={t('wallet.subscriptions')}>
        {subscriptions.data.map((sub) => (
          <li key={sub.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2 text-sm">
            <span className="min-w-0">
              <span className="font-medium">{sub.productName}</span>
              <span className="text-slate-600"> · {sub.sellerName}</span>
              <span className="block text-slate-600">
                {sub.interval ? customerPriceLabel(sub, text) : text.money(sub.amount, sub.currency)}
                {sub.status === 'ended' || !sub.currentPeriodEnd
                  ? ''
                  : ` · ${t(sub.cancelAtPeriodEnd ? 'wallet.ends' : 'wallet.renews', { date: text.date(sub.currentPeriodEnd) })}`}
              </span>
            </span>
            <Badge tone={TONE[sub.status]}>{t('wallet.status', { status: sub.status })}</Badge>
          </li>
        ))}
      </ul>
      <Pagination
        {...subscriptions}
        basePath="/member"
        query={query}
        param="subscriptionsPage"
        label={t('wallet.subscriptionPages')}
        words={text.paginationWords()}
      />
    </>
  );
}
