import type { Metadata } from 'next';
import { customerText } from '@/lib/i18n/customer-text';
import { pageLocale } from '@/lib/server/web/page-locale';
import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { findMemberById } from '@/lib/members/members';
import { listWalletPaymentMethods } from '@/lib/payments/payment-methods';
import { requireSession } from '@/lib/server/web/session';
import { Badge, Card, DescriptionList, EmptyState, PageHeader } from '@/components/ui/layout';
import { Pagination, pageParam } from '@/components/ui/pagination';
import { WalletSubscriptions } from '@/components/member/wallet-subscriptions';
import { listWalletSubscriptions } from '@/lib/members/wallet-subscriptions';
import { WalletInvoices } from '@/components/member/wallet-invoices';
import { listWalletInvoices } from '@/lib/members/wallet-invoices';

export async function generateMetadata(): Promise<Metadata> {
  return { title: customerText(await pageLocale()).t('wallet.name') };
}

export default async function WalletPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const principal = await requireSession('member');
  const member = await findMemberById(getDb(), principal.subjectId);
  if (!member) redirect('/member/sign-in');
  const query = await searchParams;
  const text = customerText(await pageLocale());
  const { t } = text;
  const page = pageParam(query.page);
  const subscriptionsPage = pageParam(query.subscriptionsPage);
  const invoicesPage = pageParam(query.invoicesPage);
  const [methods, subscriptions, invoices] = await Promise.all([
    listWalletPaymentMethods(getDb(), member.email, { page, pageSize: 10 }),
    listWalletSubscriptions(getDb(), member.email, { page: subscriptionsPage, pageSize: 10 }),
    listWalletInvoices(getDb(), member.email, { page: invoicesPage, pageSize: 10 }),
  ]);
  return (
    <>
      <PageHeader title={t('wallet.heading')} description={t('wallet.description')} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card title={t('wallet.account')}>
          <DescriptionList
            items={[
              [t('wallet.email'), member.email],
              [
                t('wallet.walletId'),
                <span className="font-mono" key="id">
                  {member.id}
                </span>,
              ],
              [t('wallet.since'), text.date(member.createdAt)],
            ]}
          />
        </Card>
        <Card title={t('wallet.savedMethods')}>
          {methods.totalCount === 0 ? (
            <EmptyState title={t('wallet.noSavedMethods')}>{t('wallet.noSavedMethodsDetail')}</EmptyState>
          ) : (
            <>
              <ul className="divide-y divide-slate-100">
                {methods.data.map((method) => (
                  <li key={method.id} className="flex items-center justify-between gap-3 py-2 text-sm">
                    <span>
                      <span className="font-medium capitalize">{method.brand}</span> •••• {method.last4}
                      <span className="ml-2 text-slate-600">
                        {String(method.expMonth).padStart(2, '0')}/{method.expYear} · {method.sellerName}
                      </span>
                    </span>
                    {method.isDefault ? <Badge tone="blue">{t('common.default')}</Badge> : null}
                  </li>
                ))}
              </ul>
              <Pagination
                {...methods}
                basePath="/member"
                query={{ subscriptionsPage: String(subscriptionsPage), invoicesPage: String(invoicesPage) }}
                label={t('common.pages')}
                words={text.paginationWords()}
              />
            </>
          )}
        </Card>
        <Card title={t('wallet.subscriptions')} className="lg:col-span-2">
          <WalletSubscriptions subscriptions={subscriptions} query={{ page: String(page), invoicesPage: String(invoicesPage) }} text={text} />
        </Card>
        <Card title={t('wallet.invoices')} className="lg:col-span-2">
          <WalletInvoices invoices={invoices} query={{ page: String(page), subscriptionsPage: String(subscriptionsPage) }} />
        </Card>
      </div>
    </>
  );
}
