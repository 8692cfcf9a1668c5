import type { ReactNode } from 'react';

type Tone = 'green' | 'amber' | 'red' | 'gray' | 'blue';

const TONES: Record<Tone, string> = {
  green: 'bg-green-50 text-green-800 ring-green-600/20',
  amber: 'bg-amber-50 text-amber-900 ring-amber-600/30',
  red: 'bg-red-50 text-red-800 ring-red-600/20',
  gray: 'bg-slate-100 text-slate-700 ring-slate-500/20',
  blue: 'bg-brand-50 text-brand-700 ring-brand-600/20',
};

export function Pill({ tone, children }: { tone: Tone; children: ReactNode }) {
  return (
    <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${TONES[tone]}`}>
      {children}
    </span>
  );
}

export interface EndpointStatusFields {
  status: 'enabled' | 'failing' | 'disabled';
  disabledReason: 'manual' | 'gone' | 'failing' | null;
}

/** Needs the seller's attention: failing now, or disabled by the service (not by the seller). */
export const needsAttention = (endpoint: EndpointStatusFields) =>
  endpoint.status === 'failing' || (endpoint.status === 'disabled' && endpoint.disabledReason !== 'manual');

export function EndpointStatus({ endpoint }: { endpoint: EndpointStatusFields }) {
  if (endpoint.status === 'enabled') return <Pill tone="green">Enabled</Pill>;
  if (endpoint.status === 'failing')
    return (
      <Pill tone="amber">
        <span aria-hidden="true">▲</span>Failing
      </Pill>
    );
  if (endpoint.disabledReason === 'manual') return <Pill tone="gray">Disabled</Pill>;
  return (
    <Pill tone="red">
      <span aria-hidden="true">■</span>Disabled: {endpoint.disabledReason === 'gone' ? '410 Gone' : 'failing'}
    </Pill>
  );
}

/** In words: why the endpoint is in its state and what the seller can do. */
export function endpointStatusExplanation(
  endpoint: EndpointStatusFields & { failingSince: string | null; disabledAt: string | null },
  when: (iso: string | null) => string,
): string | null {
  if (endpoint.status === 'failing') {
    return `Every attempt since ${when(endpoint.failingSince)} has failed. Deliveries are retried on schedule; if every attempt keeps failing for 5 days the endpoint is disabled. Check the latest deliveries below for the response or error.`;
  }
  if (endpoint.status === 'disabled' && endpoint.disabledReason === 'gone') {
    return `Disabled on ${when(endpoint.disabledAt)} because the receiver answered 410 Gone. No events are sent to it. Fix the receiver, enable the endpoint, then recover the deliveries it missed.`;
  }
  if (endpoint.status === 'disabled' && endpoint.disabledReason === 'failing') {
    return `Disabled on ${when(endpoint.disabledAt)} because every attempt failed for 5 days (since ${when(endpoint.failingSince)}). No events are sent to it. Fix the receiver, enable the endpoint, then recover the deliveries it missed.`;
  }
  if (endpoint.status === 'disabled') return `You disabled this endpoint on ${when(endpoint.disabledAt)}. No events are sent to it until you enable it.`;
  return null;
}

export type DeliveryStatus = 'pending' | 'failed' | 'delivered' | 'dead';

export function DeliveryStatusPill({ status }: { status: DeliveryStatus }) {
  switch (status) {
    case 'delivered':
      return <Pill tone="green">Delivered</Pill>;
    case 'pending':
      return <Pill tone="blue">Pending</Pill>;
    case 'failed':
      return <Pill tone="amber">Failed, retrying</Pill>;
    case 'dead':
      return <Pill tone="red">Dead</Pill>;
  }
}

/** A response status as a short label: 200 OK in green, anything else in red, none in gray. */
export function ResponseCode({ status }: { status: number | null }) {
  if (status === null) return <Pill tone="gray">No response</Pill>;
  return <Pill tone={status >= 200 && status < 300 ? 'green' : 'red'}>HTTP {status}</Pill>;
}
