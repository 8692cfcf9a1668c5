import type { Metadata } from 'next';
import Link from 'next/link';
import { getDb } from '@/lib/db/client';
import { listAuditEntries } from '@/lib/audit/audit-log';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { EmptyState, PageHeader } from '@/components/ui/layout';
import { AuditTable } from '@/components/audit/audit-table';
import { AuditFilterForm, auditFiltersOf, nextPageHref } from '@/components/audit/audit-filters';
import { currentMerchant } from '../../../session';

export const metadata: Metadata = { title: 'Audit log' };

export default async function SellerAuditLogPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const merchant = await currentMerchant('audit:read');
  const { filters, echo } = auditFiltersOf(await searchParams);
  // The tenant comes from the session: a `seller` in the query is never read here.
  const entries = await listAuditEntries(getDb(), { merchantId: merchant.id }, filters);
  const { seller: _ignored, ...ownEcho } = echo;
  const next = nextPageHref('/merchant/settings/audit-log', ownEcho, entries.nextCursor);
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Sign-ins and failed sign-ins, API keys, webhook secrets, refunds, two-factor, team changes and suspensions of your account, with who did it, from which address and in which request. Never holds a secret."
      />
      <AuditFilterForm action="/merchant/settings/audit-log" echo={ownEcho} />
      {entries.data.length === 0 ? (
        <EmptyState title="No entries match" />
      ) : (
        <AuditTable entries={entries.data} formatTime={(at) => formatConsoleDateTime(at, merchant.timeZone)} />
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
