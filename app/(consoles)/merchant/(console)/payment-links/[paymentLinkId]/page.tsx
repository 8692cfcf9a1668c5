import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { getPaymentLink } from '@/lib/payment-links/payment-links';
import { listCheckoutDesigns } from '@/lib/designs/designs';
import { findPriceWithProductName } from '@/lib/catalog/prices';
import { formatMoney } from '@/lib/money/format';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { CopyButton } from '@/components/ui/copy-button';
import { Badge, Card, DescriptionList, PageHeader } from '@/components/ui/layout';
import { toDateTimeLocal } from '@/components/console/webhooks/format';
import { PaymentLinkEditForm } from '@/app/(consoles)/merchant/(console)/payment-links/[paymentLinkId]/payment-link-edit-form';
import { currentSeller } from '../../../session';
import { RoleGate } from '@/components/console/role-gate';
import { roleCan } from '@/lib/merchants/roles';
import { LinkActions } from '../link-forms';
import { PAYMENT_LINK_STATUS_LABELS } from '../status';

export const metadata: Metadata = { title: 'Payment link' };

export default async function PaymentLinkPage({ params }: { params: Promise<{ paymentLinkId: string }> }) {
  const { merchant, user } = await currentSeller('view');
  const { paymentLinkId } = await params;
  const db = getDb();
  const link = await getPaymentLink(db, merchant.id, paymentLinkId).catch((error) => {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') notFound();
    throw error;
  });
  const [price, designs] = await Promise.all([
    link.priceId ? findPriceWithProductName(db, merchant.id, link.priceId) : undefined,
    listCheckoutDesigns(db, merchant.id, { page: 1, pageSize: 100, orderBy: 'displayName', orderDirection: 'asc' }),
  ]);
  const design = designs.data.find((d) => d.id === link.designId);
  const [label, tone] = PAYMENT_LINK_STATUS_LABELS[link.status];
  const at = (iso: string | null) => (iso ? formatConsoleDateTime(iso, merchant.timeZone) : '—');

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/merchant/payment-links" className="text-brand-700 hover:underline">
          ← Payment links
        </Link>
      </p>
      <PageHeader
        title={link.name}
        description={<Badge tone={tone}>{label}</Badge>}
        actions={roleCan(user.role, 'catalog:write') ? <LinkActions id={link.id} name={link.name} status={link.status} /> : undefined}
      />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_400px]">
        <Card title="Details" className="h-fit min-w-0">
          <DescriptionList
            items={[
              [
                'URL',
                <span key="url" className="flex flex-wrap items-center gap-2">
                  <a href={link.url} target="_blank" rel="noreferrer" className="font-mono text-xs break-all text-brand-700 hover:underline">
                    {link.url}
                  </a>
                  <CopyButton value={link.url} label="Copy URL" />
                </span>,
              ],
              [
                'Amount',
                link.quantity > 1
                  ? `${formatMoney(link.amount, link.currency)} (${link.quantity} × ${formatMoney(link.unitAmount, link.currency)})`
                  : formatMoney(link.amount, link.currency),
              ],
              [
                'Quantity',
                link.adjustableQuantity.enabled
                  ? `${link.quantity}, the customer chooses ${link.adjustableQuantity.minimum}–${link.adjustableQuantity.maximum}`
                  : `${link.quantity} (fixed)`,
              ],
              [
                'Sells',
                price ? (
                  <Link key="price" href={`/merchant/products/${price.productId}`} className="text-brand-700 hover:underline">
                    {price.productName} <span className="font-mono text-xs">({price.id})</span>
                  </Link>
                ) : (
                  'An ad hoc amount'
                ),
              ],
              ['Payments', `${link.completionCount}${link.maxCompletions ? ` of ${link.maxCompletions}` : ''}${link.singleUse ? ' (single use)' : ''}`],
              ['Expires', at(link.expiresAt)],
              [
                'Success URL',
                link.successUrl ? (
                  <span key="success" className="break-all">
                    {link.successUrl}
                  </span>
                ) : (
                  'Our receipt page'
                ),
              ],
              [
                'Design',
                design ? (
                  <Link key="design" href={`/merchant/settings/branding/${design.id}`} className="text-brand-700 hover:underline">
                    {design.displayName}
                  </Link>
                ) : (
                  (link.designId ?? 'Your default design')
                ),
              ],
              [
                'Id',
                <span key="id" className="font-mono">
                  {link.id}
                </span>,
              ],
              ['Created', at(link.createdAt)],
              ['Updated', at(link.updatedAt)],
            ]}
          />
        </Card>
        <Card title="Edit payment link" className="h-fit">
          {link.status === 'archived' ? (
            <p className="text-sm text-slate-700">An archived link can no longer be changed.</p>
          ) : (
            <RoleGate role={user.role} permission="catalog:write">
              <PaymentLinkEditForm
                link={{
                  id: link.id,
                  name: link.name,
                  quantity: link.quantity,
                  adjustableQuantity: link.adjustableQuantity,
                  singleUse: link.singleUse,
                  maxCompletions: link.maxCompletions,
                  expiresAtLocal: link.expiresAt ? toDateTimeLocal(new Date(link.expiresAt)) : '',
                  successUrl: link.successUrl,
                  designId: link.designId,
                }}
                designs={designs.data.map((d) => ({ value: d.id, label: d.displayName }))}
              />
            </RoleGate>
          )}
        </Card>
      </div>
    </>
  );
}
