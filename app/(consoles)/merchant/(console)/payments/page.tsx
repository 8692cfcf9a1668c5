import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { currentMerchant } from '../../session';

export const metadata: Metadata = { title: 'Payments' };

export default async function Page() {
  await currentMerchant();
  return (
    <>
      <PageHeader title="Payments" description="Payments from checkout, payment links and your backend will be listed here, with refunds." />
      <EmptyState title="Coming soon">This section of the console is on its way.</EmptyState>
    </>
  );
}
