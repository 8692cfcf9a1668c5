import { getDb } from '@/lib/db/client';
import { getCustomerEntitlements, type EntitlementResponseBody } from '@/lib/usage/entitlement-view';
import { getCreditBalance } from '@/lib/usage/credits';
import { getCustomerUsageHistory } from '@/lib/usage/usage-history';
import { UsageHistoryCharts } from '@/components/usage/usage-history-charts';
import { Badge, Card, EmptyState } from '@/components/ui/layout';

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

const SOURCE_LABEL = { override: 'override', subscription: 'subscription', purchase: 'purchase', none: 'credits only' } as const;

/** One feature's usage in its period against its limit, as a bar (limits and credits in words beside it). */
function FeatureUsage({ entitlement, audience }: { entitlement: EntitlementResponseBody; audience: 'seller' | 'customer' }) {
  const { feature, access, limit, used, remaining, creditBalance, periodStart, periodEnd } = entitlement;
  const share = limit ? Math.min(100, Math.round((used / limit) * 100)) : access === 'Unlimited' ? 0 : 100;
  const tone = !entitlement.allowed ? 'bg-red-500' : share >= 80 ? 'bg-amber-500' : 'bg-brand-600';
  const label =
    access === 'Limited' && limit !== null
      ? `${used} of ${limit} used`
      : access === 'Unlimited'
        ? `${used} used · unlimited`
        : access === 'Denied'
          ? 'Not included'
          : `${used} used`;
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
          aria-label={`${feature} usage`}
          aria-valuemin={0}
          aria-valuemax={limit}
          aria-valuenow={Math.min(used, limit)}
        >
          <div className={`h-2 ${tone}`} style={{ width: `${share}%` }} />
        </div>
      ) : null}
      <p className="mt-1 text-xs text-slate-600">
        {remaining === null ? 'No unit limit' : `${remaining} remaining`}
        {creditBalance > 0 ? ` (including ${creditBalance} credits)` : ''}
        {periodStart && periodEnd ? ` · period ${day(periodStart)} – ${day(periodEnd)}` : ' · does not reset'}
        {audience === 'seller' ? ` · from ${SOURCE_LABEL[entitlement.source.type]}` : ''}
        {!entitlement.allowed ? ' · ' : ''}
        {!entitlement.allowed ? <Badge tone="red">Exhausted</Badge> : null}
      </p>
    </li>
  );
}

/**
 * A customer's usage against their limits and their credit grants, for the seller's customer
 * page (`audience: seller`, with where each limit comes from and a chart of usage by day over
 * this period and the one before) and the customer portal.
 */
export async function UsageOverview({ merchantId, customerId, audience }: { merchantId: string; customerId: string; audience: 'seller' | 'customer' }) {
  const db = getDb();
  const [entitlements, credits, history] = await Promise.all([
    getCustomerEntitlements(db, merchantId, customerId),
    getCreditBalance(db, merchantId, customerId),
    audience === 'seller' ? getCustomerUsageHistory(db, merchantId, customerId) : null,
  ]);
  const grants = credits.data.flatMap((balance) => balance.grants);
  // The portal shows the section only to customers with something metered.
  if (audience === 'customer' && entitlements.data.length === 0 && grants.length === 0) return null;
  return (
    <Card title={audience === 'seller' ? 'Usage and credits' : 'Your usage'}>
      {entitlements.data.length === 0 ? (
        <EmptyState title="No metered features">
          Entitlement policies on prices, overrides and credit grants show here.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Feature usage">
          {entitlements.data.map((entitlement) => (
            <FeatureUsage key={entitlement.feature} entitlement={entitlement} audience={audience} />
          ))}
        </ul>
      )}
      {grants.length > 0 ? (
        <>
          <h3 className="mt-4 text-sm font-semibold">Credits</h3>
          <ul className="mt-1 divide-y divide-slate-100 text-sm" aria-label="Credit grants">
            {grants.map((grant) => (
              <li key={grant.id} className="flex flex-wrap justify-between gap-2 py-2">
                <span>
                  <span className="font-medium">{grant.remaining}</span> of {grant.amount} {grant.feature}
                  {audience === 'seller' && grant.reason ? <span className="text-slate-600"> · {grant.reason}</span> : null}
                </span>
                <span className="text-slate-600">{grant.expiresAt ? `expires ${day(grant.expiresAt)}` : 'no expiry'}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {history ? <UsageHistoryCharts history={history.data} /> : null}
    </Card>
  );
}
