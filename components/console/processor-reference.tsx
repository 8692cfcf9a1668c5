import { Badge } from '@/components/ui/layout';

interface ProcessorDetails {
  name: 'sandbox' | 'stripe';
  mode: 'test' | 'live';
  reference: string | null;
}

/** Stripe's dashboard page of a PaymentIntent, refund or dispute, in its mode (a PaymentMethod has none of its own: its id is shown). */
function stripeDashboardUrl({ mode, reference }: ProcessorDetails): string | null {
  if (!reference) return null;
  const base = mode === 'test' ? 'https://dashboard.stripe.com/test' : 'https://dashboard.stripe.com';
  if (reference.startsWith('pi_')) return `${base}/payments/${reference}`;
  if (reference.startsWith('re_')) return `${base}/refunds/${reference}`;
  if (reference.startsWith('dp_') || reference.startsWith('du_')) return `${base}/disputes/${reference}`;
  return null;
}

/** Where a payment, refund or dispute moved money: the processor, test data marked, the processor's id linked to its dashboard. */
export function ProcessorReference({ processor }: { processor: ProcessorDetails }) {
  const link = processor.name === 'stripe' ? stripeDashboardUrl(processor) : null;
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      {processor.name === 'stripe' ? 'Stripe' : 'Sandbox'}
      {processor.mode === 'test' ? <Badge tone="blue">Test data</Badge> : <Badge tone="green">Live</Badge>}
      {processor.reference &&
        (link ? (
          <a href={link} className="font-mono text-brand-700 hover:underline" target="_blank" rel="noreferrer">
            {processor.reference}
          </a>
        ) : (
          <span className="font-mono">{processor.reference}</span>
        ))}
    </span>
  );
}
