import { Badge } from '@/components/ui/layout';

const LABELS = {
  pending: ['Pending', 'gray'],
  requires_action: ['Awaiting authentication', 'gray'],
  succeeded: ['Succeeded', 'green'],
  failed: ['Failed', 'red'],
  unknown: ['Unknown', 'gray'],
  needs_review: ['Needs review', 'red'],
  partially_refunded: ['Partially refunded', 'blue'],
  refunded: ['Refunded', 'blue'],
} as const;

export const PAYMENT_STATUS_OPTIONS = Object.entries(LABELS).map(([value, [label]]) => ({ value, label }));

export function PaymentStatusBadge({ status }: { status: keyof typeof LABELS }) {
  const [label, tone] = LABELS[status];
  return <Badge tone={tone}>{label}</Badge>;
}
