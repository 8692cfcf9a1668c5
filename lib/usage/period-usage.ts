import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

export type UsageAggregation = 'sum' | 'max' | 'last' | 'unique';

export interface PeriodUsage {
  /** The period's quantity under the aggregation. */
  quantity: number;
  /** Units of those records that usage credits paid for when they were recorded (credit draws). */
  creditedUnits: number;
}

/**
 * One customer's usage of a feature in `[from, to)` (by the records' `timestamp`), reversed
 * records left out: `sum` of quantities, the `max` quantity, the `last` record's quantity, or the
 * number of distinct values of `properties[property]` (`unique`; records without it not counted).
 * One statement, on the (customer, feature, timestamp) index.
 */
export async function aggregatePeriodUsage(
  db: Db,
  input: { merchantId: string; customerId: string; feature: string; from: Date; to: Date; aggregation: UsageAggregation; property: string | null },
): Promise<PeriodUsage> {
  const inPeriod = sql`u.merchant_id = ${input.merchantId} and u.customer_id = ${input.customerId} and u.feature = ${input.feature}
    and u.timestamp >= ${input.from.toISOString()} and u.timestamp < ${input.to.toISOString()} and u.reversed_at is null`;
  const quantity = {
    sum: sql`(select coalesce(sum(u.quantity), 0) from usage_records u where ${inPeriod})`,
    max: sql`(select coalesce(max(u.quantity), 0) from usage_records u where ${inPeriod})`,
    last: sql`coalesce((select u.quantity from usage_records u where ${inPeriod} order by u.timestamp desc, u.created_at desc, u.id desc limit 1), 0)`,
    unique: sql`(select count(distinct u.properties ->> ${input.property ?? ''}) from usage_records u where ${inPeriod})`,
  }[input.aggregation];
  const result = await db.execute<{ quantity: string | number; credited: string | number }>(sql`
    select ${quantity}::bigint as quantity,
      (select coalesce(sum(d.units), 0) from credit_draws d join usage_records u on u.id = d.usage_id where ${inPeriod})::bigint as credited`);
  const row = result.rows[0]!;
  return { quantity: Number(row.quantity), creditedUnits: Number(row.credited) };
}
