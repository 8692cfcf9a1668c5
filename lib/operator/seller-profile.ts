import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { notFound } from '../errors';
import { findMerchantById } from '../merchants/merchants';
import { listApiKeys } from '../auth/api-keys';
import { loadOverview } from '../reports/overview';
import { listRequestLogs } from '../request-logs/request-logs';
import { listSuspensionHistory } from '../audit/audit-log';

const RECENT = 15;
const HEALTH_WINDOW_DAYS = 7;

export interface EndpointHealth {
  id: string;
  url: string;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  secretPrefix: string;
  delivered: number;
  retrying: number;
  dead: number;
  pending: number;
}

/**
 * What the platform admin's seller page shows: the account, its volume and payment outcomes
 * over 30 UTC days (the seller overview's own queries), its keys by prefix, its endpoints with
 * the last 7 days of delivery outcomes, its recent requests and failures, and its suspension
 * history from the audit log. Every query is bounded by the seller.
 */
export async function loadSellerProfile(db: Db, merchantId: string, at: Date) {
  const merchant = await findMerchantById(db, merchantId);
  if (!merchant) throw notFound('merchant', merchantId);
  const since = new Date(at.getTime() - HEALTH_WINDOW_DAYS * 86_400_000);
  const [overview, keys, endpoints, requests, failures, suspensions] = await Promise.all([
    loadOverview(db, merchantId, { range: '30d', timeZone: 'UTC', at }),
    listApiKeys(db, merchantId),
    db.execute<{
      id: string;
      url: string;
      enabled: boolean;
      disabled_reason: string | null;
      failing_since: string | null;
      secret_prefix: string;
      delivered: number;
      retrying: number;
      dead: number;
      pending: number;
    }>(sql`
      select e.id, e.url, e.enabled, e.disabled_reason, e.failing_since, e.secret_prefix,
        count(d.id) filter (where d.status = 'delivered')::int as delivered,
        count(d.id) filter (where d.status = 'failed')::int as retrying,
        count(d.id) filter (where d.status = 'dead')::int as dead,
        count(d.id) filter (where d.status = 'pending')::int as pending
      from webhook_endpoints e
      left join webhook_deliveries d on d.endpoint_id = e.id and d.merchant_id = e.merchant_id and d.created_at >= ${since}
      where e.merchant_id = ${merchantId}
      group by e.id
      order by e.created_at desc`),
    listRequestLogs(db, merchantId, {}, RECENT),
    listRequestLogs(db, merchantId, { failed: true }, RECENT),
    listSuspensionHistory(db, merchantId),
  ]);
  return {
    merchant,
    overview,
    // Prefixes only: the secret was shown once at creation and only its hash is kept.
    apiKeys: keys.map(({ id, name, prefix, scopes, createdAt, lastUsedAt, revokedAt }) => ({ id, name, prefix, scopes, createdAt, lastUsedAt, revokedAt })),
    endpoints: endpoints.rows.map(
      (row): EndpointHealth => ({
        id: row.id,
        url: row.url,
        enabled: row.enabled,
        disabledReason: row.disabled_reason,
        failingSince: row.failing_since ? new Date(row.failing_since) : null,
        secretPrefix: row.secret_prefix,
        delivered: row.delivered,
        retrying: row.retrying,
        dead: row.dead,
        pending: row.pending,
      }),
    ),
    recentRequests: requests.data,
    recentFailures: failures.data,
    suspensions,
  };
}

export type SellerProfile = Awaited<ReturnType<typeof loadSellerProfile>>;
