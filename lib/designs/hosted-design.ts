import { and, asc, eq, or } from 'drizzle-orm';
import type { Db } from '../db/client';
import { checkoutDesigns, customers, merchants } from '../db/schema';
import { logoPath } from './logos';
import type { CheckoutDesignRow } from './designs';

/** What a hosted page, and an email, needs to wear a seller's design. */
export interface HostedDesign {
  displayName: string;
  /** Site-relative (`/design-logos/{sha256}`), so pages work behind any public URL. */
  logoPath: string | null;
  brandColor: string;
  buttonTextColor: string;
  accentColor: string;
  cornerStyle: CheckoutDesignRow['cornerStyle'];
  buttonLabel: CheckoutDesignRow['buttonLabel'];
  supportEmail: string | null;
  supportUrl: string | null;
  termsUrl: string | null;
  privacyUrl: string | null;
  defaultLocale: CheckoutDesignRow['defaultLocale'];
}

/** `account`: the seller's own support contacts, shown when the design has none. */
export function toHostedDesign(
  row: CheckoutDesignRow,
  account: { supportEmail: string | null; supportUrl: string | null } = { supportEmail: null, supportUrl: null },
): HostedDesign {
  return {
    displayName: row.displayName,
    logoPath: row.logoSha256 ? logoPath(row.logoSha256) : null,
    brandColor: row.brandColor,
    buttonTextColor: row.buttonTextColor,
    accentColor: row.accentColor,
    cornerStyle: row.cornerStyle,
    buttonLabel: row.buttonLabel,
    supportEmail: row.supportEmail ?? account.supportEmail,
    supportUrl: row.supportUrl ?? account.supportUrl,
    termsUrl: row.termsUrl,
    privacyUrl: row.privacyUrl,
    defaultLocale: row.defaultLocale,
  };
}

/**
 * The design a seller's page wears: the link's own design, else the seller's default, else none
 * (the plain Paybase look). Always within the seller, so a designId stored before designs were
 * checked, can never show another seller's brand. One round trip.
 */
export async function resolveHostedDesign(db: Db, merchantId: string, designId: string | null = null): Promise<HostedDesign | null> {
  const isDefault = eq(checkoutDesigns.isDefault, true);
  const [row] = await db
    .select({ design: checkoutDesigns, supportEmail: merchants.supportEmail, supportUrl: merchants.supportUrl })
    .from(checkoutDesigns)
    .innerJoin(merchants, eq(merchants.id, checkoutDesigns.merchantId))
    .where(and(eq(checkoutDesigns.merchantId, merchantId), designId ? or(eq(checkoutDesigns.id, designId), isDefault) : isDefault))
    // The link's own design (not the default, or it is the only row) before the default.
    .orderBy(asc(checkoutDesigns.isDefault))
    .limit(1);
  return row ? toHostedDesign(row.design, row) : null;
}

/** The portal wears the seller's default design; the customer id is the portal's public address. */
export async function designForCustomer(db: Db, customerId: string): Promise<HostedDesign | null> {
  const [customer] = await db.select({ merchantId: customers.merchantId }).from(customers).where(eq(customers.id, customerId));
  return customer ? resolveHostedDesign(db, customer.merchantId) : null;
}
