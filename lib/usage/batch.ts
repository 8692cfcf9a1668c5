import type { z } from 'zod';
import type { Db } from '../db/client';
import { queueUsageThresholdChecks } from './billing-thresholds';
import type { RecordUsageBatchBody } from './schemas';
import { resolveCustomersEntitlements, type CustomerEntitlements } from './resolve';
import { findUsageByExternalId, insertUsageRows, lockMeters, meterUsageRows, newUsageRow, usageResponses, type UsageRecordResponseBody } from './usage-records';

interface BatchItem {
  index: number;
  id: string;
  status: number;
  usage: UsageRecordResponseBody | null;
  error: string | null;
}

/**
 * Records up to 1,000 usage facts in one transaction with one answer each: one locked meter per
 * customer and feature, then one multi-row INSERT … ON CONFLICT DO NOTHING that dedupes against
 * every earlier record (and within the batch); the meters count what is new. Unknown customers are
 * answered 404 without failing the others.
 */
export async function recordUsageBatch(tx: Db, merchantId: string, body: z.output<typeof RecordUsageBatchBody>) {
  const records = body.records;
  const customerIds = [...new Set(records.map((r) => r.customerId))];
  const resolved = new Map<string, CustomerEntitlements>((await resolveCustomersEntitlements(tx, merchantId, customerIds)).map((r) => [r.customerId, r]));

  const prepared = records.map((record) => (resolved.has(record.customerId) ? newUsageRow(merchantId, resolved.get(record.customerId)!, record) : null));
  const rows = prepared.flatMap((p) => (p ? [p.row] : []));
  // The meters first, then the rows: the one lock order of everything that records usage.
  const locked = await lockMeters(tx, merchantId, resolved, rows);
  const inserted = await insertUsageRows(tx, rows);
  const insertedIds = new Set(inserted.map((row) => row.id));
  const responses = await meterUsageRows(tx, merchantId, locked, inserted);
  await queueUsageThresholdChecks(tx, merchantId, [...new Set(inserted.map((row) => row.customerId))]);

  const duplicateIds = prepared.flatMap((p) => (p && !insertedIds.has(p.row.id) ? [p.row.externalId!] : []));
  const existing = await findUsageByExternalId(tx, merchantId, duplicateIds);
  const existingResponses = new Map((await usageResponses(tx, [...existing.values()])).map((u) => [u.externalId!, u]));
  const data: BatchItem[] = records.map((record, index) => {
    const item = prepared[index];
    if (!item) return { index, id: record.id, status: 404, usage: null, error: `No customer ${record.customerId}.` };
    if (insertedIds.has(item.row.id)) {
      return { index, id: record.id, status: 201, usage: responses.get(item.row.id)!, error: null };
    }
    const original = existing.get(record.id) ?? inserted.find((row) => row.externalId === record.id)!;
    if (original.fingerprint !== item.row.fingerprint) {
      return { index, id: record.id, status: 409, usage: null, error: `Usage '${record.id}' was already recorded with a different body.` };
    }
    return { index, id: record.id, status: 200, usage: existingResponses.get(record.id) ?? responses.get(original.id)!, error: null };
  });
  return {
    data,
    recorded: data.filter((item) => item.status === 201).length,
    duplicates: data.filter((item) => item.status === 200).length,
    failed: data.filter((item) => item.status >= 400).length,
  };
}
