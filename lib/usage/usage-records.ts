import crypto from 'node:crypto';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { canonicalJson } from '../canonical-json';
import type { Db } from '../db/client';
import { queueUsageThresholdChecks } from './billing-thresholds';
import { usageRecords } from '../db/schema';
import { newId } from '../ids';
import { now } from '../clock';
import { recordEvents, type EventInput } from '../events/record-event';
import { ApiError, notFound } from '../errors';
import type { RecordUsageBody } from './schemas';
import { entitlementFor, resolveEntitlements, type CustomerEntitlements } from './resolve';
import { claimThresholds, consume, meterWrites, openMeters, type Draw, type Meter } from './meter';
import { toEntitlementResponse } from './entitlement-view';

export type UsageRow = typeof usageRecords.$inferSelect;
type UsageInput = z.output<typeof RecordUsageBody>;

export function toUsageRecordResponse(row: UsageRow, creditsUsed: number) {
  return {
    id: row.id,
    externalId: row.externalId,
    customerId: row.customerId,
    feature: row.feature,
    quantity: row.quantity,
    amount: row.amount,
    creditsUsed,
    periodKey: row.periodKey,
    properties: row.properties,
    timestamp: row.timestamp.toISOString(),
    reversedAt: row.reversedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export type UsageRecordResponseBody = ReturnType<typeof toUsageRecordResponse>;

/** What makes two records "the same" for deduplication: every field the producer sent but `id`. */
export function usageFingerprint(input: {
  customerId: string;
  feature: string;
  quantity: number;
  amount: number;
  timestamp?: Date;
  properties?: object;
}): string {
  const fields = { ...input, timestamp: input.timestamp?.toISOString() ?? null, properties: input.properties ?? {} };
  return crypto.createHash('sha256').update(canonicalJson(fields)).digest('base64url');
}

/** Rows with the credits each drew (a reversal gives back exactly those). */
export async function usageResponses(db: Db, found: UsageRow[]) {
  if (found.length === 0) return [];
  const credits = await db.execute<{ usage_id: string; units: number }>(
    sql`select usage_id, sum(units)::int as units from credit_draws where usage_id in ${sql`(${sql.join(
      found.map((r) => sql`${r.id}`),
      sql`, `,
    )})`} group by usage_id`,
  );
  const byId = new Map(credits.rows.map((row) => [row.usage_id, row.units]));
  return found.map((row) => toUsageRecordResponse(row, byId.get(row.id) ?? 0));
}

export async function findUsageByExternalId(db: Db, merchantId: string, externalIds: string[]) {
  if (externalIds.length === 0) return new Map<string, UsageRow>();
  const rows = await db
    .select()
    .from(usageRecords)
    .where(and(eq(usageRecords.merchantId, merchantId), inArray(usageRecords.externalId, externalIds)));
  return new Map(rows.map((row) => [row.externalId!, row]));
}

export function duplicateConflict(externalId: string) {
  return new ApiError('CONFLICT', `Usage '${externalId}' was already recorded with a different body.`, {
    errors: [{ path: 'id', message: 'Already used by another usage record.' }],
  });
}

interface NewUsage {
  row: UsageRow;
  input: UsageInput;
}

/** A usage row ready to insert, in the period its entitlement meters. */
export function newUsageRow(merchantId: string, resolved: CustomerEntitlements, input: UsageInput): NewUsage {
  const entitlement = entitlementFor(resolved, input.feature);
  return {
    input,
    row: {
      id: newId('usage'),
      merchantId,
      customerId: input.customerId,
      feature: input.feature,
      quantity: input.quantity,
      amount: input.amount,
      externalId: input.id ?? null,
      fingerprint: usageFingerprint(input),
      periodKey: entitlement.period.key,
      properties: input.properties ?? {},
      timestamp: input.timestamp ?? resolved.at,
      reversedAt: null,
      createdAt: now(),
    },
  };
}

/** The INSERT of usage rows, each column sent as one array (`unnest`): a thousand rows are twelve parameters. */
function usageInsert(rows: UsageRow[]): SQL {
  const column = <T>(pick: (row: UsageRow) => T) => sql.param(rows.map(pick));
  return sql`insert into usage_records (id, merchant_id, customer_id, feature, quantity, amount, external_id, fingerprint, period_key, properties, timestamp, created_at)
    select * from unnest(
      ${column((r) => r.id)}::text[], ${column((r) => r.merchantId)}::text[], ${column((r) => r.customerId)}::text[], ${column((r) => r.feature)}::text[],
      ${column((r) => r.quantity)}::int[], ${column((r) => r.amount)}::int[], ${column((r) => r.externalId)}::text[], ${column((r) => r.fingerprint)}::text[],
      ${column((r) => r.periodKey)}::text[], ${column((r) => JSON.stringify(r.properties))}::jsonb[], ${column((r) => r.timestamp.toISOString())}::timestamptz[],
      ${column((r) => r.createdAt.toISOString())}::timestamptz[])`;
}

/**
 * Inserts new usage rows in one statement; a producer id already recorded inserts nothing. Rows
 * are sorted by that id so concurrent batches wait on each other in one order, never in a cycle.
 */
export async function insertUsageRows(tx: Db, rows: UsageRow[]): Promise<UsageRow[]> {
  if (rows.length === 0) return [];
  const sorted = [...rows].sort((a, b) => (a.externalId ?? '').localeCompare(b.externalId ?? ''));
  const inserted = await tx.execute<{ id: string }>(sql`${usageInsert(sorted)}
    on conflict (merchant_id, external_id) where external_id is not null do nothing
    returning id`);
  const insertedIds = new Set(inserted.rows.map((row) => row.id));
  return sorted.filter((row) => insertedIds.has(row.id));
}

/** Which meter a usage row counts on: its customer's feature (in the period its entitlement meters). */
const meterKey = (customerId: string, feature: string) => `${customerId}\u0000${feature}`;

export type LockedMeters = Map<string, Meter>;

/**
 * Locks the meters that usage rows count on, one per customer and feature, in one statement in
 * sorted order (`held` is one the caller already locked). Everything that records usage locks its
 * meters **before** it inserts the usage rows (docs/usage.md, "Atomicity"): with one order, two
 * requests carrying the same producer id never each hold what the other waits for.
 */
export async function lockMeters(
  tx: Db,
  merchantId: string,
  resolvedByCustomer: Map<string, CustomerEntitlements>,
  rows: { customerId: string; feature: string }[],
  held?: Meter,
): Promise<LockedMeters> {
  const locked: LockedMeters = new Map();
  if (held) locked.set(meterKey(held.customerId, held.entitlement.feature), held);
  const wanted = new Map<string, { customerId: string; feature: string }>();
  for (const row of rows) {
    const key = meterKey(row.customerId, row.feature);
    if (!locked.has(key)) wanted.set(key, row);
  }
  const keys = [...wanted.keys()].sort();
  const requests = keys.map((key) => {
    const { customerId, feature } = wanted.get(key)!;
    const resolved = resolvedByCustomer.get(customerId)!;
    return { resolved, entitlement: entitlementFor(resolved, feature) };
  });
  const opened = await openMeters(tx, merchantId, requests);
  for (const [i, key] of keys.entries()) locked.set(key, opened[i]!);
  return locked;
}

/**
 * Meters usage rows on meters the caller locked (`lockMeters`) and records their events: the
 * counters, credits, draws, `usage.recorded` and any threshold events written in one statement.
 * With `insert`, the rows are not in the table yet and are inserted by that same statement (a
 * producer id taken meanwhile fails it with a unique violation). Returns each row's response.
 */
export async function meterUsageRows(tx: Db, merchantId: string, locked: LockedMeters, rows: UsageRow[], options: { insert?: boolean } = {}) {
  const groups = new Map<string, UsageRow[]>();
  for (const row of rows) {
    const key = meterKey(row.customerId, row.feature);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  const keys = [...groups.keys()].sort();
  const meters = keys.map((key) => {
    const meter = locked.get(key);
    if (!meter) throw new Error('Usage was metered on a meter its caller did not lock first.');
    return meter;
  });
  const responses = new Map<string, UsageRecordResponseBody>();
  const events: EventInput[] = [];
  const draws: { usageId: string; draw: Draw }[] = [];
  keys.forEach((key, i) => {
    for (const row of groups.get(key)!) {
      const rowDraws = consume(meters[i]!, row.quantity, row.amount);
      draws.push(...rowDraws.map((draw) => ({ usageId: row.id, draw })));
      const response = toUsageRecordResponse(
        row,
        rowDraws.reduce((sum, d) => sum + d.units, 0),
      );
      responses.set(row.id, response);
      events.push({ merchantId, type: 'usage.recorded', object: response });
    }
  });
  await claimThresholds(tx, meters, events);
  const writes = [options.insert && rows.length ? sql`new_usage as (${usageInsert(rows)})` : undefined, meterWrites(meters, draws)].filter(
    (w) => w !== undefined,
  );
  await recordEvents(tx, events, writes.length ? sql.join(writes, sql`, `) : undefined);
  return responses;
}

/**
 * Records one fact of usage: never refused (usage beyond the limit and credits is counted),
 * deduplicated by the producer's `id`: the same id and body again answers the original
 * (`created: false`), another body → 409. Emits `usage.recorded` and any threshold crossed.
 */
export async function recordUsage(tx: Db, merchantId: string, input: UsageInput) {
  const resolved = await resolveEntitlements(tx, merchantId, input.customerId, 'customerId');
  const resolvedByCustomer = new Map([[input.customerId, resolved]]);
  const locked = await lockMeters(tx, merchantId, resolvedByCustomer, [input]);
  const meter = locked.values().next().value!;
  const prepared = newUsageRow(merchantId, resolved, input);
  const [inserted] = await insertUsageRows(tx, [prepared.row]);
  if (!inserted) {
    const existing = (await findUsageByExternalId(tx, merchantId, [input.id!])).get(input.id!)!;
    if (existing.fingerprint !== prepared.row.fingerprint) throw duplicateConflict(input.id!);
    const [usage] = await usageResponses(tx, [existing]);
    return { created: false, usage: usage!, entitlement: toEntitlementResponse(meter) };
  }
  const responses = await meterUsageRows(tx, merchantId, locked, [inserted]);
  await queueUsageThresholdChecks(tx, merchantId, [inserted.customerId]);
  return { created: true, usage: responses.get(inserted.id)!, entitlement: toEntitlementResponse(meter) };
}

/**
 * Gives back what a usage record took: its units to its period's counter and its credits to
 * the grants they came from; `usage.reversed`. A record is reversed once (again → 409).
 */
export async function reverseUsage(tx: Db, merchantId: string, usageId: string) {
  const [row] = await tx
    .select()
    .from(usageRecords)
    .where(and(eq(usageRecords.id, usageId), eq(usageRecords.merchantId, merchantId)))
    .for('update');
  if (!row) throw notFound('usage record', usageId);
  if (row.reversedAt) throw new ApiError('INVALID_STATE', `Usage record ${usageId} was already reversed at ${row.reversedAt.toISOString()}.`);
  await tx.execute(sql`update usage_counters set used = used - ${row.quantity}, spent = spent - ${row.amount}, updated_at = ${now().toISOString()}
    where customer_id = ${row.customerId} and feature = ${row.feature} and period_key = ${row.periodKey}`);
  await tx.execute(sql`update credit_grants g set remaining = g.remaining + d.units from credit_draws d where d.usage_id = ${row.id} and g.id = d.grant_id`);
  const [reversed] = await tx
    .update(usageRecords)
    .set({ reversedAt: now() })
    .where(and(eq(usageRecords.id, row.id), eq(usageRecords.merchantId, merchantId)))
    .returning();
  const [usage] = await usageResponses(tx, [reversed!]);
  await recordEvents(tx, [{ merchantId, type: 'usage.reversed', object: usage! }]);
  return usage!;
}
