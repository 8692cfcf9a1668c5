import type { EntitlementResponseBody } from '@/lib/usage/entitlement-view';
import type { CustomerUsageOverview } from '@/lib/usage/customer-usage';
import { UsageHistoryCharts } from '@/components/usage/usage-history-charts';
import { Badge, Card, EmptyState } from '@/components/ui/layout';
import { customerText, type CustomerText } from '@/lib/i18n/customer-text';

const SOURCE_LABEL = { override: 'override', subscription: 'subscription', purchase: 'purchase', none: 'credits only' } as const;

/** One feature's usage in its period against its limit, as a bar (limits and credits in words beside it). */
function FeatureUsage({ entitlement, audience, text }: { entitlement: EntitlementResponseBody; audience: 'seller' | 'customer'; text: CustomerText }) {
  const { t, date: day } = text;
  const { feature, access, limit, used, remaining, creditBalance, periodStart, periodEnd } = entitlement;
  const share = limit ? Math.min(100, Math.round((used / limit) * 100)) : access === 'Unlimited' ? 0 : 100;
  const tone = !entitlement.allowed ? 'bg-red-500' : share >= 80 ? 'bg-amber-500' : 'bg-brand-600';
  const label =
    access === 'Limited' && limit !== null
      ? t('usage.usedOf', { used, limit })
      : access === 'Unlimited'
        ? t('usage.usedUnlimited', { used })
        : access === 'Denied'
          ? t('usage.notIncluded')
          : t('usage.used', { used });
  return (
    <li className="py-3" data-feature={feature}>
      <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
        <span className="font-medium">{feature}</span>
        <span className="text-slate-700">{label}</span>
      </div>
      {access === 'Limited' && limit !== null ? (
        <div
          className="mt-1 h-2 w-full overflow-hidden rounded bg-slate-100"
          role="progressbar"
          aria-label={t('usage.featureUsage', { feature })}
          aria-valuemin={0}
          aria-valuemax={limit}
          aria-valuenow={Math.min(used, limit)}
        >
          <div className={`h-2 ${tone}`} style={{ width: `${share}%` }} />
        </div>
      ) : null}
      <p className="mt-1 text-xs text-slate-600">
        {remaining === null ? t('usage.noLimit') : t('usage.remaining', { remaining })}
        {creditBalance > 0 ? ` ${t('usage.includingCredits', { credits: creditBalance })}` : ''}
        {' · '}
        {periodStart && periodEnd ? t('usage.period', { start: day(periodStart), end: day(periodEnd) }) : t('usage.noReset')}
        {audience === 'seller' ? ` · from ${SOURCE_LABEL[entitlement.source.type]}` : ''}
        {!entitlement.allowed ? ' · ' : ''}
        {!entitlement.allowed ? <Badge tone="red">{t('usage.exhausted')}</Badge> : null}
      </p>
    </li>
  );
}

/**
 * A customer's usage against their limits and their credit grants (loaded by the page with
 * `getCustomerUsageOverview`), for the seller's customer page (`audience: seller`, with where each limit comes from and a chart of usage by day over
 * this period and the one before) and the customer portal (in the customer's language, `text`).
 */
export function UsageOverview({
  usage: { entitlements, credits, history },
  audience,
  text = customerText(),
}: {
  /** `getCustomerUsageOverview(db, merchantId, customerId, { history: audience === 'seller' })` */
  usage: CustomerUsageOverview;
  audience: 'seller' | 'customer';
  text?: CustomerText;
}) {
  const { t, date: day } = text;
  const grants = credits.data.flatMap((balance) => balance.grants);
  // The portal shows the section only to customers with something metered.
  if (audience === 'customer' && entitlements.data.length === 0 && grants.length === 0) return null;
  return (
    <Card title={audience === 'seller' ? 'Usage and credits' : t('usage.title')}>
      {entitlements.data.length === 0 ? (
        <EmptyState title="No metered features">Entitlement policies on prices, overrides and credit grants show here.</EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label={t('usage.features')}>
          {entitlements.data.map((entitlement) => (
            <FeatureUsage key={entitlement.feature} entitlement={entitlement} audience={audience} text={text} />
          ))}
        </ul>
      )}
      {grants.length > 0 ? (
        <>
          <h3 className="mt-4 text-sm font-semibold">{t('usage.credits')}</h3>
          <ul className="mt-1 divide-y divide-slate-100 text-sm" aria-label={t('usage.grants')}>
            {grants.map((grant) => (
              <li key={grant.id} className="flex flex-wrap justify-between gap-2 py-2">
                <span>
                  {t.rich('usage.grant', {
                    remaining: grant.remaining,
                    amount: grant.amount,
                    feature: grant.feature,
                    strong: (chunks) => <span className="font-medium">{chunks}</span>,
                  })}
                  {audience === 'seller' && grant.reason ? <span className="text-slate-600"> · {grant.reason}</span> : null}
                </span>
                <span className="text-slate-600">{grant.expiresAt ? t('usage.expires', { date: day(grant.expiresAt) }) : t('usage.noExpiry')}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {history ? <UsageHistoryCharts history={history.data} /> : null}
    </Card>
  );
}
