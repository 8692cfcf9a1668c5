import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { getCheckoutDesign } from '@/lib/designs/designs';
import { ApiError } from '@/lib/errors';
import { roleCan } from '@/lib/merchants/roles';
import { Alert } from '@/components/ui/alert';
import { Badge, Card, PageHeader } from '@/components/ui/layout';
import { currentSeller } from '../../../../session';
import { updateDesignAction } from '../actions';
import { DesignEditor } from '../design-editor';

export const metadata: Metadata = { title: 'Edit design' };

export default async function EditDesignPage({
  params,
  searchParams,
}: {
  params: Promise<{ designId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchant, user } = await currentSeller('view');
  const { designId } = await params;
  const { saved } = await searchParams;
  const design = await getCheckoutDesign(getDb(), merchant.id, designId).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') notFound();
    throw error;
  });
  return (
    <>
      <PageHeader
        title={design.displayName}
        description={
          <>
            Use it on a payment link with <code>designId: &quot;{design.id}&quot;</code>. {design.isDefault ? <Badge tone="blue">Default</Badge> : null}
          </>
        }
        actions={
          <Link href="/merchant/settings/branding" className="text-sm font-medium text-brand-700 hover:underline">
            All designs
          </Link>
        }
      />
      {saved ? <Alert tone="success">Design saved.</Alert> : null}
      <Card title="Design">
        <DesignEditor key={design.updatedAt} action={updateDesignAction} design={design} canEdit={roleCan(user.role, 'settings:write')} />
      </Card>
    </>
  );
}
