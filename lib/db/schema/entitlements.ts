import { pgTable, text, integer, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';
import { prices } from './catalog';
import { customers } from './customers';

export const entitlementPolicies = pgTable(
  'entitlement_policies',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    priceId: text()
      .notNull()
      .references(() => prices.id),
    feature: text().notNull(),
    allowed: text().notNull().$type<'Unlimited' | 'Limited' | 'Denied'>(),
    limit: integer(),
    limitAmount: integer(),
    creditGrantAmount: integer(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('entitlement_policies_price_feature_unique').on(t.priceId, t.feature)],
);

export const entitlementOverrides = pgTable(
  'entitlement_overrides',
  {
    id: text().primaryKey(),
    merchantId: text().notNull(),
    customerId: text()
      .notNull()
      .references(() => customers.id),
    feature: text().notNull(),
    allowed: text().notNull().$type<'Unlimited' | 'Limited' | 'Denied'>(),
    limit: integer(),
    limitAmount: integer(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('entitlement_overrides_customer_feature_unique').on(t.customerId, t.feature)],
);
