import Link from 'next/link';
import type { UsageRecordResponseBody } from '@/lib/usage/usage-records';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { Badge } from '@/components/ui/layout';
import { Cell, Table } from '@/components/ui/table';
import { ReverseUsageForm } from './reverse-usage-form';

/** Usage records as the console lists them (the Usage page); with `reversible`, a counted record's Reverse. */
export function UsageRecordsTable({ records, timeZone, reversible }: { records: UsageRecordResponseBody[]; timeZone: string; reversible: boolean }) {
  return (
    <Table caption="Usage records" head={['When', 'Customer', 'Feature', 'Quantity', 'From credits', 'Your id', 'Status', ...(reversible ? [''] : [])]}>
      {records.map((record) => (
        <tr key={record.id}>
          <Cell className="whitespace-nowrap">{formatConsoleDateTime(record.timestamp, timeZone)}</Cell>
          <Cell>
            <Link href={`/merchant/customers/${record.customerId}`} prefetch={false} className="font-mono text-xs text-brand-700 hover:underline">
              {record.customerId}
            </Link>
          </Cell>
          <Cell className="font-mono text-xs">{record.feature}</Cell>
          <Cell className="text-right tabular-nums">{record.quantity}</Cell>
          <Cell className="text-right tabular-nums">{record.creditsUsed}</Cell>
          <Cell className="break-all font-mono text-xs">{record.externalId ?? '—'}</Cell>
          <Cell>{record.reversedAt ? <Badge>Reversed</Badge> : <Badge tone="green">Counted</Badge>}</Cell>
          {reversible ? (
            <Cell>{record.reversedAt ? null : <ReverseUsageForm usageId={record.id} quantity={record.quantity} feature={record.feature} />}</Cell>
          ) : null}
        </tr>
      ))}
    </Table>
  );
}
