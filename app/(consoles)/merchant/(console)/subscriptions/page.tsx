import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { currentMerchant } from '../../session';

export const metadata: Metadata = { title: 'Subscriptions' };

export default async function Page() {
  await currentMerchant();
  return (
    <>
      <PageHeader title="Subscriptions" description="Recurring billing for your customers: renewals, changes and cancellations." />
      <EmptyState title="Coming soon">This section of the console is on its way.</EmptyState>
    </>
  );
}
