import { Badge } from '@/components/ui/layout';
import type { DisputeStatus } from '@/lib/db/schema';

const LABELS: Record<DisputeStatus, [string, 'gray' | 'red' | 'green' | 'blue']> = {
  warning_needs_response: ['Inquiry: needs response', 'red'],
  warning_under_review: ['Inquiry: under review', 'gray'],
  warning_closed: ['Inquiry closed', 'gray'],
  needs_response: ['Needs response', 'red'],
  under_review: ['Under review', 'blue'],
  won: ['Won', 'green'],
  lost: ['Lost', 'red'],
  prevented: ['Prevented', 'green'],
  appeal_needs_response: ['Appeal: needs response', 'red'],
  appeal_under_review: ['Appeal under review', 'blue'],
};

export const DISPUTE_STATUS_OPTIONS = Object.entries(LABELS).map(([value, [label]]) => ({ value, label }));

export function DisputeStatusBadge({ status }: { status: DisputeStatus }) {
  const [label, tone] = LABELS[status];
  return <Badge tone={tone}>{label}</Badge>;
}

/** The network's reason in words (Stripe's names otherwise, underscores as spaces). */
export function disputeReasonLabel(reason: string): string {
  const words: Record<string, string> = {
    fraudulent: 'Fraudulent (not authorized by the cardholder)',
    product_not_received: 'Product not received',
    product_unacceptable: 'Product unacceptable',
    duplicate: 'Duplicate charge',
    subscription_canceled: 'Subscription canceled',
    credit_not_processed: 'Credit not processed',
    unrecognized: 'Unrecognized',
    general: 'General',
  };
  return words[reason] ?? reason.replaceAll('_', ' ');
}
