import Link from 'next/link';
import { EmptyState } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { DeliveryStatusPill, ResponseCode, type DeliveryStatus } from './status';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';

export interface DeliveryRow {
  id: string;
  eventId: string;
  eventType: string;
  endpointId: string;
  status: DeliveryStatus;
  attemptCount: number;
  lastResponseStatus: number | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

/**
 * Deliveries with their state; each links to the delivery view. `show` picks the other side of
 * the delivery: the event (on an endpoint's page) or the endpoint (on an event's page).
 */
export function DeliveryTable({
  deliveries,
  show,
  endpointUrls = {},
  empty,
  timeZone,
}: {
  deliveries: DeliveryRow[];
  show: 'event' | 'endpoint';
  endpointUrls?: Record<string, string>;
  empty: string;
  timeZone: string;
}) {
  if (deliveries.length === 0) return <EmptyState title={empty} />;
  return (
    <Table caption="Deliveries" head={[show === 'event' ? 'Event' : 'Endpoint', 'Status', 'Attempts', 'Last attempt']}>
      {deliveries.map((delivery) => (
        <tr key={delivery.id} className="hover:bg-slate-50" data-testid={`delivery-row-${delivery.id}`}>
          <Cell>
            {/* The first cell links to the delivery view (its attempts and the Retry button). */}
            <Link href={`/merchant/webhooks/deliveries/${delivery.id}`} prefetch={false} className="group block">
              {show === 'event' ? (
                <span className="font-mono text-xs font-medium text-brand-700 group-hover:underline">{delivery.eventType}</span>
              ) : (
                <span className="block max-w-xs font-mono text-xs font-medium break-all text-brand-700 group-hover:underline">
                  {endpointUrls[delivery.endpointId] ?? delivery.endpointId}
                </span>
              )}
              <span className="block font-mono text-[11px] text-slate-500">{delivery.id}</span>
            </Link>
          </Cell>
          <Cell>
            <DeliveryStatusPill status={delivery.status} />
            {delivery.status === 'failed' && delivery.nextAttemptAt ? (
              <span className="mt-1 block text-xs whitespace-nowrap text-slate-600">next {formatConsoleDateTime(delivery.nextAttemptAt, timeZone)}</span>
            ) : null}
          </Cell>
          <Cell>{delivery.attemptCount}</Cell>
          <Cell>
            {delivery.lastAttemptAt ? (
              <>
                <ResponseCode status={delivery.lastResponseStatus} />
                <span className="mt-1 block text-xs whitespace-nowrap text-slate-600">{formatConsoleDateTime(delivery.lastAttemptAt, timeZone)}</span>
              </>
            ) : (
              '—'
            )}
          </Cell>
        </tr>
      ))}
    </Table>
  );
}

const FILTERS: { value?: DeliveryStatus; label: string }[] = [
  { label: 'All' },
  { value: 'pending', label: 'Pending' },
  { value: 'failed', label: 'Failed' },
  { value: 'dead', label: 'Dead' },
  { value: 'delivered', label: 'Delivered' },
];

/** Status filter links (they keep working without JavaScript). */
export function StatusFilter({ basePath, current }: { basePath: string; current?: DeliveryStatus }) {
  return (
    <nav aria-label="Filter deliveries by status">
      <ul className="flex flex-wrap gap-1">
        {FILTERS.map((filter) => {
          const active = filter.value === current;
          return (
            <li key={filter.label}>
              <Link
                href={filter.value ? `${basePath}?status=${filter.value}` : basePath}
                prefetch={false}
                aria-current={active ? 'true' : undefined}
                className={`inline-block rounded-full px-3 py-1 text-xs font-medium ring-1 ring-inset ${active ? 'bg-brand-600 text-white ring-brand-600' : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50'}`}
              >
                {filter.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
