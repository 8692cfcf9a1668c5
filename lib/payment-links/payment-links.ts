import crypto from 'node:crypto';
import { and, eq, gt, inArray, isNull, lte, or, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { merchants, paymentLinks, products } from '../db/schema';
import { paginate, mapPage, type PageRequest } from '../db/paginate';
import { newId } from '../ids';
import { now } from '../clock';
import { config } from '../config';
import { recordEvent, recordUpdated } from '../events/record-event';
import { ApiError, invalidField, notFound } from '../errors';
import { INT32_MAX } from '../http/schemas';
import { findPriceRow, refuseMetered } from '../catalog/prices';
import { resolveMeteredItems } from '../catalog/metered-items';
import { assertCheckoutDesignExists } from '../designs/designs';
import { type CreatePaymentLinkBody, DEFAULT_MAXIMUM_QUANTITY, type PAYMENT_LINK_STATUSES, type UpdatePaymentLinkBody } from './schemas';
import { paymentLinkStateMachine } from './payment-link-states';

export type PaymentLinkRow = typeof paymentLinks.$inferSelect;
export type PaymentLinkStatus = (typeof PAYMENT_LINK_STATUSES)[number];

/** `expired` is derived at read time, so a link expires exactly at `expiresAt` without a job. */
export function paymentLinkStatus(row: PaymentLinkRow, at = now()): PaymentLinkStatus {
  if (row.status === 'archived' || row.status === 'completed') return row.status;
  if (row.expiresAt && row.expiresAt <= at) return 'expired';
  return row.status;
}

/** Why a link cannot be paid, in words for the customer; undefined when it can. */
export function unpayableReason(row: PaymentLinkRow, at = now()): string | undefined {
  switch (paymentLinkStatus(row, at)) {
    case 'active':
      return undefined;
    case 'disabled':
      return 'This payment link has been turned off by the seller.';
    case 'archived':
      return 'This payment link has been archived by the seller and can no longer be paid.';
    case 'completed':
      return row.singleUse
        ? 'This payment link could be paid once, and it has already been paid.'
        : 'This payment link has reached its maximum number of payments.';
    case 'expired':
      return `This payment link expired on ${row.expiresAt!.toISOString().slice(0, 10)}.`;
  }
}

/**
 * A used-up link whose slot a payment still in progress holds (the checkout domain knows which):
 * not "already paid", as that payment may yet fail and give the slot back.
 */
export function paymentLinkBeingPaid(): ApiError {
  return new ApiError('CONFLICT', 'This payment link is being paid by someone else right now; try again in a moment.', {
    retryAfterSeconds: 1,
    extra: { reason: LINK_BEING_PAID },
  });
}

export const LINK_BEING_PAID = 'payment_link_being_paid';

export function paymentLinkUrl(token: string): string {
  return `${config.publicUrl}/pay/${token}`;
}

export function toPaymentLinkResponse(row: PaymentLinkRow) {
  return {
    id: row.id,
    token: row.token,
    url: paymentLinkUrl(row.token),
    status: paymentLinkStatus(row),
    priceId: row.priceId,
    items: row.items.map((item) => ({ priceId: item.priceId })),
    name: row.name,
    description: row.description,
    unitAmount: row.unitAmount,
    amount: row.unitAmount * row.quantity,
    currency: row.currency,
    quantity: row.quantity,
    adjustableQuantity: {
      enabled: row.quantityMinimum !== null,
      minimum: row.quantityMinimum ?? 1,
      maximum: row.quantityMaximum ?? DEFAULT_MAXIMUM_QUANTITY,
    },
    singleUse: row.singleUse,
    maxCompletions: row.maxCompletions,
    completionCount: row.completionCount,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    successUrl: row.successUrl,
    designId: row.designId,
    metadata: row.metadata,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function newToken(): string {
  return crypto.randomBytes(18).toString('base64url');
}

function assertLineFits(unitAmount: number, quantity: number, path: string) {
  if (unitAmount * quantity > INT32_MAX) throw invalidField(path, `unitAmount × quantity must not exceed ${INT32_MAX} minor units.`);
}

type AdjustableQuantityInput = z.output<typeof CreatePaymentLinkBody>['adjustableQuantity'];

/** The stored bounds of a customer-chosen quantity, checked against the link's quantity and line. */
function quantityBounds(
  adjustable: NonNullable<AdjustableQuantityInput>,
  link: { quantity: number; unitAmount: number; recurring: boolean },
): { quantityMinimum: number | null; quantityMaximum: number | null } {
  if (!adjustable.enabled) return { quantityMinimum: null, quantityMaximum: null };
  if (link.recurring)
    throw invalidField('adjustableQuantity.enabled', 'A subscription is bought one at a time: only one-time links take an adjustable quantity.');
  const minimum = adjustable.minimum ?? 1;
  const maximum = adjustable.maximum ?? Math.max(DEFAULT_MAXIMUM_QUANTITY, link.quantity);
  if (minimum > maximum) throw invalidField('adjustableQuantity.minimum', 'minimum must not exceed maximum.');
  if (link.quantity < minimum || link.quantity > maximum) {
    throw invalidField('quantity', `The link's quantity (${link.quantity}) must lie between the adjustable minimum (${minimum}) and maximum (${maximum}).`);
  }
  assertLineFits(link.unitAmount, maximum, 'adjustableQuantity.maximum');
  return { quantityMinimum: minimum, quantityMaximum: maximum };
}

export async function createPaymentLink(tx: Db, merchantId: string, input: z.output<typeof CreatePaymentLinkBody>) {
  const at = now();
  if (input.expiresAt && input.expiresAt <= at) throw invalidField('expiresAt', 'expiresAt must be in the future.');
  if (input.designId) await assertCheckoutDesignExists(tx, merchantId, input.designId);
  let item: { priceId: string | null; items: { priceId: string }[]; name: string; description: string | null; unitAmount: number; currency: string };
  let recurring = false;
  if (input.priceId) {
    const price = await findPriceRow(tx, merchantId, input.priceId, 'priceId');
    if (!price.active) throw invalidField('priceId', `Price ${price.id} is inactive.`);
    refuseMetered(price, 'priceId');
    const items = input.items ?? [];
    if (items.length > 0 && price.type !== 'Recurring') throw invalidField('items', `Price ${price.id} is one-time: metered items join a subscription.`);
    const metered = await resolveMeteredItems(tx, merchantId, price, items);
    recurring = price.type === 'Recurring';
    const [product] = await tx
      .select()
      .from(products)
      .where(and(eq(products.id, price.productId), eq(products.merchantId, merchantId)));
    item = {
      priceId: price.id,
      items: metered.map((meteredPrice) => ({ priceId: meteredPrice.id })),
      name: input.name ?? product!.name,
      description: input.description ?? product!.description,
      unitAmount: price.amount,
      currency: price.currency,
    };
  } else {
    item = {
      priceId: null,
      items: [],
      name: input.name!,
      description: input.description ?? null,
      unitAmount: input.unitAmount ?? input.amount! / input.quantity,
      currency: input.currency!,
    };
  }
  assertLineFits(item.unitAmount, input.quantity, 'quantity');
  const bounds = input.adjustableQuantity ? quantityBounds(input.adjustableQuantity, { ...item, quantity: input.quantity, recurring }) : {};
  const [row] = await tx
    .insert(paymentLinks)
    .values({
      id: newId('paymentLink'),
      merchantId,
      token: newToken(),
      status: paymentLinkStateMachine.start('active'),
      ...item,
      quantity: input.quantity,
      ...bounds,
      singleUse: input.singleUse,
      maxCompletions: input.singleUse ? 1 : (input.maxCompletions ?? null),
      expiresAt: input.expiresAt ?? null,
      successUrl: input.successUrl ?? null,
      designId: input.designId ?? null,
      metadata: input.metadata,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  const link = toPaymentLinkResponse(row!);
  await recordEvent(tx, { merchantId, type: 'payment_link.created', object: link });
  return link;
}

export async function findPaymentLinkRow(db: Db, merchantId: string, paymentLinkId: string, options: { forUpdate?: boolean } = {}) {
  const query = db
    .select()
    .from(paymentLinks)
    .where(and(eq(paymentLinks.id, paymentLinkId), eq(paymentLinks.merchantId, merchantId)));
  const [row] = options.forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('payment link', paymentLinkId);
  return row;
}

export async function getPaymentLink(db: Db, merchantId: string, paymentLinkId: string) {
  return toPaymentLinkResponse(await findPaymentLinkRow(db, merchantId, paymentLinkId));
}

export async function findPaymentLinkByToken(db: Db, merchantId: string, token: string, fieldPath?: string) {
  const [row] = await db
    .select()
    .from(paymentLinks)
    .where(and(eq(paymentLinks.token, token), eq(paymentLinks.merchantId, merchantId)));
  if (!row)
    throw new ApiError(
      'NOT_FOUND',
      `No payment link with token '${token}'.`,
      fieldPath ? { errors: [{ path: fieldPath, message: 'Unknown payment link token.' }] } : {},
    );
  return row;
}

/** For the public hosted page: the token is the only credential, so any merchant's link is found. */
export async function findPublicPaymentLink(db: Db, token: string) {
  if (!/^[A-Za-z0-9_-]{8,64}$/.test(token)) return undefined;
  const [row] = await db
    .select({ link: paymentLinks, sellerName: merchants.name, sellerStatus: merchants.status, collectBillingAddress: merchants.collectBillingAddress })
    .from(paymentLinks)
    .innerJoin(merchants, eq(merchants.id, paymentLinks.merchantId))
    .where(eq(paymentLinks.token, token));
  return row;
}

function statusFilter(status: PaymentLinkStatus | undefined, at: Date): SQL | undefined {
  const unexpired = or(isNull(paymentLinks.expiresAt), gt(paymentLinks.expiresAt, at));
  switch (status) {
    case undefined:
      return undefined;
    case 'archived':
    case 'completed':
      return eq(paymentLinks.status, status);
    case 'expired':
      return and(inArray(paymentLinks.status, ['active', 'disabled']), lte(paymentLinks.expiresAt, at));
    default:
      return and(eq(paymentLinks.status, status), unexpired);
  }
}

export async function listPaymentLinks(
  db: Db,
  merchantId: string,
  query: PageRequest & { orderBy: 'createdAt' | 'name'; status?: PaymentLinkStatus; priceId?: string },
) {
  const page = await paginate(db, paymentLinks, {
    ...query,
    scope: [eq(paymentLinks.merchantId, merchantId)],
    where: [statusFilter(query.status, now()), query.priceId ? eq(paymentLinks.priceId, query.priceId) : undefined],
    orderBy: [query.orderBy === 'name' ? paymentLinks.name : paymentLinks.createdAt, paymentLinks.id],
  });
  return mapPage(page, toPaymentLinkResponse);
}

export async function updatePaymentLink(tx: Db, merchantId: string, paymentLinkId: string, input: z.output<typeof UpdatePaymentLinkBody>) {
  const current = await findPaymentLinkRow(tx, merchantId, paymentLinkId, { forUpdate: true });
  paymentLinkStateMachine.assertNotFinal(current.status, `Cannot update payment link ${current.id}`, `it is ${current.status}`);
  if (input.expiresAt && input.expiresAt <= now()) throw invalidField('expiresAt', 'expiresAt must be in the future (or null for no expiry).');
  if (input.maxCompletions !== undefined && current.singleUse && input.maxCompletions !== 1) {
    throw invalidField('maxCompletions', 'A single-use link completes once.');
  }
  if (input.maxCompletions != null && input.maxCompletions < current.completionCount) {
    throw invalidField('maxCompletions', `The link has already been completed ${current.completionCount} times.`);
  }
  if (input.quantity !== undefined) assertLineFits(current.unitAmount, input.quantity, 'quantity');
  const { adjustableQuantity, ...fields } = input;
  const quantity = input.quantity ?? current.quantity;
  const bounds = adjustableQuantity
    ? quantityBounds(adjustableQuantity, {
        quantity,
        unitAmount: current.unitAmount,
        recurring: current.priceId !== null && (await findPriceRow(tx, merchantId, current.priceId)).type === 'Recurring',
      })
    : { quantityMinimum: current.quantityMinimum, quantityMaximum: current.quantityMaximum };
  if (bounds.quantityMinimum !== null && (quantity < bounds.quantityMinimum || quantity > bounds.quantityMaximum!)) {
    throw invalidField('quantity', `quantity must lie between the adjustable minimum (${bounds.quantityMinimum}) and maximum (${bounds.quantityMaximum}).`);
  }
  if (input.designId) await assertCheckoutDesignExists(tx, merchantId, input.designId);
  const maxCompletions = input.maxCompletions === undefined ? current.maxCompletions : input.maxCompletions;
  // Raising or removing the limit reopens a used-up link; lowering it to the count closes it.
  let status = current.status;
  const usedUp = maxCompletions !== null && current.completionCount >= maxCompletions;
  if (status === 'completed' && !usedUp) status = 'active';
  if (status === 'active' && usedUp) status = 'completed';
  if (status !== current.status) paymentLinkStateMachine.assertTransition(current.status, status, `Payment link ${current.id}`);
  const [row] = await tx
    .update(paymentLinks)
    .set({ ...fields, ...bounds, status, updatedAt: now() })
    .where(and(eq(paymentLinks.id, current.id), eq(paymentLinks.merchantId, merchantId)))
    .returning();
  const link = toPaymentLinkResponse(row!);
  await recordUpdated(tx, { merchantId, type: 'payment_link.updated', before: toPaymentLinkResponse(current), after: link });
  return link;
}

/** What each action does; Enable reopens a disabled link only (a completed one reopens by itself). */
const LINK_ACTIONS: Record<'disable' | 'enable' | 'archive', { to: PaymentLinkRow['status']; from?: readonly PaymentLinkStatus[] }> = {
  disable: { to: 'disabled' },
  enable: { to: 'active', from: ['disabled'] },
  archive: { to: 'archived' },
};

/** Disable, Enable, Archive: moves a link along its machine (payment-link-states.ts). */
export async function transitionPaymentLink(tx: Db, merchantId: string, paymentLinkId: string, action: 'disable' | 'enable' | 'archive') {
  const current = await findPaymentLinkRow(tx, merchantId, paymentLinkId, { forUpdate: true });
  // Checked against the status the seller sees: an expired link is neither enabled nor disabled.
  const status = paymentLinkStatus(current);
  const { to, from } = LINK_ACTIONS[action];
  paymentLinkStateMachine.assertTransition(status, to, `Cannot ${action} payment link ${current.id}`, `it is ${status}`, from);
  const [row] = await tx
    .update(paymentLinks)
    .set({ status: to, updatedAt: now() })
    .where(and(eq(paymentLinks.id, current.id), eq(paymentLinks.merchantId, merchantId)))
    .returning();
  const link = toPaymentLinkResponse(row!);
  await recordUpdated(tx, { merchantId, type: 'payment_link.updated', before: toPaymentLinkResponse(current), after: link });
  return link;
}

/** A fresh, active copy with a new token and no completions; an expiry already past is dropped. */
export async function duplicatePaymentLink(tx: Db, merchantId: string, paymentLinkId: string) {
  const source = await findPaymentLinkRow(tx, merchantId, paymentLinkId);
  const at = now();
  const [row] = await tx
    .insert(paymentLinks)
    .values({
      ...source,
      id: newId('paymentLink'),
      token: newToken(),
      status: paymentLinkStateMachine.start('active'),
      completionCount: 0,
      expiresAt: source.expiresAt && source.expiresAt > at ? source.expiresAt : null,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  const link = toPaymentLinkResponse(row!);
  await recordEvent(tx, { merchantId, type: 'payment_link.created', object: link });
  return link;
}
