import type { Metadata } from 'next';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { currentMerchant } from '../../session';

export const metadata: Metadata = { title: 'Webhooks' };

export default async function Page() {
  await currentMerchant();
  return (
    <>
      <PageHeader title="Webhooks" description="Endpoints that receive signed events, with every delivery attempt." />
      <EmptyState title="Coming soon">This section of the console is on its way.</EmptyState>
    </>
  );
}
