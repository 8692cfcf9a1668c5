import { and, count, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { billingRecords, customers, merchants } from '../db/schema';
import { formatMoney } from '../money/format';
import { numberedPage } from '../db/paginate';
import { invoicePath, invoicePdfPath } from '../billing/billing-records';

/**
 * A wallet member's invoices with every seller (those of each seller's customer with the
 * member's verified email), newest first, voided ones left out, with links to each hosted
 * invoice and its PDF.
 */
export async function listWalletInvoices(db: Db, email: string, query: { page: number; pageSize: number }) {
  const where = and(sql`lower(${customers.email}) = ${email.toLowerCase()}`, ne(billingRecords.status, 'void'));
  const [rows, [total]] = await Promise.all([
    db
      .select({ record: billingRecords, sellerName: merchants.name })
      .from(billingRecords)
      .innerJoin(customers, eq(customers.id, billingRecords.customerId))
      .innerJoin(merchants, eq(merchants.id, billingRecords.merchantId))
      .where(where)
      .orderBy(desc(billingRecords.createdAt), desc(billingRecords.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ value: count() }).from(billingRecords).innerJoin(customers, eq(customers.id, billingRecords.customerId)).where(where),
  ]);
  return numberedPage(
    rows.map(({ record, sellerName }) => ({
      id: record.id,
      sellerName,
      description: record.description,
      status: record.status,
      amount: formatMoney(record.amount, record.currency),
      date: (record.paidAt ?? record.createdAt).toISOString().slice(0, 10),
      invoicePath: invoicePath(record.hostedToken),
      invoicePdfPath: invoicePdfPath(record.hostedToken),
    })),
    query,
    total?.value ?? 0,
  );
}
