import { and, eq, ne } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { checkoutDesigns, merchants } from '../db/schema';
import { mapPage, paginate, type PageRequest } from '../db/paginate';
import { newId } from '../ids';
import { now } from '../clock';
import { ApiError, notFound } from '../errors';
import { AA_TEXT, contrastOnPage, contrastRatio, formatRatio } from './contrast';
import { decodeLogo, logoUrl, storeLogo } from './logos';
import type { CreateCheckoutDesignBody, UpdateCheckoutDesignBody } from './schemas';

export type CheckoutDesignRow = typeof checkoutDesigns.$inferSelect;

export function toCheckoutDesignResponse(row: CheckoutDesignRow) {
  return {
    id: row.id,
    displayName: row.displayName,
    logoUrl: logoUrl(row.logoSha256),
    brandColor: row.brandColor,
    buttonTextColor: row.buttonTextColor,
    accentColor: row.accentColor,
    cornerStyle: row.cornerStyle,
    buttonLabel: row.buttonLabel,
    supportEmail: row.supportEmail,
    supportUrl: row.supportUrl,
    termsUrl: row.termsUrl,
    privacyUrl: row.privacyUrl,
    defaultLocale: row.defaultLocale,
    isDefault: row.isDefault,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

type Colours = Pick<CheckoutDesignRow, 'brandColor' | 'buttonTextColor' | 'accentColor'>;

/**
 * WCAG AA (4.5:1, normal-size text) for what the colours carry on the hosted pages: the button's
 * text on the brand colour, and links (and the focus outline) in the accent colour on the page.
 * A light brand colour is fine with dark button text. Each failure names its field and ratio.
 */
export function assertReadableColours(colours: Colours): void {
  const failures: { path: string; message: string; ratio: number; required: number }[] = [];
  const buttonText = contrastRatio(colours.buttonTextColor, colours.brandColor);
  if (buttonText < AA_TEXT) {
    failures.push({
      path: 'brandColor',
      ratio: buttonText,
      required: AA_TEXT,
      message: `Button text ${colours.buttonTextColor} on brandColor ${colours.brandColor} has a contrast ratio of ${formatRatio(buttonText)}; WCAG AA needs ${AA_TEXT}:1. Choose a darker or lighter brandColor, or another buttonTextColor.`,
    });
  }
  const accentOnPage = contrastOnPage(colours.accentColor);
  if (accentOnPage < AA_TEXT) {
    failures.push({
      path: 'accentColor',
      ratio: accentOnPage,
      required: AA_TEXT,
      message: `Links in accentColor ${colours.accentColor} on the page background have a contrast ratio of ${formatRatio(accentOnPage)}; WCAG AA needs ${AA_TEXT}:1.`,
    });
  }
  if (failures.length === 0) return;
  throw new ApiError('VALIDATION_FAILED', failures.map((f) => f.message).join(' '), {
    errors: failures.map(({ path, message }) => ({ path, message })),
    extra: { contrast: failures.map(({ path, ratio, required }) => ({ path, ratio: Math.floor(ratio * 100) / 100, required })) },
  });
}

/** Serialises default changes per seller; the partial unique index is the last word. */
async function moveDefaultTo(tx: Db, merchantId: string, designId: string): Promise<void> {
  await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId)).for('update');
  await tx
    .update(checkoutDesigns)
    .set({ isDefault: false, updatedAt: now() })
    .where(and(eq(checkoutDesigns.merchantId, merchantId), eq(checkoutDesigns.isDefault, true), ne(checkoutDesigns.id, designId)));
}

async function logoField(tx: Db, logoBase64: string | null | undefined): Promise<{ logoSha256?: string | null }> {
  if (logoBase64 === undefined) return {};
  if (logoBase64 === null) return { logoSha256: null };
  return { logoSha256: await storeLogo(tx, decodeLogo(logoBase64)) };
}

export async function createCheckoutDesign(tx: Db, merchantId: string, input: z.output<typeof CreateCheckoutDesignBody>) {
  assertReadableColours(input);
  const { logoBase64, ...fields } = input;
  const id = newId('checkoutDesign');
  const logo = await logoField(tx, logoBase64);
  if (input.isDefault) await moveDefaultTo(tx, merchantId, id);
  const at = now();
  const [row] = await tx
    .insert(checkoutDesigns)
    .values({
      ...fields,
      ...logo,
      id,
      merchantId,
      supportEmail: fields.supportEmail ?? null,
      supportUrl: fields.supportUrl ?? null,
      termsUrl: fields.termsUrl ?? null,
      privacyUrl: fields.privacyUrl ?? null,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  return toCheckoutDesignResponse(row!);
}

export async function findCheckoutDesignRow(db: Db, merchantId: string, designId: string, fieldPath?: string) {
  const [row] = await db
    .select()
    .from(checkoutDesigns)
    .where(and(eq(checkoutDesigns.id, designId), eq(checkoutDesigns.merchantId, merchantId)));
  if (!row) throw notFound('checkout design', designId, fieldPath);
  return row;
}

export async function getCheckoutDesign(db: Db, merchantId: string, designId: string) {
  return toCheckoutDesignResponse(await findCheckoutDesignRow(db, merchantId, designId));
}

export async function listCheckoutDesigns(db: Db, merchantId: string, query: PageRequest & { orderBy: 'createdAt' | 'displayName'; isDefault?: boolean }) {
  const page = await paginate(db, checkoutDesigns, {
    ...query,
    scope: [eq(checkoutDesigns.merchantId, merchantId)],
    where: [query.isDefault === undefined ? undefined : eq(checkoutDesigns.isDefault, query.isDefault)],
    orderBy: [query.orderBy === 'displayName' ? checkoutDesigns.displayName : checkoutDesigns.createdAt, checkoutDesigns.id],
  });
  return mapPage(page, toCheckoutDesignResponse);
}

export async function updateCheckoutDesign(tx: Db, merchantId: string, designId: string, input: z.output<typeof UpdateCheckoutDesignBody>) {
  const current = await findCheckoutDesignRow(tx, merchantId, designId);
  const { logoBase64, ...fields } = input;
  assertReadableColours({ ...current, ...definedOnly(fields) });
  const logo = await logoField(tx, logoBase64);
  if (input.isDefault) await moveDefaultTo(tx, merchantId, designId);
  const [row] = await tx
    .update(checkoutDesigns)
    .set({ ...fields, ...logo, updatedAt: now() })
    .where(and(eq(checkoutDesigns.id, current.id), eq(checkoutDesigns.merchantId, merchantId)))
    .returning();
  return toCheckoutDesignResponse(row!);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** For a payment link's designId on create and update: another seller's design is unknown here. */
export async function assertCheckoutDesignExists(db: Db, merchantId: string, designId: string, fieldPath = 'designId'): Promise<void> {
  await findCheckoutDesignRow(db, merchantId, designId, fieldPath);
}
