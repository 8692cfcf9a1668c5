import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { now } from '@/lib/clock';
import { ApiError } from '@/lib/errors';
import { loadSellerProfile } from '@/lib/operator/seller-profile';
import { requireSession } from '@/lib/server/web/session';
import { ActionForm } from '@/components/ui/action-form';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { SubmitButton } from '@/components/ui/submit-button';
import { TextAreaField } from '@/components/ui/field';
import { Badge, Card, DescriptionList, PageHeader } from '@/components/ui/layout';
import { AuditLink, SellerEndpoints, SellerKeys, SellerRequests, SellerVolume, SuspensionHistory } from '@/components/admin/seller-activity';
import { utcTime } from '@/components/audit/audit-table';
import { setMerchantStatusAction } from '../../../actions';

export const metadata: Metadata = { title: 'Seller' };

async function load(merchantId: string) {
  try {
    return await loadSellerProfile(getDb(), merchantId, now());
  } catch (error) {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') notFound();
    throw error;
  }
}

export default async function AdminSellerPage({ params }: { params: Promise<{ merchantId: string }> }) {
  await requireSession('admin');
  const profile = await load((await params).merchantId);
  const { merchant } = profile;
  const suspended = merchant.status === 'suspended';
  return (
    <>
      <PageHeader
        title={merchant.name}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <Badge tone={suspended ? 'red' : 'green'}>{suspended ? 'Suspended' : 'Active'}</Badge>
            <span className="break-all">{merchant.email}</span>
          </span>
        }
      />
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
        <Card title="Account">
          <DescriptionList
            items={[
              [
                'Seller id',
                <span key="id" className="font-mono">
                  {merchant.id}
                </span>,
              ],
              ['Type', merchant.accountType],
              ['Joined', utcTime(merchant.createdAt)],
              ['Time zone', merchant.timeZone],
            ]}
          />
          <div className="mt-4">
            <AuditLink merchantId={merchant.id} />
          </div>
        </Card>
        <Card title={suspended ? 'Reinstate' : 'Suspend'}>
          <ActionForm action={setMerchantStatusAction} className="space-y-3" ariaLabel={suspended ? 'Reinstate seller' : 'Suspend seller'}>
            <input type="hidden" name="merchantId" value={merchant.id} />
            <input type="hidden" name="status" value={suspended ? 'active' : 'suspended'} />
            <TextAreaField label="Reason (kept in the audit log)" name="reason" rows={2} maxLength={500} />
            {suspended ? (
              <SubmitButton variant="secondary">Reinstate seller</SubmitButton>
            ) : (
              <ConfirmButton question="Suspend? Keys and sign-ins stop now." confirmLabel="Suspend seller">
                Suspend…
              </ConfirmButton>
            )}
          </ActionForm>
        </Card>
      </div>
      <h2 className="mt-8 mb-3 text-lg font-semibold text-slate-900">Volume</h2>
      <SellerVolume profile={profile} />
      <h2 className="mt-8 mb-3 text-lg font-semibold text-slate-900">API keys (prefixes only)</h2>
      <SellerKeys profile={profile} />
      <h2 className="mt-8 mb-3 text-lg font-semibold text-slate-900">Webhook endpoints</h2>
      <SellerEndpoints profile={profile} />
      <h2 className="mt-8 mb-3 text-lg font-semibold text-slate-900">Recent API errors</h2>
      <SellerRequests caption="Recent failed requests" requests={profile.recentFailures} />
      <h2 className="mt-8 mb-3 text-lg font-semibold text-slate-900">Recent API requests</h2>
      <SellerRequests caption="Recent requests" requests={profile.recentRequests} />
      <h2 className="mt-8 mb-3 text-lg font-semibold text-slate-900">Suspension history</h2>
      <SuspensionHistory profile={profile} />
    </>
  );
}
