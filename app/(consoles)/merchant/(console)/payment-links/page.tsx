import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { currentMerchant } from '../../session';

export const metadata: Metadata = { title: 'Payment links' };

export default async function Page() {
  await currentMerchant();
  return (
    <>
      <PageHeader title="Payment links" description="Shareable links that take a payment without any code." />
      <EmptyState title="Coming soon">This section of the console is on its way.</EmptyState>
    </>
  );
}
