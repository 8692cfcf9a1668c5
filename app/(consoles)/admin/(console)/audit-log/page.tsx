import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listAuditEntries } from '@/lib/audit/audit-log';
import { requireSession } from '@/lib/server/web/session';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { AuditTable, utcTime } from '@/components/audit/audit-table';
import { AuditFilterForm, auditFiltersOf, nextPageHref } from '@/components/audit/audit-filters';

export const metadata: Metadata = { title: 'Audit log' };

export default async function AdminAuditLogPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await requireSession('admin');
  const { filters, echo } = auditFiltersOf(await searchParams);
  const entries = await listAuditEntries(getDb(), { merchantId: filters.seller }, filters);
  const next = nextPageHref('/admin/audit-log', echo, entries.nextCursor);
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Sign-ins, keys, webhook secrets, suspensions, refunds, two-factor and team changes of every seller and admin, newest first. Never holds a secret."
      />
      <AuditFilterForm action="/admin/audit-log" echo={echo} withSeller />
      {entries.data.length === 0 ? (
        <EmptyState title="No entries match" />
      ) : (
        <AuditTable entries={entries.data} formatTime={utcTime} sellerHref={(id) => `/admin/sellers/${id}`} />
      )}
      {next ? (
        <p className="mt-4">
          <Link href={next} className="text-brand-700 underline">
            Older entries
          </Link>
        </p>
      ) : null}
    </>
  );
}
