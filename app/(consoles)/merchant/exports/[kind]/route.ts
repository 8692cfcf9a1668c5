import { getDb } from '@/lib/db/client';
import { ApiError } from '@/lib/errors';
import { httpStatusOf } from '@/lib/http/problem';
import { EXPORT_KINDS, exportCsv } from '@/lib/exports/exports';
import { parseDayBound } from '@/lib/server/web/form-dates';
import { sellerAction } from '../../session';

/**
 * `GET /merchant/exports/{payments|customers|subscriptions}.csv?from=YYYY-MM-DD&to=YYYY-MM-DD`
 * (UTC days): a download for the signed-in seller. Every role that opens the console may export
 * what the console shows it (`view`).
 */
export async function GET(request: Request, { params }: { params: Promise<{ kind: string }> }) {
  const file = decodeURIComponent((await params).kind);
  const kind = EXPORT_KINDS.find((k) => `${k}.csv` === file);
  if (!kind) return new Response('Not found', { status: 404 });
  let merchantId: string;
  try {
    ({ merchantId } = await sellerAction('view'));
  } catch (error) {
    if (error instanceof ApiError) return new Response(error.detail, { status: httpStatusOf(error) });
    throw error;
  }
  const url = new URL(request.url);
  const from = parseDayBound(url.searchParams.get('from') ?? undefined, 'start');
  const to = parseDayBound(url.searchParams.get('to') ?? undefined, 'end');
  const { csv } = await exportCsv(getDb(), merchantId, kind, { from, to });
  const name = `${kind}${from ? `-from-${url.searchParams.get('from')}` : ''}${to ? `-to-${url.searchParams.get('to')}` : ''}.csv`;
  return new Response(csv, {
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${name}"`, 'cache-control': 'no-store' },
  });
}
