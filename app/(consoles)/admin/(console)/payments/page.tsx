import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listPaymentsToReview } from '@/lib/operator/payment-review';
import { requireSession } from '@/lib/server/web/session';
import { Alert } from '@/components/ui/alert';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { PaymentsToReview } from '@/components/admin/payments-to-review';
import { settleReviewedPaymentAction } from '../../actions';

export const metadata: Metadata = { title: 'Payments to review' };

const SETTLED_AS = { succeeded: 'charged (succeeded)', failed: 'not charged (failed)' } as const;

/** The notice after a settlement (the action redirects here): only an id-shaped value is echoed. */
function settledNotice(query: Record<string, string | string[] | undefined>) {
  const { settled, outcome } = query;
  if (typeof settled !== 'string' || !/^pay_[0-9A-Za-z]{1,64}$/.test(settled)) return null;
  if (outcome !== 'succeeded' && outcome !== 'failed') return null;
  return (
    <Alert tone="success">
      Payment <span className="font-mono">{settled}</span> settled as {SETTLED_AS[outcome]}. The{' '}
      <Link href="/admin/audit-log?action=payment.review_settled" className="underline">
        audit log
      </Link>{' '}
      records who decided.
    </Alert>
  );
}

export default async function PaymentsToReviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireSession('admin');
  const notice = settledNotice(await searchParams);
  const review = await listPaymentsToReview(getDb());
  return (
    <>
      <PageHeader
        title="Payments to review"
        description="Payments recovery could not finish or settle after its tries, across sellers, oldest first. Check each at the processor, then settle it."
      />
      {notice}
      {review.total === 0 ? (
        <EmptyState title="No payments need review">Recovery finished or settled every payment it tried.</EmptyState>
      ) : (
        <>
          {review.total > review.data.length ? (
            <p className="mb-4 text-sm text-slate-700">
              Showing the oldest {review.data.length} of {review.total}.
            </p>
          ) : null}
          <PaymentsToReview payments={review.data} settleAction={settleReviewedPaymentAction} />
        </>
      )}
    </>
  );
}
