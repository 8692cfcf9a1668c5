import { integer, pgTable, text, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, timestampTz, updatedAt } from './columns';
import { merchants } from './merchants';

export type SellerRole = 'Owner' | 'Admin' | 'Developer' | 'Support' | 'ReadOnly';

/**
 * The people who sign in to a seller account (the merchant, the tenant). Each belongs to exactly
 * one account; an email is unique across all seller users, so a sign-in names one account.
 */
export const sellerUsers = pgTable(
  'seller_users',
  {
    id: text().primaryKey(),
    merchantId: text()
      .notNull()
      .references(() => merchants.id),
    email: text().notNull(),
    name: text().notNull(),
    role: text().notNull().$type<SellerRole>(),
    passwordHash: text().notNull(),
    emailVerifiedAt: timestampTz(),
    /** The authenticator (TOTP) secret, AES-256-GCM sealed; set while two-factor is on. */
    totpSecret: text(),
    /** A secret being set up, sealed, until a code proves the app has it. */
    totpPendingSecret: text(),
    /** The newest TOTP time step accepted, so a code works once. */
    totpLastStep: integer(),
    twoFactorEnabledAt: timestampTz(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('seller_users_email_unique').on(sql`lower(${t.email})`), index('seller_users_merchant_idx').on(t.merchantId)],
);

export type SellerTokenPurpose = 'email_verification' | 'password_reset' | 'two_factor_challenge';

/**
 * Single-use tokens of a seller user, stored hashed: emailed links (email verification, password
 * reset) and the second step of a two-factor sign-in (`attempts` counts its wrong codes).
 */
export const sellerUserTokens = pgTable(
  'seller_user_tokens',
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => sellerUsers.id, { onDelete: 'cascade' }),
    purpose: text().notNull().$type<SellerTokenPurpose>(),
    tokenHash: text().notNull(),
    createdAt: createdAt(),
    expiresAt: timestampTz().notNull(),
    usedAt: timestampTz(),
    attempts: integer().notNull().default(0),
  },
  (t) => [uniqueIndex('seller_user_tokens_hash_unique').on(t.tokenHash), index('seller_user_tokens_user_idx').on(t.userId, t.purpose)],
);

/** Team invitations by email: a single-use link (hashed) that creates the member's login. */
export const sellerInvitations = pgTable(
  'seller_invitations',
  {
    id: text().primaryKey(),
    merchantId: text()
      .notNull()
      .references(() => merchants.id),
    email: text().notNull(),
    role: text().notNull().$type<SellerRole>(),
    tokenHash: text().notNull(),
    invitedByUserId: text().references(() => sellerUsers.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestampTz().notNull(),
    acceptedAt: timestampTz(),
    revokedAt: timestampTz(),
  },
  (t) => [uniqueIndex('seller_invitations_hash_unique').on(t.tokenHash), index('seller_invitations_merchant_idx').on(t.merchantId, t.email)],
);

/** One-time recovery codes for two-factor sign-in, stored as SHA-256 only (shown once). */
export const sellerRecoveryCodes = pgTable(
  'seller_recovery_codes',
  {
    id: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => sellerUsers.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    createdAt: createdAt(),
    usedAt: timestampTz(),
  },
  (t) => [index('seller_recovery_codes_user_idx').on(t.userId, t.codeHash)],
);
