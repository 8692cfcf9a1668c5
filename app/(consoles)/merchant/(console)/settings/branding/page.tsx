import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listCheckoutDesigns } from '@/lib/designs/designs';
import { roleCan } from '@/lib/merchants/roles';
import { Badge, Card, EmptyState, PageHeader } from '@/components/ui/layout';
import { currentSeller } from '../../../session';
import { createDesignAction } from './actions';
import { DesignEditor } from './design-editor';

export const metadata: Metadata = { title: 'Branding' };

export default async function BrandingPage() {
  const { merchant, user } = await currentSeller('view');
  const designs = await listCheckoutDesigns(getDb(), merchant.id, { page: 1, pageSize: 100, orderBy: 'createdAt', orderDirection: 'asc' });
  const canEdit = roleCan(user.role, 'settings:write');
  return (
    <>
      <PageHeader
        title="Branding"
        description="How your hosted checkout, success page, customer portal and customer emails look. A payment link's design picks one; your default styles the rest."
        actions={
          <Link href="/merchant/settings" className="text-sm font-medium text-brand-700 hover:underline">
            Account settings
          </Link>
        }
      />
      <Card title="Your designs" className="mb-6">
        {designs.data.length === 0 ? (
          <EmptyState title="No designs yet">Your hosted pages use the plain Paybase look until you create one below.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Designs">
            {designs.data.map((design) => (
              <li key={design.id} className="flex flex-wrap items-center gap-3 py-3">
                <span className="flex gap-1" aria-hidden="true">
                  {(
                    [
                      ['brand', design.brandColor],
                      ['accent', design.accentColor],
                    ] as const
                  ).map(([role, colour]) => (
                    <span key={role} className="h-5 w-5 rounded-full border border-slate-300" style={{ background: colour }} />
                  ))}
                </span>
                <Link href={`/merchant/settings/branding/${design.id}`} className="font-medium text-brand-700 hover:underline">
                  {design.displayName}
                </Link>
                {design.isDefault ? <Badge tone="blue">Default</Badge> : null}
                <code className="ml-auto text-xs text-slate-600">{design.id}</code>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card title="New design">
        <DesignEditor action={createDesignAction} canEdit={canEdit} />
      </Card>
    </>
  );
}
