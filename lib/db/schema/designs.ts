import { boolean, customType, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, updatedAt } from './columns';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

export type CornerStyle = 'rounded' | 'square' | 'pill';
export type ButtonLabel = 'Pay' | 'Subscribe' | 'Donate' | 'Book';
export type DesignLocale = 'en' | 'de' | 'fr' | 'es' | 'ja';

/** How a seller's hosted checkout, success page, portal and customer emails look (issue 16). */
export const checkoutDesigns = pgTable(
  'checkout_designs',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    displayName: text().notNull(),
    /** The SHA-256 (hex) of the logo's bytes in `design_logos`; null: no logo. */
    logoSha256: text(),
    brandColor: text().notNull(),
    buttonTextColor: text().notNull(),
    accentColor: text().notNull(),
    cornerStyle: text().notNull().$type<CornerStyle>(),
    buttonLabel: text().notNull().$type<ButtonLabel>(),
    supportEmail: text(),
    supportUrl: text(),
    termsUrl: text(),
    privacyUrl: text(),
    defaultLocale: text().$type<DesignLocale>(),
    isDefault: boolean().notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('checkout_designs_merchant_created_idx').on(t.merchantId, t.createdAt),
    // One default per seller, whatever races the API and the console run.
    uniqueIndex('checkout_designs_one_default_per_merchant').on(t.merchantId).where(sql`${t.isDefault}`),
  ],
);

/**
 * Logo images, addressed by the SHA-256 of their bytes: the URL never changes meaning, so it is
 * served with immutable caching, and the same image uploaded twice is stored once.
 */
export const designLogos = pgTable('design_logos', {
  sha256: text().primaryKey(),
  contentType: text().notNull().$type<'image/png' | 'image/jpeg' | 'image/webp'>(),
  byteSize: integer().notNull(),
  bytes: bytea().notNull(),
  createdAt: createdAt(),
});
