import type { Metadata } from 'next';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { getDb } from '@/lib/db/client';
import { searchConsole } from '@/lib/search/console-search';
import { formatMoney } from '@/lib/money/format';
import { roleCan } from '@/lib/merchants/roles';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { Card, EmptyState, PageHeader } from '@/components/ui/layout';
import { currentSeller } from '../../session';
import { statusWord } from '@/lib/server/web/status-words';

export const metadata: Metadata = { title: 'Search' };

const LINK = 'font-medium text-brand-700 hover:underline';

function Section({ title, children }: { title: string; children: ReactNode[] }) {
  if (children.length === 0) return null;
  return (
    <Card title={title}>
      <ul className="divide-y divide-slate-100 text-sm">{children}</ul>
    </Card>
  );
}

export default async function SearchPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { merchant, user } = await currentSeller('view');
  const q = typeof (await searchParams).q === 'string' ? ((await searchParams).q as string).trim() : '';
  const results = await searchConsole(getDb(), merchant.id, q);
  const showEvents = roleCan(user.role, 'developers:read');
  const total =
    results.customers.length +
    results.payments.length +
    results.checkouts.length +
    results.subscriptions.length +
    results.paymentLinks.length +
    (showEvents ? results.events.length : 0);
  const when = (date: Date) => formatConsoleDateTime(date, merchant.timeZone);
  return (
    <>
      <PageHeader
        title="Search"
        description={q ? `Results for “${q}”` : 'Type an email, a name, or any id (cus_…, pay_…, cs_…, sub_…, plink_…, evt_…) in the box above.'}
      />
      {q && total === 0 ? <EmptyState title="Nothing found">Try a full id, the start of an email address, or part of a name.</EmptyState> : null}
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Section title="Customers">
          {results.customers.map((c) => (
            <li key={c.id} className="py-2">
              <Link href={`/merchant/customers/${c.id}`} prefetch={false} className={LINK}>
                {c.email ?? c.name ?? c.id}
              </Link>
              <span className="block text-xs text-slate-600">{[c.name, c.externalId && `external id ${c.externalId}`, c.id].filter(Boolean).join(' · ')}</span>
            </li>
          ))}
        </Section>
        <Section title="Payments">
          {results.payments.map((p) => (
            <li key={p.id} className="py-2">
              <Link href={`/merchant/payments/${p.id}`} prefetch={false} className={LINK}>
                {formatMoney(p.amount, p.currency)} · {statusWord('payment', p.status)}
              </Link>
              <span className="block text-xs text-slate-600">
                {p.id} · {when(p.createdAt)}
              </span>
            </li>
          ))}
        </Section>
        <Section title="Checkouts">
          {results.checkouts.map((c) => (
            <li key={c.id} className="py-2">
              {c.paymentId ? (
                <Link href={`/merchant/payments/${c.paymentId}`} prefetch={false} className={LINK}>
                  {formatMoney(c.total, c.currency)} · {statusWord('checkout', c.status)}
                </Link>
              ) : (
                <span>
                  {formatMoney(c.total, c.currency)} · {statusWord('checkout', c.status)}
                </span>
              )}
              <span className="block text-xs text-slate-600">
                {c.id} · {when(c.createdAt)}
              </span>
            </li>
          ))}
        </Section>
        <Section title="Subscriptions">
          {results.subscriptions.map((s) => (
            <li key={s.id} className="py-2">
              <Link href={`/merchant/subscriptions/${s.id}`} prefetch={false} className={LINK}>
                {s.id}
              </Link>
              <span className="block text-xs text-slate-600">
                {statusWord('subscription', s.status)} · {s.priceId}
              </span>
            </li>
          ))}
        </Section>
        <Section title="Payment links">
          {results.paymentLinks.map((l) => (
            <li key={l.id} className="py-2">
              <Link href="/merchant/payment-links" prefetch={false} className={LINK}>
                {l.name}
              </Link>
              <span className="block text-xs text-slate-600">
                {statusWord('paymentLink', l.status)} · {l.id}
              </span>
            </li>
          ))}
        </Section>
        {showEvents ? (
          <Section title="Events">
            {results.events.map((e) => (
              <li key={e.id} className="py-2">
                <Link href={`/merchant/webhooks/events/${e.id}`} prefetch={false} className={LINK}>
                  {e.type}
                </Link>
                <span className="block text-xs text-slate-600">
                  {e.id} · {when(e.createdAt)}
                </span>
              </li>
            ))}
          </Section>
        ) : null}
      </div>
    </>
  );
}
