import Link from 'next/link';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { Cell, Table } from '@/components/ui/table';
import { HubSection, hubLink } from './hub-section';

/** The customer's newest events, each opening its page in the event log (with its deliveries). */
export function CustomerEvents({ events, timeZone }: { events: { id: string; type: string; createdAt: Date }[]; timeZone: string }) {
  return (
    <HubSection id="events" title="Events" more={{ href: '/merchant/webhooks/events', label: 'Event log' }} empty={events.length ? undefined : 'No events.'}>
      <Table caption="Events" head={['Type', 'Event', 'Time']}>
        {events.map((event) => (
          <tr key={event.id}>
            <Cell className="font-mono text-xs">{event.type}</Cell>
            <Cell>
              <Link href={`/merchant/webhooks/events/${event.id}`} prefetch={false} className={hubLink}>
                {event.id}
              </Link>
            </Cell>
            <Cell className="whitespace-nowrap">{formatConsoleDateTime(event.createdAt, timeZone)}</Cell>
          </tr>
        ))}
      </Table>
    </HubSection>
  );
}
