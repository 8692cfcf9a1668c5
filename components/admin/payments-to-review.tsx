import Link from 'next/link';
import { Fragment } from 'react';
import { formatMoney } from '@/lib/money/format';
import type { PaymentToReview } from '@/lib/operator/payment-review';
import { ActionForm, type FormActionFn } from '@/components/ui/action-form';
import { ConfirmButton } from '@/components/ui/confirm-button';
import { Badge, DescriptionList } from '@/components/ui/layout';
import { utcTime } from '@/components/audit/audit-table';

const FROM_STATE: Record<'pending' | 'unknown' | 'requires_action', string> = {
  pending: 'pending: its outcome was never recorded',
  unknown: 'unknown: the processor never told whether it charged',
  requires_action: 'requires_action: the processor never told how the authentication ended',
};

function customerOf(payment: PaymentToReview) {
  const who = [payment.customerName, payment.customerEmail].filter(Boolean).join(' · ');
  return (
    <>
      {who || 'No name or email'}
      <span className="block font-mono text-xs text-slate-600">{payment.customerId}</span>
    </>
  );
}

/**
 * The payments recovery handed to a person, one card each: what is known about it, what to check
 * at the processor, and the two decisions, each confirmed in words before it runs.
 */
export function PaymentsToReview({ payments, settleAction }: { payments: PaymentToReview[]; settleAction: FormActionFn }) {
  return (
    <ol className="space-y-4">
      {payments.map((payment) => {
        const amount = formatMoney(payment.amount, payment.currency);
        const headingId = `review-${payment.id}`;
        return (
          <li key={payment.id}>
            <article
              aria-labelledby={headingId}
              className="min-w-0 rounded-lg border border-slate-200 bg-white p-5 shadow-sm"
              data-testid={`review-${payment.id}`}
            >
              <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
                <h2 id={headingId} className="text-base font-semibold wrap-anywhere text-slate-900">
                  {amount} to {payment.sellerName}
                </h2>
                <Badge tone="red">Needs review</Badge>
              </div>
              <DescriptionList
                items={[
                  [
                    'Seller',
                    <Fragment key="seller">
                      <Link href={`/admin/sellers/${payment.merchantId}`} className="font-medium text-brand-700 underline">
                        {payment.sellerName}
                      </Link>
                      <span className="block font-mono text-xs text-slate-600">{payment.merchantId}</span>
                    </Fragment>,
                  ],
                  [
                    'Payment',
                    <span key="payment" className="font-mono">
                      {payment.id}
                    </span>,
                  ],
                  ['Customer', customerOf(payment)],
                  [
                    'Amount',
                    <span key="amount" className="tabular-nums">
                      {amount}
                    </span>,
                  ],
                  ['For', payment.description],
                  ['Made', utcTime(payment.createdAt)],
                  ['Handed over', payment.review ? utcTime(new Date(payment.review.at)) : '—'],
                  ['From state', payment.review ? FROM_STATE[payment.review.from] : '—'],
                  [
                    'Recovery attempts',
                    <span key="attempts" className="tabular-nums">
                      {payment.recoveryAttempts}
                    </span>,
                  ],
                  ['Reason', payment.review?.reason ?? '—'],
                ]}
              />
              <div className="mt-4 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
                <p className="font-medium">What to do</p>
                <p className="mt-1">
                  Look the charge up in the processor's dashboard by its idempotency key{' '}
                  <code className="rounded bg-white px-1 font-mono text-xs wrap-anywhere">{payment.processorKey}</code>; settle it as charged if the processor
                  shows a successful charge, as not charged otherwise.
                </p>
              </div>
              <div className="mt-4 flex flex-wrap items-start gap-3">
                <ActionForm action={settleAction} ariaLabel={`Settle ${payment.id} as charged`}>
                  <input type="hidden" name="paymentId" value={payment.id} />
                  <input type="hidden" name="outcome" value="succeeded" />
                  <ConfirmButton
                    question={`Settle as charged? ${amount} counts as paid; this cannot be undone.`}
                    confirmLabel="Settle as charged"
                    variant="primary"
                  >
                    Charged (succeeded)
                  </ConfirmButton>
                </ActionForm>
                <ActionForm action={settleAction} ariaLabel={`Settle ${payment.id} as not charged`}>
                  <input type="hidden" name="paymentId" value={payment.id} />
                  <input type="hidden" name="outcome" value="failed" />
                  <ConfirmButton question={`Settle as not charged? ${amount} counts as failed; this cannot be undone.`} confirmLabel="Settle as not charged">
                    Not charged (failed)
                  </ConfirmButton>
                </ActionForm>
              </div>
            </article>
          </li>
        );
      })}
    </ol>
  );
}
