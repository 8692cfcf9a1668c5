import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { findRequestLog } from '@/lib/request-logs/request-logs';
import { formatConsoleDateTime } from '@/lib/server/web/console-time';
import { Card, DescriptionList, PageHeader } from '@/components/ui/layout';
import { currentMerchant } from '../../../../session';
import { HttpStatusBadge } from '../status-badge';
import { ScrollRegion } from '@/components/ui/scroll-region';

export const metadata: Metadata = { title: 'Request' };

function Body({ title, body }: { title: string; body: string | null }) {
  let pretty = body;
  try {
    pretty = body ? JSON.stringify(JSON.parse(body), null, 2) : body;
  } catch {
    // Not JSON (or cut at the size limit): shown as stored.
  }
  return (
    <Card title={title}>
      {pretty ? (
        <ScrollRegion as="pre" label={title} className="max-h-96 overflow-auto rounded bg-slate-50 p-3 text-xs whitespace-pre-wrap break-all">
          {pretty}
        </ScrollRegion>
      ) : (
        <p className="text-sm text-slate-600">Empty.</p>
      )}
    </Card>
  );
}

export default async function RequestLogPage({ params }: { params: Promise<{ requestId: string }> }) {
  const merchant = await currentMerchant('developers:read');
  const { requestId } = await params;
  const entry = await findRequestLog(getDb(), merchant.id, requestId);
  if (!entry) notFound();
  const failed = entry.status >= 400;
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/merchant/developers/logs" className="text-brand-700 hover:underline">
          ← Logs
        </Link>
      </p>
      <PageHeader title={`${entry.method} ${entry.path}`} description={<span className="font-mono">{entry.requestId}</span>} />
      <Card title="Request">
        <DescriptionList
          items={[
            ['Status', <HttpStatusBadge key="s" status={entry.status} />],
            ['Time', formatConsoleDateTime(entry.createdAt, merchant.timeZone)],
            ['Duration', `${entry.durationMs} ms`],
            ['API key', entry.apiKeyName ?? '—'],
            ['Idempotency key', entry.idempotencyKey ? `${entry.idempotencyKey}${entry.replayed ? ' (replayed answer)' : ''}` : '—'],
          ]}
        />
      </Card>
      {failed ? (
        <div className="mt-4 grid gap-4 lg:grid-cols-2">
          <Body title="Request body" body={entry.requestBody} />
          <Body title="Response body" body={entry.responseBody} />
        </div>
      ) : (
        <p className="mt-4 text-sm text-slate-600">Bodies are kept only for failed requests (status 400 and above).</p>
      )}
    </>
  );
}
