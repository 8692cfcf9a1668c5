import { and, asc, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { customers, payments, subscriptions } from '../db/schema';
import { decimalAmount, toCsv } from './csv';

export const EXPORT_KINDS = ['payments', 'customers', 'subscriptions'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** At most this many rows per file; a larger range is cut (the file says so in its name). */
export const EXPORT_LIMIT = 200_000;

export interface ExportRange {
  from?: Date;
  to?: Date;
}

const within = (column: typeof payments.createdAt | typeof customers.createdAt | typeof subscriptions.createdAt, range: ExportRange): SQL[] => [
  ...(range.from ? [gte(column, range.from)] : []),
  ...(range.to ? [lte(column, range.to)] : []),
];

/** One seller's rows created in the range, oldest first, as CSV (times in UTC ISO 8601). */
export async function exportCsv(db: Db, merchantId: string, kind: ExportKind, range: ExportRange): Promise<{ csv: string; rows: number }> {
  if (kind === 'payments') {
    const rows = await db
      .select()
      .from(payments)
      .where(and(eq(payments.merchantId, merchantId), ...within(payments.createdAt, range)))
      .orderBy(asc(payments.createdAt))
      .limit(EXPORT_LIMIT);
    return {
      rows: rows.length,
      csv: toCsv(
        ['id', 'created_at', 'status', 'amount', 'amount_refunded', 'currency', 'customer_id', 'description', 'card_brand', 'card_last4', 'failure_code'],
        rows.map((p) => [
          p.id,
          p.createdAt.toISOString(),
          p.status,
          decimalAmount(p.amount, p.currency),
          decimalAmount(p.amountRefunded, p.currency),
          p.currency,
          p.customerId,
          p.description,
          p.cardBrand,
          p.cardLast4,
          p.failureCode,
        ]),
      ),
    };
  }
  if (kind === 'customers') {
    const rows = await db
      .select()
      .from(customers)
      .where(and(eq(customers.merchantId, merchantId), ...within(customers.createdAt, range)))
      .orderBy(asc(customers.createdAt))
      .limit(EXPORT_LIMIT);
    return {
      rows: rows.length,
      csv: toCsv(
        ['id', 'created_at', 'email', 'name', 'external_id', 'status', 'metadata'],
        rows.map((c) => [c.id, c.createdAt.toISOString(), c.email, c.name, c.externalId, c.status, JSON.stringify(c.metadata)]),
      ),
    };
  }
  const rows = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.merchantId, merchantId), ...within(subscriptions.createdAt, range)))
    .orderBy(asc(subscriptions.createdAt))
    .limit(EXPORT_LIMIT);
  return {
    rows: rows.length,
    csv: toCsv(
      [
        'id',
        'created_at',
        'status',
        'customer_id',
        'price_id',
        'current_period_start',
        'current_period_end',
        'cancel_at_period_end',
        'canceled_at',
        'ended_at',
      ],
      rows.map((s) => [
        s.id,
        s.createdAt.toISOString(),
        s.status,
        s.customerId,
        s.priceId,
        s.currentPeriodStart.toISOString(),
        s.currentPeriodEnd.toISOString(),
        s.cancelAtPeriodEnd,
        s.canceledAt?.toISOString(),
        s.endedAt?.toISOString(),
      ]),
    ),
  };
}
