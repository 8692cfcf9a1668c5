import type { Metadata } from 'next';
import { formatConsoleDate, formatConsoleDateTime } from '@/lib/server/web/console-time';
import { notFound } from 'next/navigation';
import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { prices } from '@/lib/db/schema';
import { ApiError } from '@/lib/errors';
import { formatMoney } from '@/lib/money/format';
import Link from 'next/link';
import { labelsFor } from '@/lib/subscriptions/labels';
import { priceTerms } from '@/lib/catalog/price-terms';
import { billingRecordLines, describePrices } from '@/lib/billing/customer-activity';
import { RecordLines, UpcomingInvoiceCard } from '@/components/console/upcoming-invoice';
import { findUpcomingInvoice } from '@/lib/subscriptions/upcoming-invoice';
import { SubscriptionItems } from '@/app/(consoles)/merchant/(console)/subscriptions/[subscriptionId]/subscription-items';
import { getSubscriptionDetail, listSubscriptionBillingRecords, listSubscriptionChanges } from '@/lib/subscriptions/queries';
import { describeDiscount } from '@/lib/subscriptions/discounts';
import { ActionForm } from '@/components/ui/action-form';
import { Badge, Card, DescriptionList, PageHeader } from '@/components/ui/layout';
import { SubmitButton } from '@/components/ui/submit-button';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { Cell, Table } from '@/components/ui/table';
import { currentSeller } from '../../../session';
import { ChangePriceForm } from '@/app/(consoles)/merchant/(console)/subscriptions/[subscriptionId]/change-price-form';
import { RoleGate } from '@/components/console/role-gate';
import { cancelSubscriptionAction, commandSubscriptionAction } from '../actions';
import { statusWord } from '@/lib/server/web/status-words';
import { roleCan } from '@/lib/merchants/roles';

export const metadata: Metadata = { title: 'Subscription' };

const TONE = { trialing: 'blue', active: 'green', past_due: 'red', canceled: 'gray', ended: 'gray' } as const;

