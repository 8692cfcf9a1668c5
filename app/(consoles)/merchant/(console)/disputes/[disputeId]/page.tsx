import crypto from 'node:crypto';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { getDispute } from '@/lib/payments/disputes';
import { EVIDENCE_OPEN_STATUSES } from '@/lib/payments/dispute-states';
import { formatMoney } from '@/lib/money/format';
import { roleCan } from '@/lib/merchants/roles';
import { ActionForm } from '@/components/ui/action-form';
import { Alert } from '@/components/ui/alert';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { SubmitButton } from '@/components/ui/submit-button';
import { TextAreaField, TextField } from '@/components/ui/field';
import { Card, DescriptionList, PageHeader } from '@/components/ui/layout';
import { ProcessorReference } from '@/components/console/processor-reference';
import { currentSeller } from '../../../session';
import { submitDisputeEvidenceAction } from '../actions';
import { EVIDENCE_GROUPS } from '../evidence-fields';
import { DisputeStatusBadge, disputeReasonLabel } from '../status-badge';

export const metadata: Metadata = { title: 'Dispute' };

export default async function DisputePage({
  params,
  searchParams,
}: {
  params: Promise<{ disputeId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { merchant, user } = await currentSeller('view');
  const { disputeId } = await params;
  const { evidence: evidenceSaved } = await searchParams;
  const dispute = await getDispute(getDb(), merchant.id, disputeId).catch((error) => {
    if (error instanceof ApiError && error.code === 'NOT_FOUND') notFound();
    throw error;
  });
  const money = formatMoney(dispute.amount, dispute.currency);
  const open = (EVIDENCE_OPEN_STATUSES as readonly string[]).includes(dispute.status);
  const when = (at: string | null) => (at ? formatConsoleDateTime(at, merchant.timeZone) : '—');
  const labels = new Map(EVIDENCE_GROUPS.flatMap((group) => group.fields.map((f) => [f.name, f.label] as const)));
  const given = Object.entries(dispute.evidence).filter((entry): entry is [keyof typeof dispute.evidence, string] => Boolean(entry[1]));

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/merchant/disputes" className="text-brand-700 hover:underline">
          ← Disputes
        </Link>
      </p>
      {evidenceSaved === 'sent' ? <Alert tone="success">Evidence sent to the card issuer through Stripe.</Alert> : null}
      {evidenceSaved === 'draft' ? <Alert tone="success">Evidence saved as a draft at Stripe; it is not sent until you submit it.</Alert> : null}
      <PageHeader title={`Dispute of ${money}`} description={disputeReasonLabel(dispute.reason)} actions={<DisputeStatusBadge status={dispute.status} />} />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)]">
        <Card title="Details" className="h-fit">
          <DescriptionList
            items={[
              [
                'Id',
                <span className="font-mono" key="id">
                  {dispute.id}
                </span>,
              ],
              ['Amount', money],
              ['Reason', disputeReasonLabel(dispute.reason)],
              [
                'Evidence due',
                open && dispute.evidenceDueBy ? (
                  <strong key="due" className="font-medium text-red-800">
                    {when(dispute.evidenceDueBy)}
                  </strong>
                ) : (
                  when(dispute.evidenceDueBy)
                ),
              ],
              [
                'Payment',
                <Link key="p" href={`/merchant/payments/${dispute.paymentId}`} className="font-mono text-brand-700 hover:underline">
                  {dispute.paymentId}
                </Link>,
              ],
              ['Funds', dispute.fundsReinstated ? `${money} taken, then given back` : dispute.fundsWithdrawn ? `${money} taken from the balance` : 'Not taken'],
              ['Processor', <ProcessorReference key="processor" processor={dispute.processor} />],
              ['Opened', when(dispute.createdAt)],
              ['Closed', when(dispute.closedAt)],
            ]}
          />
        </Card>
        <Card title="Evidence" className="h-fit">
          {open && roleCan(user.role, 'disputes:respond') ? (
            <ActionForm action={submitDisputeEvidenceAction} className="space-y-6" ariaLabel="Evidence">
              <p className="text-sm text-slate-600">
                Stripe passes your evidence to the card issuer, who decides. Give what fits the reason; it can be sent once and not changed afterwards.
              </p>
              <input type="hidden" name="disputeId" value={dispute.id} />
              {/* A fresh key on every render: submitting the same form twice sends it once. */}
              <input type="hidden" name="evidenceKey" value={crypto.randomBytes(16).toString('base64url')} />
              {EVIDENCE_GROUPS.map((group) => (
                <fieldset key={group.legend} className="space-y-3">
                  <legend className="text-sm font-semibold text-slate-900">{group.legend}</legend>
                  {group.fields.map((f) =>
                    f.long ? (
                      <TextAreaField
                        key={f.name}
                        label={f.label}
                        name={f.name}
                        hint={f.hint}
                        rows={3}
                        maxLength={20_000}
                        defaultValue={dispute.evidence[f.name]}
                      />
                    ) : (
                      <TextField key={f.name} label={f.label} name={f.name} hint={f.hint} maxLength={20_000} defaultValue={dispute.evidence[f.name]} />
                    ),
                  )}
                </fieldset>
              ))}
              <div className="flex flex-wrap items-center gap-3">
                <ConfirmButton
                  variant="primary"
                  question="Send this evidence to the card issuer? It cannot be changed afterwards."
                  confirmLabel="Send evidence"
                >
                  Submit evidence
                </ConfirmButton>
                <SubmitButton variant="secondary" size="sm" name="draft" value="yes">
                  Save as draft
                </SubmitButton>
              </div>
            </ActionForm>
          ) : (
            <div className="space-y-3 text-sm text-slate-700">
              {open ? <p>Your role cannot respond to disputes. Ask an Owner or Admin.</p> : null}
              {!open && dispute.evidenceSubmissionCount === 0 ? <p>No evidence was sent; the dispute no longer takes any.</p> : null}
              {given.length > 0 ? <DescriptionList items={given.map(([name, text]) => [labels.get(name) ?? name, text])} /> : null}
            </div>
          )}
        </Card>
      </div>
    </>
  );
}
