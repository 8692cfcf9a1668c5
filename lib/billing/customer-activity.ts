import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { billingRecords, EVENT_CUSTOMER_ID, events, payments, prices, products, refunds, type BillingLineItem } from '../db/schema';
import { toBillingRecordResponse } from './billing-records';
import { toRefundResponse } from '../payments/refund-response';
import { creditNotesByInvoice } from '../payments/credit-notes';
import type { PriceRow } from '../catalog/prices';

// What the console's customer page shows beside the customer: the newest few of each kind,
// always within the seller (every query filters by merchant and customer, on an index).

/** The customer's refunds (through their payments), newest first. */
export async function listCustomerRefunds(db: Db, merchantId: string, customerId: string, limit: number) {
  const rows = await db
    .select({ refund: refunds })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(and(eq(refunds.merchantId, merchantId), eq(payments.merchantId, merchantId), eq(payments.customerId, customerId)))
    .orderBy(desc(refunds.createdAt), desc(refunds.id))
    .limit(limit);
  return rows.map(({ refund }) => toRefundResponse(refund));
}

/** The customer's billing records (what they were billed for: checkouts, renewals), newest first, each with its credit notes. */
export async function listCustomerBillingRecords(db: Db, merchantId: string, customerId: string, limit: number) {
  const rows = await db
    .select()
    .from(billingRecords)
    .where(and(eq(billingRecords.merchantId, merchantId), eq(billingRecords.customerId, customerId)))
    .orderBy(desc(billingRecords.createdAt), desc(billingRecords.id))
    .limit(limit);
  const notes = await creditNotesByInvoice(db, merchantId, rows);
  return rows.map((row) => ({ ...toBillingRecordResponse(row), creditNotes: notes.get(row.id) ?? [] }));
}

/**
 * Events about the customer, newest first: those whose object names the customer (payments,
 * subscriptions, billing records…) and the customer's own `customer.*` events.
 */
export async function listCustomerEvents(db: Db, merchantId: string, customerId: string, limit: number) {
  return db
    .select({ id: events.id, type: events.type, createdAt: events.createdAt })
    .from(events)
    .where(and(eq(events.merchantId, merchantId), sql`${EVENT_CUSTOMER_ID} = ${customerId}`))
    .orderBy(desc(events.createdAt), desc(events.id))
    .limit(limit);
}

/** Product name and price of each price id (for naming a customer's subscriptions). */
export async function describePrices(db: Db, merchantId: string, priceIds: readonly string[]) {
  if (priceIds.length === 0) return new Map<string, PriceRow & { productName: string }>();
  const rows = await db
    .select({ price: prices, productName: products.name })
    .from(prices)
    .innerJoin(products, eq(products.id, prices.productId))
    .where(and(eq(prices.merchantId, merchantId), inArray(prices.id, [...new Set(priceIds)])));
  return new Map(rows.map(({ price, productName }) => [price.id, { ...price, productName }]));
}

/** The lines of the seller's billing records `ids`, by record id (the consoles show them under each record). */
export async function billingRecordLines(db: Db, merchantId: string, ids: readonly string[]) {
  if (ids.length === 0) return new Map<string, BillingLineItem[]>();
  const rows = await db
    .select({ id: billingRecords.id, lineItems: billingRecords.lineItems })
    .from(billingRecords)
    .where(and(eq(billingRecords.merchantId, merchantId), inArray(billingRecords.id, [...new Set(ids)])));
  return new Map(rows.map((row) => [row.id, row.lineItems]));
}