export default async function SubscriptionPage({ params }: { params: Promise<{ subscriptionId: string }> }) {
  const { merchant, user } = await currentSeller('view');
  const { subscriptionId } = await params;
  const db = getDb();
  let sub: Awaited<ReturnType<typeof getSubscriptionDetail>>;
  try {
    sub = await getSubscriptionDetail(db, merchant.id, subscriptionId);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') notFound();
    throw error;
  }
  const [price] = await db
    .select()
    .from(prices)
    .where(and(eq(prices.id, sub.priceId), eq(prices.merchantId, merchant.id)));
  const others = price
    ? (
        await db
          .select()
          .from(prices)
          .where(and(eq(prices.merchantId, merchant.id), eq(prices.productId, price.productId), eq(prices.active, true)))
      ).filter(
        (p) =>
          p.id !== price.id &&
          p.type === 'Recurring' &&
          p.usageType === 'licensed' &&
          p.currency === price.currency &&
          p.interval === price.interval &&
          p.intervalCount === price.intervalCount,
      )
    : [];
  const itemPrices = await describePrices(
    db,
    merchant.id,
    sub.items.map((item) => item.priceId),
  );
  const onItems = new Set(sub.items.map((item) => item.priceId));
  const addable = price
    ? (
        await db
          .select()
          .from(prices)
          .where(and(eq(prices.merchantId, merchant.id), eq(prices.usageType, 'metered'), eq(prices.active, true)))
      ).filter((p) => !onItems.has(p.id) && p.currency === price.currency && p.interval === price.interval && p.intervalCount === price.intervalCount)
    : [];
  const upcoming = await findUpcomingInvoice(db, merchant.id, sub.id);
  const changes = await listSubscriptionChanges(db, merchant.id, sub.id, { page: 1, pageSize: 100, orderBy: 'createdAt', orderDirection: 'desc' });
  const records = await listSubscriptionBillingRecords(db, sub.id, 100);
  const recordLines = await billingRecordLines(
    db,
    merchant.id,
    records.map((r) => r.id),
  );
  const labels = await labelsFor(db, merchant.id, {
    customerIds: [sub.customerId],
    priceIds: [sub.priceId, ...changes.data.flatMap((c) => [c.fromPriceId, c.toPriceId]).filter((id): id is string => Boolean(id))],
  });
  const customer = labels.customers.get(sub.customerId);
  const plan = labels.prices.get(sub.priceId);
  const priceName = (id: string | null) => {
    const label = id ? labels.prices.get(id) : undefined;
    return label ? `${label.productName} (${label.amount})` : (id ?? '—');
  };
  const hidden = (
    <>
      <input type="hidden" name="subscriptionId" value={sub.id} />
      <input type="hidden" name="expectedVersion" value={sub.version} />
    </>
  );
  return (
    <>
      <PageHeader
        title={`Subscription ${sub.id}`}
        description={
          <>
            <Badge tone={TONE[sub.status]}>{statusWord('subscription', sub.status)}</Badge>{' '}
            <span data-testid="subscription-summary">
              {plan?.productName ?? sub.priceId} for {customer?.name || customer?.email || sub.customerId}
            </span>
          </>
        }
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title="Details">
          <DescriptionList
            items={[
              [
                'Customer',
                <span key="c">
                  <Link href={`/merchant/customers/${sub.customerId}`} prefetch={false} className="font-medium text-brand-700 hover:underline">
                    {customer?.name || customer?.email || sub.customerId}
                  </Link>
                  {customer?.name && customer.email ? <span className="block text-slate-600">{customer.email}</span> : null}
                  <span className="block font-mono text-xs text-slate-500">{sub.customerId}</span>
                </span>,
              ],
              ['Product', plan?.productName ?? '—'],
              ['Price', price ? priceTerms(price) : sub.priceId],
              [
                'Current period',
                `${formatConsoleDate(sub.currentPeriodStart, merchant.timeZone)} – ${formatConsoleDate(sub.currentPeriodEnd, merchant.timeZone)}`,
              ],
              ['Trial ends', formatConsoleDate(sub.trialEnd, merchant.timeZone)],
              ['Cancels at period end', sub.cancelAtPeriodEnd ? 'Yes' : 'No'],
              ['Collection', sub.pausedAt ? `Paused since ${formatConsoleDate(sub.pausedAt, merchant.timeZone)}` : 'Running'],
              ['Account credit', price ? formatMoney(sub.creditBalance, price.currency) : String(sub.creditBalance)],
              ['Discount', sub.discount && price ? describeDiscount(sub.discount, price.currency) : 'None'],
              [
                'Next renewal',
                sub.upcomingRenewal && price
                  ? `${formatMoney(sub.upcomingRenewal.amountDue, price.currency)} on ${formatConsoleDate(sub.upcomingRenewal.at, merchant.timeZone)}${
                      sub.items.length > 0 ? ' in advance, plus the period’s usage (Upcoming invoice below)' : ''
                    }`
                  : 'None',
              ],
              ['Version', sub.version],
            ]}
          />
        </Card>
        <Card title="Actions">
          {sub.status === 'ended' ? (
            <p className="text-sm text-slate-600">This subscription has ended.</p>
          ) : (
            <RoleGate role={user.role} permission="subscriptions:write">
              <div className="space-y-4">
                {others.length > 0 && sub.status !== 'past_due' ? (
                  <ChangePriceForm subscriptionId={sub.id} expectedVersion={sub.version} options={others.map((p) => ({ value: p.id, label: priceTerms(p) }))} />
                ) : null}
                <div className="flex flex-wrap gap-2">
                  {sub.status === 'canceled' ? (
                    <ActionForm action={commandSubscriptionAction} ariaLabel="Reactivate">
                      {hidden}
                      <input type="hidden" name="type" value="Reactivate" />
                      <SubmitButton variant="secondary">Reactivate</SubmitButton>
                    </ActionForm>
                  ) : (
                    <ActionForm action={cancelSubscriptionAction} ariaLabel="Cancel at period end">
                      {hidden}
                      <input type="hidden" name="immediate" value="false" />
                      <SubmitButton variant="secondary">Cancel at period end</SubmitButton>
                    </ActionForm>
                  )}
                  {sub.status === 'canceled' ? null : (
                    <ActionForm action={commandSubscriptionAction} ariaLabel={sub.pausedAt ? 'Resume' : 'Pause'}>
                      {hidden}
                      <input type="hidden" name="type" value={sub.pausedAt ? 'Resume' : 'Pause'} />
                      <SubmitButton variant="secondary">{sub.pausedAt ? 'Resume collection' : 'Pause collection'}</SubmitButton>
                    </ActionForm>
                  )}
                  <ActionForm action={cancelSubscriptionAction} ariaLabel="Cancel now">
                    {hidden}
                    <input type="hidden" name="immediate" value="true" />
                    <ConfirmButton question="End it now? Service stops today and no refund is given." confirmLabel="End subscription now">
                      Cancel now (no refund)
                    </ConfirmButton>
                  </ActionForm>
                </div>
              </div>
            </RoleGate>
          )}
        </Card>
        <SubscriptionItems
          items={sub.items.map((item) => ({ ...item, price: itemPrices.get(item.priceId) ?? null }))}
          ownPriceId={sub.priceId}
          addable={addable.map((p) => ({ id: p.id, label: priceTerms(p) }))}
          hidden={sub.status === 'ended' || !roleCan(user.role, 'subscriptions:write') ? null : hidden}
          timeZone={merchant.timeZone}
        />
        <UpcomingInvoiceCard upcoming={upcoming} timeZone={merchant.timeZone} />
        <Card title="Timeline of changes" className="lg:col-span-2">
          <Table caption="Changes" head={['When', 'Change', 'From → to', 'Actor', 'Reason', 'Version']}>
            {changes.data.map((c) => (
              <tr key={c.id}>
                <Cell>{formatConsoleDateTime(c.effectiveAt, merchant.timeZone)}</Cell>
                <Cell>
                  {c.type}
                  {c.status !== 'applied' ? <span className="ml-1 text-xs text-slate-600">({statusWord('change', c.status)})</span> : null}
                </Cell>
                <Cell className="text-xs">{c.fromPriceId || c.toPriceId ? `${priceName(c.fromPriceId)} → ${priceName(c.toPriceId)}` : ''}</Cell>
                <Cell className="font-mono text-xs break-all">{c.actor}</Cell>
                <Cell>{c.reason ?? ''}</Cell>
                <Cell>{c.version ?? '—'}</Cell>
              </tr>
            ))}
          </Table>
        </Card>
        <Card title="Billing records" className="lg:col-span-2">
          <Table caption="Billing records" head={['Created', 'Description', 'Amount', 'Status', 'Attempts']}>
            {records.map((r) => (
              <tr key={r.id}>
                <Cell>{formatConsoleDate(r.createdAt, merchant.timeZone)}</Cell>
                <Cell>
                  {r.description}
                  <RecordLines lines={recordLines.get(r.id) ?? []} currency={r.currency} timeZone={merchant.timeZone} />
                </Cell>
                <Cell className="tabular-nums">
                  {formatMoney(r.amount, r.currency)}
                  {r.discountAmount > 0 ? (
                    <span className="block text-xs text-slate-600">after {formatMoney(r.discountAmount, r.currency)} discount</span>
                  ) : null}
                </Cell>
                <Cell>
                  <Badge tone={r.status === 'paid' ? 'green' : r.status === 'open' ? 'red' : 'gray'}>{statusWord('record', r.status)}</Badge>
                </Cell>
                <Cell>{r.attempts}</Cell>
              </tr>
            ))}
          </Table>
        </Card>
      </div>
    </>
  );
}
