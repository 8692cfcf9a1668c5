import Link from 'next/link';
import { AUDIT_ACTIONS, isAuditAction } from '@/lib/audit/actions';
import type { AuditEntryRow } from '@/lib/audit/audit-log';
import { Cell, Table } from '@/components/ui/table';

const ACTOR_KINDS: Record<string, string> = {
  admin: 'Platform admin',
  seller_user: 'Team member',
  api_key: 'API key',
  anonymous: 'Not signed in',
  system: 'Paybase',
};

/** Safe metadata as `key: value` pairs (the writer already blanked anything secret-named). */
function describeMetadata(metadata: Record<string, unknown>): string {
  return Object.entries(metadata)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .join(' · ');
}

/**
 * The audit log as a table: time (UTC to the second, as incident notes use it), action, actor,
 * target, client address and request id. `sellerHref` links the seller column (admin only).
 */
export function AuditTable({
  entries,
  formatTime,
  sellerHref,
}: {
  entries: AuditEntryRow[];
  formatTime: (at: Date) => string;
  sellerHref?: (merchantId: string) => string;
}) {
  const head = ['Time', 'Action', 'Actor', 'Target', ...(sellerHref ? ['Seller'] : []), 'From', 'Details'];
  return (
    <Table caption="Audit log" head={head}>
      {entries.map((entry) => (
        <tr key={entry.id} data-testid={`audit-${entry.action}`}>
          <Cell className="whitespace-nowrap tabular-nums">{formatTime(entry.createdAt)}</Cell>
          <Cell className="whitespace-nowrap">
            <span className="font-medium">{isAuditAction(entry.action) ? AUDIT_ACTIONS[entry.action] : entry.action}</span>
            <span className="block font-mono text-xs text-slate-600">{entry.action}</span>
          </Cell>
          <Cell>
            <span className="whitespace-nowrap">{entry.actorLabel ?? entry.actorId ?? '—'}</span>
            <span className="block text-xs text-slate-600">{ACTOR_KINDS[entry.actorKind] ?? entry.actorKind}</span>
          </Cell>
          <Cell className="font-mono text-xs whitespace-nowrap">{entry.targetId ?? '—'}</Cell>
          {sellerHref ? (
            <Cell className="font-mono text-xs">
              {entry.merchantId ? (
                <Link href={sellerHref(entry.merchantId)} className="text-brand-700 underline">
                  {entry.merchantId}
                </Link>
              ) : (
                '—'
              )}
            </Cell>
          ) : null}
          <Cell className="text-xs">
            <span className="font-mono">{entry.ip ?? '—'}</span>
            <span className="block font-mono text-slate-600">{entry.requestId ?? ''}</span>
          </Cell>
          <Cell className="min-w-64 max-w-96 text-xs break-words text-slate-700">{describeMetadata(entry.metadata)}</Cell>
        </tr>
      ))}
    </Table>
  );
}

/** UTC to the second: `2026-11-23 14:05:09 UTC`. */
export const utcTime = (at: Date) => `${at.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
